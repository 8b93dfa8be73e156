/**
 * The Arabic faces' metric-matched fallbacks (decision 0018, issue #35 item 1: "no layout shift when it loads"):
 * web/app.css declares, for each family, weight and range, a DejaVu Sans face scaled to the web face's average
 * advance over the site's text and carrying its vertical metrics, names it right after the web face, and names
 * no web face at all while `fonts-later` is set.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { FALLBACK_FACES, declaredFallback, fallbackDescriptors, sampleText } from "../../scripts/dev/font-fallbacks.ts";
import { STYLESHEET } from "../../scripts/dev/subset-fonts.ts";

const css = await readFile(STYLESHEET, "utf8");
/** The value of a custom property in the first rule of `selector` (a literal selector) in app.css. */
const property = (selector: string, name: string) => {
  const rule = css.slice(css.indexOf(`${selector} {`));
  return new RegExp(`${name}:\\s*([^;]+);`).exec(rule.slice(0, rule.indexOf("}")))?.[1];
};

describe("the Arabic faces' fallbacks", () => {
  it("are measured over the site's own Arabic and English text", async () => {
    expect((await sampleText("arabic")).length).toBeGreaterThan(10_000);
    expect(await sampleText("arabic")).not.toMatch(/[A-Za-z]/);
    expect((await sampleText("latin")).length).toBeGreaterThan(10_000);
  });

  it.each(FALLBACK_FACES.map((face) => [`${face.family} ${face.weight} ${face.range}`, face] as const))(
    "%s: declared with the size adjustment and vertical metrics that match the web face",
    async (_name, face) => {
      const declared = declaredFallback(css, face);
      expect(declared, "run `npx tsx scripts/dev/font-fallbacks.ts` and copy its values").toEqual(
        await fallbackDescriptors(face),
      );
      const ascent = parseFloat(declared!.ascentOverride) * parseFloat(declared!.sizeAdjust);
      // Kufi's and Naskh's own ascents (1.282 and 1.069 em), whatever the scale: lines keep their place.
      expect(Math.round(ascent / 100)).toBe(face.family === "Noto Kufi Arabic" ? 128 : 107);
    },
  );

  it("come right after their web face, and alone while the page has not painted", () => {
    expect(property("@theme", "--font-arabic")).toMatch(/^"Noto Kufi Arabic", "Noto Kufi Arabic Fallback",/);
    expect(property("@theme", "--font-arabic-text")).toMatch(/^"Noto Naskh Arabic", "Noto Naskh Arabic Fallback",/);
    for (const name of ["--font-sans", "--font-arabic", "--font-arabic-text"]) {
      const later = property(":root.fonts-later", name);
      expect(later, name).toMatch(/Fallback/);
      expect(later, name).not.toMatch(/"(Inter|Noto Kufi Arabic|Noto Naskh Arabic)"/);
    }
  });
});
