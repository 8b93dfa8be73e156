/**
 * UI strings in English and Arabic (spec §1 "Language"). Locales are a route segment; `ar` is
 * right-to-left. A key missing in Arabic falls back to English; missing in both, the key itself is shown
 * and a warning is logged (`t.ts`, with the messages from `catalog.server.ts`).
 */

import {
  CONTENT_LOCALES,
  DEFAULT_CONTENT_LOCALE,
  isContentLocale,
  localeSpec,
  otherLocales,
  type ContentLocale,
} from "../../model/locales.ts";

/** The site's locales: the locale table's (`model/locales.ts`), one list for content, site and admin. */
export const LOCALES = CONTENT_LOCALES;
export type Locale = ContentLocale;
export const DEFAULT_LOCALE: Locale = DEFAULT_CONTENT_LOCALE;

/** True when `value` is a supported locale segment (spec §2: only the table's locales apply a language). */
export const isLocale: (value: unknown) => value is Locale = isContentLocale;

/** The supported locale named by `value`, or the default. */
export function toLocale(value: unknown): Locale {
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

/**
 * The language a page in `locale` offers besides its own (issue #35: "posts only in English"): the default
 * locale, or for the default locale the table's next one ("ar" for "en", "en" for "ar").
 */
export function otherLocale(locale: Locale): Locale {
  return locale === DEFAULT_LOCALE ? otherLocales(locale)[0]! : DEFAULT_LOCALE;
}

/** Text direction of a locale. */
export function directionOf(locale: Locale): "ltr" | "rtl" {
  return localeSpec(locale).dir;
}

/** Replaces the first path segment with `locale` (spec §2 "Switching language"), keeping search and hash. */
export function switchLocalePath(pathname: string, locale: Locale): string {
  const rest = pathname.split("/").slice(2).join("/");
  return `/${locale}${rest ? `/${rest}` : ""}`;
}

/**
 * One long-date formatter per locale, built on first use: building an `Intl.DateTimeFormat` costs far more
 * than using one, and a page's first `Intl` object costs 30–90 ms in Chromium (loading ICU's data). Built when
 * this module loaded, that cost ran in every page's module scripts, before the first paint (issue #18 item 6).
 */
const longDateFormats: Partial<Record<Locale, Intl.DateTimeFormat>> = {};

/** The `Intl` locale of a site locale (the table's `intl`: English dates and numbers as in the US). */
export function intlLocaleOf(locale: Locale): string {
  return localeSpec(locale).intl;
}

/** Dates already formatted, by locale and ISO date: ICU's `format` costs tens of µs a call (issue #33 item 1). */
const longDates = new Map<string, string>();
const MAX_LONG_DATES = 4096;

/** Formats an ISO date in the locale with a long month (spec §2: "published on ... long month"). */
export function formatLongDate(iso: string, locale: Locale): string {
  const key = `${locale} ${iso}`;
  let formatted = longDates.get(key);
  if (formatted === undefined) {
    const format = (longDateFormats[locale] ??= new Intl.DateTimeFormat(intlLocaleOf(locale), {
      dateStyle: "long",
      timeZone: "UTC",
    }));
    formatted = format.format(new Date(iso));
    if (longDates.size >= MAX_LONG_DATES) longDates.clear();
    longDates.set(key, formatted);
  }
  return formatted;
}

/**
 * Number formats by locale and options: building an `Intl.NumberFormat` costs tens of µs (ICU data), about 8 %
 * of rendering the about page when each number built its own (issue #18 item 1's profile).
 */
const numberFormats = new Map<string, Intl.NumberFormat>();

/** Formats a number in the locale (spec §1); `{ notation: "compact" }` gives "5K" / "5 آلاف". */
export function formatNumber(value: number, locale: Locale, options?: Intl.NumberFormatOptions): string {
  const key = options ? `${locale} ${JSON.stringify(options)}` : locale;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(intlLocaleOf(locale), options);
    numberFormats.set(key, format);
  }
  return format.format(value);
}

/** The Open Graph locale of a site locale (`en_US`, `ar_AR`). */
export function ogLocaleOf(locale: Locale): string {
  return localeSpec(locale).ogLocale;
}
