/**
 * The dates of the edit page's history and conflict panels (issue #29 items 4 and 5), in the admin's language,
 * never as raw ISO 8601: the admin's one date format (`formatDate`, `lib/text/dates.ts`, issue #29 item 7),
 * with the raw value kept where it is not a date. Pure: the server and the browser print the same text.
 */
import { DEFAULT_LOCALE, isLocale, type Locale } from "./i18n.ts";
import { formatDate } from "../../lib/text/dates.ts";
import { dateField, PUBLISH_AT_COLUMN } from "../../model/lifecycle.ts";
import { CONTENT_MODEL, type ContentKind, type ContentKindSpec } from "../../model/model.ts";

/** The admin's locale of `locale` (a BCP 47 tag the page gave), its default when it is none of the site's. */
function adminLocale(locale: string): Locale {
  return isLocale(locale) ? locale : DEFAULT_LOCALE;
}

/**
 * A moment (when a version was saved or changed), as `formatDate`'s `moment`: "26 Nov 2026, 00:27 UTC".
 * @param iso an ISO 8601 instant (Appwrite's `$updatedAt`); returned as given when it is not one.
 * @param locale the admin's language (`en`, `ar`).
 * @param timeZone the site's time zone (IANA name; default UTC).
 */
export function momentText(iso: string, locale: string, timeZone?: string): string {
  const text = formatDate(iso, "moment", adminLocale(locale), timeZone);
  return text === "–" ? iso : text;
}

/**
 * A day (a post's date, a "Publish on" day), as `formatDate`'s `day`: "26 Nov 2026".
 * @param iso an ISO 8601 date or instant; "" stays "", anything else is returned as given.
 */
export function dayText(iso: string, locale: string): string {
  const text = formatDate(iso, "day", adminLocale(locale));
  return text === "–" ? iso : text;
}

/** Whether field `name` of `kind` holds a date (its model type `date`, or the "Publish on" column). */
export function isDateField(kind: ContentKind, name: string): boolean {
  const spec: ContentKindSpec = CONTENT_MODEL[kind];
  return name === PUBLISH_AT_COLUMN || name === dateField(kind) || spec.fields[name]?.type === "date";
}
