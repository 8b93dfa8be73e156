/**
 * The media library's rows (`MEDIA_MODEL.media`, issue #30 item 3) as values: their JSON columns parsed and
 * checked, so a row written around the site (console, REST) never breaks a page. Shared by the admin and the
 * public pages (which read only `meta`).
 */
import { CONTENT_LOCALES, MAX_ALT_TEXT, type ContentLocale } from "../../model/model.ts";

/** An image's facts as the library stored them at upload: pixels, bytes, MIME type. */
export interface MediaMeta {
  width: number;
  height: number;
  bytes: number;
  mimeType: string;
}

/** Default alt texts of an image by content locale (spec: content locales, `model/locales.ts`); missing = none. */
export type AltTexts = Partial<Record<ContentLocale, string>>;

const whole = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;

/** The `meta` column parsed, or null when it is not the JSON of a `MediaMeta` (whole positive sizes). */
export function parseMediaMeta(value: unknown): MediaMeta | null {
  if (typeof value !== "string") return null;
  try {
    const meta = JSON.parse(value) as Record<string, unknown>;
    if (!whole(meta.width) || !whole(meta.height) || !whole(meta.bytes) || typeof meta.mimeType !== "string") {
      return null;
    }
    return { width: meta.width, height: meta.height, bytes: meta.bytes, mimeType: meta.mimeType };
  } catch {
    return null;
  }
}

/** The `alt` column parsed: each content locale's text when it is a string, cut to `MAX_ALT_TEXT`; else `{}`. */
export function parseAltTexts(value: unknown): AltTexts {
  if (typeof value !== "string") return {};
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return {};
  }
  const alt: AltTexts = {};
  if (json && typeof json === "object") {
    for (const locale of CONTENT_LOCALES) {
      const text = (json as Record<string, unknown>)[locale];
      if (typeof text === "string" && text.trim()) alt[locale] = text.trim().slice(0, MAX_ALT_TEXT);
    }
  }
  return alt;
}

/**
 * Alt texts as typed (one string per content locale, possibly missing), trimmed; empty ones dropped.
 * @throws {RangeError} when one is longer than `MAX_ALT_TEXT` characters ("Alt text is at most 500 characters").
 */
export function altTextsOf(input: Partial<Record<string, unknown>>): AltTexts {
  const alt: AltTexts = {};
  for (const locale of CONTENT_LOCALES) {
    const raw = input[locale];
    const text = typeof raw === "string" ? raw.replace(/\s+/g, " ").trim() : "";
    if (text.length > MAX_ALT_TEXT) throw new RangeError(`Alt text is at most ${MAX_ALT_TEXT} characters.`);
    if (text) alt[locale] = text;
  }
  return alt;
}
