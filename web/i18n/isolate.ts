/**
 * Bidirectional isolation of the values put into a sentence (issue #29 item 7): a Latin field name, URL or
 * glossary term inside an Arabic message (or an Arabic one inside English) is wrapped in FIRST STRONG ISOLATE
 * (U+2068) … POP DIRECTIONAL ISOLATE (U+2069), the plain-text form of `<bdi>` (Unicode UAX #9 §2.7, W3C
 * "Inline markup and bidirectional text in HTML"), so the sentence around it keeps its order: never
 * «(glossary) "مكتب خلفي" title: render…».
 */
import type { Values } from "./t.ts";

/** FIRST STRONG ISOLATE: the text up to the matching PDI runs in the direction of its first strong letter. */
export const FSI = "\u2068";
/** POP DIRECTIONAL ISOLATE: ends the isolate FSI began. */
export const PDI = "\u2069";

/** `value` as an isolate (FSI … PDI); an empty value stays empty. */
export function isolate(value: string | number): string {
  const text = String(value);
  return text === "" ? "" : `${FSI}${text}${PDI}`;
}

/** `values` with each string value isolated (numbers stay as they are: digits are weak and keep their place). */
export function isolateValues(values: Values): Values {
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, typeof v === "string" ? isolate(v) : v]),
  ) as Values;
}
