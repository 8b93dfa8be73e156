/** Types for the two font packages that ship none; only what `subset-fonts.ts` calls. */
declare module "subset-font" {
  /** Cuts `font` down to the glyphs `text` needs (plus what its layout features reach). */
  export default function subsetFont(
    font: Uint8Array,
    text: string,
    options?: { targetFormat?: "sfnt" | "woff" | "woff2"; keepFeatures?: string[] },
  ): Promise<Buffer>;
}

declare module "fontverter" {
  /** Converts between sfnt (TrueType/OpenType), woff and woff2; the source format is detected. */
  export function convert(font: Uint8Array, toFormat: "sfnt" | "woff" | "woff2"): Promise<Buffer>;
  const fontverter: { convert: typeof convert };
  export default fontverter;
}
