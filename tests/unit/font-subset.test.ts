/**
 * The Arabic pages' fonts (`web/fonts/`, issue 18 item 6 and issue 8: "the Arabic font subset and preloaded"):
 * each file maps exactly the code points its `@font-face` declares, is what `npm run fonts` makes, and sets
 * Arabic text exactly as Fontsource's full file does (same glyph count and advances, so letters still join).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Buffer as ShapingBuffer, Font, shape } from "harfbuzzjs";
import { describe, expect, it } from "vitest";
import {
  FONTS_DIR,
  STYLESHEET,
  codePointsOf,
  mappedCodePoints,
  openFace,
  sourceFile,
  subsetBytes,
  subsetFaces,
} from "../../scripts/dev/subset-fonts.ts";

const faces = subsetFaces(await readFile(STYLESHEET, "utf8"));
const committed = (file: string) => readFile(path.join(FONTS_DIR, file));
const fontsource = (file: string) => readFile(sourceFile(file));

/** The glyphs HarfBuzz sets `text` in (ids, which differ between files, and advances): how it would look. */
async function setting(font: Uint8Array, text: string) {
  const shaped = new Font(await openFace(font));
  const buffer = new ShapingBuffer();
  buffer.addText(text);
  buffer.guessSegmentProperties();
  shape(shaped, buffer);
  return buffer.getGlyphInfosAndPositions().map((glyph) => ({ id: glyph.codepoint, advance: glyph.xAdvance }));
}

describe("the Arabic pages' font subsets", () => {
  it("are the faces the Arabic pages use: Kufi (UI) and Naskh (long text), Arabic and Latin, 400 and 700", () => {
    expect(faces.map((face) => face.file).sort()).toEqual([
      "noto-kufi-arabic-arabic-400-normal.woff2",
      "noto-kufi-arabic-arabic-700-normal.woff2",
      "noto-kufi-arabic-latin-400-normal.woff2",
      "noto-kufi-arabic-latin-700-normal.woff2",
      "noto-naskh-arabic-arabic-400-normal.woff2",
      "noto-naskh-arabic-arabic-700-normal.woff2",
      "noto-naskh-arabic-latin-400-normal.woff2",
      "noto-naskh-arabic-latin-700-normal.woff2",
    ]);
  });

  it("cuts each family from its own Fontsource package, and refuses a file of no known family", () => {
    expect(sourceFile("noto-naskh-arabic-arabic-400-normal.woff2")).toMatch(
      /node_modules\/@fontsource\/noto-naskh-arabic\/files\/noto-naskh-arabic-arabic-400-normal\.woff2$/,
    );
    expect(() => sourceFile("amiri-arabic-400-normal.woff2")).toThrow(/must start with one of noto-kufi-arabic/);
  });

  it.each(faces)("$file maps exactly its unicode-range, and is what `npm run fonts` writes", async (face) => {
    const bytes = await committed(face.file);
    expect(await mappedCodePoints(bytes)).toEqual(face.codePoints);
    expect(bytes.equals(await subsetBytes(face))).toBe(true);
    expect(bytes.length).toBeLessThan((await fontsource(face.file)).length);
  });

  it("covers Arabic letters, Arabic-Indic digits and the Arabic comma and question mark, and basic Latin", () => {
    const arabic = faces.find((face) => face.file.includes("arabic-400"))!.codePoints;
    for (const point of [0x627, 0x644, 0x64a, 0x660, 0x669, 0x60c, 0x61f, 0x6cc, 0x200c]) {
      expect(arabic).toContain(point);
    }
    const latin = faces.find((face) => face.file.includes("latin-400"))!.codePoints;
    for (const point of [0x20, 0x30, 0x39, 0x41, 0x7a, 0x40, 0xab, 0xbb, 0xa9]) expect(latin).toContain(point);
  });

  it.each([
    "noto-kufi-arabic-arabic-400",
    "noto-kufi-arabic-arabic-700",
    "noto-naskh-arabic-arabic-400",
    "noto-naskh-arabic-arabic-700",
  ])("%s sets Arabic as Fontsource's full file does (joined forms, lam-alef)", async (name) => {
    const file = `${name}-normal.woff2`;
    // Word by word: the space between words is the Latin face's (its unicode-range), not this file's.
    for (const word of ["لا", "إله", "بببب", "السلام", "عليكم،", "٢٠٢٦؟", "ﻻ"]) {
      const advances = async (font: Uint8Array) => (await setting(font, word)).map((glyph) => glyph.advance);
      expect(await advances(await committed(file))).toEqual(await advances(await fontsource(file)));
    }
    // Joined: "ب" alone, and "ب" at the start, middle and end of "ببب", are four different glyphs (the dots
    // are one mark glyph with no advance).
    const letters = async (word: string) =>
      (await setting(await committed(file), word)).filter((glyph) => (glyph.advance ?? 0) > 0).map((glyph) => glyph.id);
    const alone = await letters("ب");
    const joined = await letters("ببب");
    expect(new Set([...alone, ...joined]).size).toBe(4);
  });

  it("rejects a unicode-range the source font cannot fill, naming the code points", async () => {
    const face = { file: "noto-kufi-arabic-arabic-400-normal.woff2", codePoints: codePointsOf("U+0627, U+4E00") };
    await expect(subsetBytes(face)).rejects.toThrow(/no glyph for U\+4E00; drop them/);
  });
});
