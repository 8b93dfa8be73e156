/**
 * The content locales and how a language version is named among the items of a kind (issue #15, decision
 * 0008). Plain data, like `model.ts`, which re-exports it.
 */

/** The locales content is written in (spec §9: en and ar, default en); the first is the default. */
export const CONTENT_LOCALES = ["en", "ar"] as const;
export type ContentLocale = (typeof CONTENT_LOCALES)[number];
/** The locale of a file without a locale suffix and of documents stored before locales existed. */
export const DEFAULT_CONTENT_LOCALE: ContentLocale = "en";

/** Whether `value` is a content locale (`en`, `ar`). */
export function isContentLocale(value: unknown): value is ContentLocale {
  return (CONTENT_LOCALES as readonly unknown[]).includes(value);
}

/**
 * The key of one language version among the items of a kind (sync lock, plans, maps): the slug for the
 * default locale (so a lock written before locales existed keeps its meaning), `slug@locale` otherwise.
 */
export function versionKey(slug: string, locale: ContentLocale): string {
  return locale === DEFAULT_CONTENT_LOCALE ? slug : `${slug}@${locale}`;
}

/** The slug and locale of a `versionKey`; a key without a known `@locale` is the default locale's. */
export function parseVersionKey(key: string): { slug: string; locale: ContentLocale } {
  const at = key.lastIndexOf("@");
  const locale = key.slice(at + 1);
  return at > 0 && isContentLocale(locale)
    ? { slug: key.slice(0, at), locale }
    : { slug: key, locale: DEFAULT_CONTENT_LOCALE };
}

/** The version key of a stored document (a document without a locale is the default locale's). */
export function documentVersionKey(doc: object): string {
  const { slug, locale } = doc as { slug?: unknown; locale?: unknown };
  return versionKey(String(slug), isContentLocale(locale) ? locale : DEFAULT_CONTENT_LOCALE);
}
