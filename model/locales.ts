/**
 * The locale table (issue #27 item 2) and how a language version is named among the items of a kind (issue
 * #15, decision 0008). Plain data, like `model.ts`, which re-exports it: the browser may read it.
 */

/** One language of the site, its content and its admin (STYLE 13: a locale is one entry of a table). */
export interface LocaleSpec {
  /** How the language runs: `rtl` for Arabic (spec §1), `ltr` otherwise. */
  readonly dir: "ltr" | "rtl";
  /** The BCP 47 locale `Intl` formats its dates and numbers with (`en-US`, `ar`). */
  readonly intl: string;
  /** Its Open Graph locale (`og:locale`, `og:locale:alternate`). */
  readonly ogLocale: string;
  /** The font its text is set in: `latin` (Inter) or `arabic` (the Noto subsets in `web/fonts/`). */
  readonly font: "latin" | "arabic";
  /** Its name in its own language, for language switches and version tabs. */
  readonly label: string;
  /** Its name as told to the AI translator, and any writing rule of its own. */
  readonly ai: { readonly language: string; readonly style?: string };
}

/**
 * The locales, in order (spec §9: en and ar, default en; the first is the default). The site, the admin,
 * `studio` and the content model iterate this table; a new language is one entry here plus its message file
 * (`web/i18n/locales/<code>.ts`).
 */
export const LOCALE_TABLE = {
  en: { dir: "ltr", intl: "en-US", ogLocale: "en_US", font: "latin", label: "English", ai: { language: "English" } },
  ar: {
    dir: "rtl",
    intl: "ar",
    ogLocale: "ar_AR",
    font: "arabic",
    label: "العربية",
    ai: { language: "Modern Standard Arabic", style: "with Arabic punctuation (، ؛ ؟)" },
  },
} as const satisfies Record<string, LocaleSpec>;

export type ContentLocale = keyof typeof LOCALE_TABLE;
/** The locale codes, in the table's order (a non-empty tuple, for `z.enum`). */
export const CONTENT_LOCALES = Object.keys(LOCALE_TABLE) as [ContentLocale, ...ContentLocale[]];
/** The locale of a file without a locale suffix and of documents stored before locales existed. */
export const DEFAULT_CONTENT_LOCALE: ContentLocale = CONTENT_LOCALES[0];

/** Whether `value` is a locale code of the table (`en`, `ar`). */
export function isContentLocale(value: unknown): value is ContentLocale {
  return typeof value === "string" && Object.hasOwn(LOCALE_TABLE, value);
}

/** The table's entry of `locale`. */
export function localeSpec(locale: ContentLocale): LocaleSpec {
  return LOCALE_TABLE[locale];
}

/** The other locales than `locale`, in the table's order (the versions an item may have besides it). */
export function otherLocales(locale: ContentLocale): ContentLocale[] {
  return CONTENT_LOCALES.filter((l) => l !== locale);
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
