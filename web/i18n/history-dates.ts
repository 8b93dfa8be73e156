/**
 * The dates of the edit page's history and conflict panels (issue #29 items 4 and 5), formatted with `Intl` in
 * the admin's language, never as raw ISO 8601. Kept in this one small module so it switches to the admin's
 * shared date formatter (issue #29 item 7: one format per kind of date) once that exists. Pure: the server and
 * the browser print the same text (UTC, a fixed zone), so hydration does not change it.
 */
import { DEFAULT_LOCALE, intlLocaleOf, isLocale, type Locale } from "./i18n.ts";
import { dateField, PUBLISH_AT_COLUMN } from "../../model/lifecycle.ts";
import { CONTENT_MODEL, type ContentKind, type ContentKindSpec } from "../../model/model.ts";

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(locale: Locale, withTime: boolean): Intl.DateTimeFormat {
  const key = `${locale}:${withTime}`;
  let format = formats.get(key);
  if (!format) {
    // English as the admin's flash writes a day ("1 Dec 2026"); Arabic with Arabic month names.
    const intl = locale === DEFAULT_LOCALE ? "en-GB" : intlLocaleOf(locale);
    const time = withTime ? ({ hour: "2-digit", minute: "2-digit", hourCycle: "h23" } as const) : {};
    format = new Intl.DateTimeFormat(intl, {
      day: "numeric",
      month: "short",
      year: "numeric",
      timeZone: "UTC",
      ...time,
    });
    formats.set(key, format);
  }
  return format;
}

/** The admin's locale of `locale` (a BCP 47 tag the page gave), its default when it is none of the site's. */
function adminLocale(locale: string): Locale {
  return isLocale(locale) ? locale : DEFAULT_LOCALE;
}

/**
 * A moment (when a version was saved or changed): "26 Nov 2026, 00:27 UTC" / "٢٦ نوفمبر ٢٠٢٦، ٠٠:٢٧ UTC".
 * @param iso an ISO 8601 instant (Appwrite's `$updatedAt`); returned as given when it is not one.
 * @param locale the admin's language (`en`, `ar`).
 */
export function momentText(iso: string, locale: string): string {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return iso;
  return `${formatOf(adminLocale(locale), true).format(date)} UTC`;
}

/**
 * A day (a post's date, a "Publish on" day): "26 Nov 2026" / "٢٦ نوفمبر ٢٠٢٦", the UTC day of `iso`.
 * @param iso an ISO 8601 date or instant; "" stays "", anything else is returned as given.
 */
export function dayText(iso: string, locale: string): string {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T00:00:00Z` : iso);
  if (!iso || Number.isNaN(date.getTime())) return iso;
  return formatOf(adminLocale(locale), false).format(date);
}

/** Whether field `name` of `kind` holds a date (its model type `date`, or the "Publish on" column). */
export function isDateField(kind: ContentKind, name: string): boolean {
  const spec: ContentKindSpec = CONTENT_MODEL[kind];
  return name === PUBLISH_AT_COLUMN || name === dateField(kind) || spec.fields[name]?.type === "date";
}
