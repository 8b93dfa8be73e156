/**
 * The admin's dates: one format per kind of date, per language (issue #29 item 7). Pure (`Intl` only), so
 * the server's loaders, the flash messages, the browser's components and `studio` write a date the same way.
 *
 * | kind     | English                                   | Arabic                                       |
 * |----------|-------------------------------------------|----------------------------------------------|
 * | `day`    | 1 Dec 2026                                | 1 ديسمبر 2026                                |
 * | `time`   | 09:00                                     | 09:00                                        |
 * | `moment` | 1 Dec 2026, 09:00 Asia/Riyadh (UTC+03:00) | 1 ديسمبر 2026، 09:00 Asia/Riyadh (UTC+03:00) |
 *
 * `day` is a calendar day (a post's publication date, a list's date column); `time` a time of day (an
 * autosave's "Saved 10:42"); `moment` an instant with its time and zone (saved, scheduled, updated, restored,
 * received, a preview link's expiry). Arabic has Arabic month names and the Latin digits the Arabic admin
 * uses elsewhere (its inbox, its numbers: `ar-u-nu-latn`); in Arabic the zone's name and offset are isolated
 * left-to-right (U+2066…U+2069) so the bidi algorithm keeps "UTC+03:00" whole in an Arabic sentence.
 */
import { DEFAULT_TIME_ZONE, zoneLabel } from "./time-zone.ts";

/** The kinds of date the admin shows (see the table above). */
export type DateKind = "day" | "time" | "moment";

/** A date to format: an ISO string (a calendar day `YYYY-MM-DD`, or a date-time), a Date, or ms since the epoch. */
export type DateValue = string | Date | number;

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;
const formats = new Map<string, Intl.DateTimeFormat>();

/** The `Intl` locale of an admin language: Arabic with Latin digits, English as in Britain (day month year). */
function intlOf(locale: string): string {
  return locale === "ar" ? "ar-u-nu-latn" : "en-GB";
}

/** The parts of `at` in `zone` for `locale` (formatters built once per locale and zone). */
function partsOf(at: Date, locale: string, zone: string): Record<string, string> {
  const key = `${locale} ${zone}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(intlOf(locale), {
      timeZone: zone,
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formats.set(key, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(at)) if (part.type !== "literal") parts[part.type] = part.value;
  return parts;
}

/**
 * `value` as the admin writes a date of `kind` in `locale` (`en`, `ar`), in `timeZone` (an IANA name, default
 * UTC: the site's time zone, issue #29 item 2). A calendar day (`YYYY-MM-DD`) is that day whatever the zone.
 * @returns e.g. `1 Dec 2026`, `09:00`, `1 Dec 2026, 09:00 Asia/Riyadh (UTC+03:00)`; `–` for an empty or
 * unreadable value (a list cell without a date), never "Invalid Date".
 */
export function formatDate(
  value: DateValue | null | undefined,
  kind: DateKind,
  locale: string,
  timeZone: string = DEFAULT_TIME_ZONE,
): string {
  if (value === null || value === undefined || value === "") return "–";
  const dayOnly = typeof value === "string" && CALENDAR_DAY.test(value);
  const at = new Date(dayOnly ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(at.getTime())) return "–";
  const zone = dayOnly ? "UTC" : timeZone;
  const p = partsOf(at, locale, zone);
  const day = `${p.day} ${p.month} ${p.year}`;
  const time = `${p.hour === "24" ? "00" : p.hour}:${p.minute}`;
  if (kind === "day") return day;
  if (kind === "time") return time;
  if (locale !== "ar") return `${day}, ${time} ${zoneLabel(zone, at)}`;
  return `${day}، ${time} \u2066${zoneLabel(zone, at)}\u2069`;
}
