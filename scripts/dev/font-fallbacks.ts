/**
 * The metric-matched fallbacks of the Arabic faces (docs/decisions/0018): until Noto Kufi Arabic or Noto Naskh
 * Arabic arrives, its text is set in a font the system has (DejaVu Sans, the Arabic font of Debian's and most
 * Linux systems' default set), scaled to the web face's average advance over the site's own text
 * (`size-adjust`) and given the web face's vertical metrics (`ascent-override`, `descent-override`,
 * `line-gap-override`), so that swapping the web face in moves no line and barely changes one's length.
 *
 * `web/app.css` holds the rules (`@font-face` with `font-family: "<Family> Fallback"`); this computes what they
 * must say: `npx tsx scripts/dev/font-fallbacks.ts` prints the descriptors, `--check` exits 1 when app.css
 * differs. `tests/unit/font-fallbacks.test.ts` holds the same.
 *
 * How the values are derived (CSS Fonts 5 §4.7–4.9, the `size-adjust` and metrics override descriptors): the
 * overrides are percentages of the font size *before* `size-adjust` scales them, so each is the web face's
 * metric (in em) divided by the size adjustment, as the Inter fallback in app.css and Next.js' font tooling do.
 */
import { existsSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Buffer as ShapingBuffer, Font, shape } from "harfbuzzjs";
import { STYLESHEET, openFace, sourceFile } from "./subset-fonts.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** Where Debian (`fonts-dejavu-core`, which Chromium's package depends on) installs DejaVu Sans. */
export const DEJAVU_DIR = process.env.DEJAVU_DIR ?? "/usr/share/fonts/truetype/dejavu";

/** One fallback face: the web face it stands in for and the local font it is made of. */
export interface FallbackFace {
  /** The web family (`Noto Kufi Arabic`); the fallback family is this plus ` Fallback`. */
  family: "Noto Kufi Arabic" | "Noto Naskh Arabic";
  weight: 400 | 700;
  /** Which `unicode-range` of the web faces it covers (the same two as `web/fonts/`). */
  range: "arabic" | "latin";
  /** The `local()` names of the system font (full name, then PostScript name). */
  local: [string, string];
  /** Its file, to measure. */
  localFile: string;
}

const DEJAVU = {
  400: { local: ["DejaVu Sans", "DejaVuSans"], file: "DejaVuSans.ttf" },
  700: { local: ["DejaVu Sans Bold", "DejaVuSans-Bold"], file: "DejaVuSans-Bold.ttf" },
} as const;

/** Every fallback face app.css declares: both Arabic families, both weights, both ranges, in DejaVu Sans. */
export const FALLBACK_FACES: FallbackFace[] = (["Noto Kufi Arabic", "Noto Naskh Arabic"] as const).flatMap((family) =>
  ([400, 700] as const).flatMap((weight) =>
    (["arabic", "latin"] as const).map((range) => ({
      family,
      weight,
      range,
      local: [...DEJAVU[weight].local] as [string, string],
      localFile: path.join(DEJAVU_DIR, DEJAVU[weight].file),
    })),
  ),
);

/** The descriptors of one fallback face, in percent with two decimals, as app.css writes them. */
export interface FallbackDescriptors {
  sizeAdjust: string;
  ascentOverride: string;
  descentOverride: string;
  lineGapOverride: string;
}

/**
 * The text the widths are averaged over: the site's own content, Arabic runs from `content/**\/*.ar.*` for the
 * Arabic range and Latin words from the English files for the Latin range (what those faces set).
 */
export async function sampleText(range: "arabic" | "latin"): Promise<string> {
  const text: string[] = [];
  for (const kind of ["posts", "ventures"]) {
    const dir = path.join(ROOT, "content", kind);
    for (const name of (await readdir(dir)).sort()) {
      if (name.includes(".ar.") !== (range === "arabic")) continue;
      const body = (await readFile(path.join(dir, name), "utf8")).replace(/<[^>]+>|\(http[^)]*\)/g, " ");
      const runs = body.match(range === "arabic" ? /[\u0600-\u06FF][\u0600-\u06FF\s]*/g : /[A-Za-z][A-Za-z ]*/g);
      text.push(...(runs ?? []));
    }
  }
  return text.join(" ").replace(/\s+/g, " ");
}

