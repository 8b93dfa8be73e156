/**
 * Writes the Arabic pages' font files, `web/fonts/*.woff2`, from Fontsource's packages: `npm run fonts`.
 * `noto-kufi-arabic-*` files (headings and UI) come from `@fontsource/noto-kufi-arabic`, `noto-naskh-arabic-*`
 * files (long Arabic text, docs/decisions/0014) from `@fontsource/noto-naskh-arabic`: the package is the file
 * name's family, as Fontsource names its files.
 * With `--check`, writes nothing and exits 1 when a committed file differs from what this would write.
 *
 * `web/app.css` is the one place the subsets are defined: each `@font-face` whose `src` is `./fonts/<name>` is
 * cut from the Fontsource file of the same name to exactly the code points of its `unicode-range`, keeping every
 * OpenType layout feature, so Arabic still joins (initial, medial and final forms, lam-alef) through the glyphs
 * the features reach (HarfBuzz's subsetter, through `subset-font`). Why the subsets are smaller than
 * Fontsource's: docs/decisions/0013-arabic-font-subset.md.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fontverter from "fontverter";
import { Blob, Face } from "harfbuzzjs";
import subsetFont from "subset-font";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The stylesheet whose `@font-face` rules define the subsets. */
export const STYLESHEET = path.join(ROOT, "web/app.css");
/** Where the subsets are written, `./fonts/` relative to the stylesheet. */
export const FONTS_DIR = path.join(ROOT, "web/fonts");
/** The families the subsets are cut from: each one's Fontsource package is `@fontsource/<family>`. */
export const FAMILIES = ["noto-kufi-arabic", "noto-naskh-arabic"] as const;

/**
 * The Fontsource file a subset named `file` is cut from: `node_modules/@fontsource/<family>/files/<file>`,
 * the family being the name's prefix (`noto-naskh-arabic-arabic-400-normal.woff2` → noto-naskh-arabic).
 * Throws for a name of no family in `FAMILIES`, saying which prefixes are known.
 */
export function sourceFile(file: string): string {
  const family = FAMILIES.find((name) => file.startsWith(`${name}-`));
  if (!family) throw new Error(`web/fonts/${file}: the name must start with one of ${FAMILIES.join(", ")}.`);
  return path.join(ROOT, "node_modules/@fontsource", family, "files", file);
}

/** One self-hosted face: its file name in `web/fonts/` and the code points its `unicode-range` declares. */
export interface SubsetFace {
  file: string;
  codePoints: number[];
}

/**
 * The `@font-face` rules of `css` whose `src` is a file in `./fonts/`, with their `unicode-range` expanded.
 * Throws when such a rule has no `unicode-range` (a face without one would be fetched for any text).
 */
export function subsetFaces(css: string): SubsetFace[] {
  const faces: SubsetFace[] = [];
  for (const [rule] of css.matchAll(/@font-face\s*{[^}]*}/g)) {
    const file = /url\(["']?\.\/fonts\/([^"')]+)["']?\)/.exec(rule)?.[1];
    if (!file) continue;
    const range = /unicode-range:([^;]+);/.exec(rule)?.[1];
    if (!range) throw new Error(`web/app.css: the @font-face for ./fonts/${file} needs a unicode-range.`);
    faces.push({ file, codePoints: codePointsOf(range) });
  }
  return faces;
}

/**
 * The code points of a CSS `unicode-range` value, ascending (`U+0600-06FF, U+200C` → 0x600…0x6ff, 0x200c).
 * Wildcard forms (`U+4??`) are not used here and throw. Source: CSS Fonts 4 §4.5 (unicode-range).
 */
export function codePointsOf(unicodeRange: string): number[] {
  const points = new Set<number>();
  for (const part of unicodeRange.split(",").map((p) => p.trim())) {
    const match = /^U\+([0-9A-F]{1,6})(?:-([0-9A-F]{1,6}))?$/i.exec(part);
    if (!match) throw new Error(`unicode-range part "${part}" is not U+XXXX or U+XXXX-YYYY.`);
    const first = parseInt(match[1]!, 16);
    const last = match[2] ? parseInt(match[2], 16) : first;
    for (let point = first; point <= last; point++) points.add(point);
  }
  return [...points].sort((a, b) => a - b);
}

/** A font file (woff2, woff or sfnt) opened for HarfBuzz. */
export async function openFace(font: Uint8Array): Promise<Face> {
  return new Face(new Blob(await fontverter.convert(Buffer.from(font), "sfnt")), 0);
}

/** The code points a font file (woff2, woff or sfnt) maps in its `cmap`, ascending. */
export async function mappedCodePoints(font: Uint8Array): Promise<number[]> {
  return [...(await openFace(font)).collectUnicodes()].sort((a, b) => a - b);
}

/**
 * The bytes of one face's subset, cut from the Fontsource file of the same name. Throws, naming them, when the
 * range declares code points the Fontsource file does not have (the range would promise glyphs it cannot give).
 * @param source that file's bytes, when the caller has read them already.
 */
export async function subsetBytes(face: SubsetFace, source?: Buffer): Promise<Buffer> {
  source ??= await readFile(sourceFile(face.file));
  const available = new Set(await mappedCodePoints(source));
  const missing = face.codePoints.filter((point) => !available.has(point));
  if (missing.length > 0) {
    const names = missing.map((point) => `U+${point.toString(16).toUpperCase().padStart(4, "0")}`);
    throw new Error(
      `${face.file}: its Fontsource file has no glyph for ${names.join(", ")}; drop them from its unicode-range.`,
    );
  }
  return subsetFont(source, String.fromCodePoint(...face.codePoints), { targetFormat: "woff2" });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes("--check");
  let differs = false;
  for (const face of subsetFaces(await readFile(STYLESHEET, "utf8"))) {
    const source = await readFile(sourceFile(face.file));
    const bytes = await subsetBytes(face, source);
    const target = path.join(FONTS_DIR, face.file);
    if (check) {
      const current = await readFile(target).catch(() => undefined);
      if (!current?.equals(bytes)) {
        console.error(`web/fonts/${face.file} differs from its unicode-range in web/app.css: run \`npm run fonts\`.`);
        differs = true;
      }
    } else {
      await writeFile(target, bytes);
      const original = source.length;
      console.log(
        `wrote web/fonts/${face.file}: ${bytes.length} bytes (Fontsource's: ${original}), ${face.codePoints.length} code points`,
      );
    }
  }
  if (differs) process.exit(1);
}