/** A font's vertical metrics (as HarfBuzz and Chromium read them) and the advance of `text` set in it, in em. */
async function measure(file: string, text: string) {
  const face = await openFace(await readFile(file));
  const font = new Font(face);
  const upem = face.upem;
  const extents = font.hExtents();
  const buffer = new ShapingBuffer();
  buffer.addText(text);
  buffer.guessSegmentProperties(); // Arabic runs right to left, Latin left to right
  shape(font, buffer);
  const advance = buffer.getGlyphPositions().reduce((sum, glyph) => sum + glyph.xAdvance, 0) / upem;
  return {
    ascent: extents.ascender / upem,
    descent: -extents.descender / upem,
    lineGap: extents.lineGap / upem,
    advance,
  };
}

const percent = (value: number) => `${Number((value * 100).toFixed(2))}%`; // as Prettier writes it

/**
 * What a fallback face's descriptors must be: `size-adjust` = the web face's advance over the sample / the
 * local font's, each override = the web face's metric / that adjustment.
 * @throws {Error} when the local font file is missing (install Debian's `fonts-dejavu-core`, or set DEJAVU_DIR).
 */
export async function fallbackDescriptors(face: FallbackFace): Promise<FallbackDescriptors> {
  if (!existsSync(face.localFile))
    throw new Error(`${face.localFile} is missing: install fonts-dejavu-core, or set DEJAVU_DIR to its folder.`);
  const text = await sampleText(face.range);
  const webFile = `${face.family.toLowerCase().replaceAll(" ", "-")}-${face.range}-${face.weight}-normal.woff2`;
  const web = await measure(sourceFile(webFile), text);
  const local = await measure(face.localFile, text);
  const scale = web.advance / local.advance;
  return {
    sizeAdjust: percent(scale),
    ascentOverride: percent(web.ascent / scale),
    descentOverride: percent(web.descent / scale),
    lineGapOverride: percent(web.lineGap / scale),
  };
}

/** The `@font-face` rule of a fallback face in `css` (its family, weight and range), or undefined. */
export function declaredFallback(css: string, face: FallbackFace): FallbackDescriptors | undefined {
  for (const [rule] of css.matchAll(/@font-face\s*{[^}]*}/g)) {
    const family = /font-family:\s*"([^"]+)"/.exec(rule)?.[1];
    const weight = Number(/font-weight:\s*(\d+)/.exec(rule)?.[1]);
    const range = /unicode-range:\s*U\+0600/.test(rule) ? "arabic" : "latin";
    if (family !== `${face.family} Fallback` || weight !== face.weight || range !== face.range) continue;
    const value = (name: string) => new RegExp(`${name}:\\s*([\\d.]+%)`).exec(rule)?.[1] ?? "";
    return {
      sizeAdjust: value("size-adjust"),
      ascentOverride: value("ascent-override"),
      descentOverride: value("descent-override"),
      lineGapOverride: value("line-gap-override"),
    };
  }
  return undefined;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const css = await readFile(STYLESHEET, "utf8");
  let differs = false;
  for (const face of FALLBACK_FACES) {
    const wanted = await fallbackDescriptors(face);
    const declared = declaredFallback(css, face);
    const name = `"${face.family} Fallback" ${face.weight} ${face.range}`;
    if (JSON.stringify(declared) !== JSON.stringify(wanted)) differs = true;
    console.log(
      `${name}: size-adjust: ${wanted.sizeAdjust}; ascent-override: ${wanted.ascentOverride}; descent-override: ${wanted.descentOverride}; line-gap-override: ${wanted.lineGapOverride};${declared && JSON.stringify(declared) === JSON.stringify(wanted) ? "" : " (app.css differs)"}`,
    );
  }
  if (differs && process.argv.includes("--check")) process.exit(1);
}
