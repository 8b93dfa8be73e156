/**
 * Wall times in a named time zone and the instants they stand for (issue #29 item 2: scheduling to the minute
 * in the site's time zone). Pure, with `Intl` only (its IANA time zone data, RFC 6557; no dependency), so the
 * server, the admin in the browser and `studio` share it. A wall time is `YYYY-MM-DDTHH:mm`, the value of an
 * `<input type="datetime-local">` and of a date input joined with a time input.
 */

/** A wall time: `YYYY-MM-DDTHH:mm` (minutes, no seconds, no offset). */
export const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** The zone the site uses when none is set (issue #29 item 2: "default UTC"). */
export const DEFAULT_TIME_ZONE = "UTC";

const partFormats = new Map<string, Intl.DateTimeFormat>();

/** The numeric parts formatter of `zone` (Gregorian, 24-hour), built once per zone. */
function partsFormat(zone: string): Intl.DateTimeFormat {
  let format = partFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      calendar: "gregory",
      numberingSystem: "latn",
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    partFormats.set(zone, format);
  }
  return format;
}

/**
 * Whether `zone` is a time zone `Intl` knows (an IANA name such as `Asia/Riyadh`, or `UTC`). Abbreviations
 * such as `EST` or offsets such as `+03:00` are refused: they do not follow daylight saving time.
 */
export function isTimeZone(zone: unknown): zone is string {
  if (
    typeof zone !== "string" ||
    zone.length > 64 ||
    !(zone === "UTC" || /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)+$/.test(zone))
  ) {
    return false;
  }
  try {
    partsFormat(zone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The zone named by `zone`, or throws a clear error.
 * @throws {RangeError} "Unknown time zone …" naming the value and what to write instead.
 */
export function assertTimeZone(zone: string): string {
  if (!isTimeZone(zone)) {
    throw new RangeError(`Unknown time zone "${zone}": write an IANA name such as Asia/Riyadh, Europe/Berlin or UTC.`);
  }
  return zone;
}

/** The calendar fields of `instant` in `zone` (seconds dropped). */
function fieldsIn(zone: string, instant: number) {
  const parts: Record<string, number> = {};
  for (const part of partsFormat(zone).formatToParts(new Date(instant))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour! % 24, minute: parts.minute! };
}

/**
 * The offset of `zone` from UTC at `instant` (ms since the epoch), in minutes east of Greenwich: 180 for
 * Asia/Riyadh, 60 or 120 for Europe/Berlin depending on daylight saving time.
 */
export function zoneOffsetMinutes(zone: string, instant: Date | number): number {
  const at = Math.floor(new Date(instant).getTime() / 60_000) * 60_000;
  const f = fieldsIn(zone, at);
  return Math.round((Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute) - at) / 60_000);
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The wall time (`YYYY-MM-DDTHH:mm`) that `instant` shows in `zone`. */
export function wallTimeOf(instant: Date | number | string, zone: string): string {
  const f = fieldsIn(zone, new Date(instant).getTime());
  return `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}T${pad(f.hour)}:${pad(f.minute)}`;
}

/**
 * The instant a wall time in `zone` stands for. Across daylight saving time it follows RFC 5545 §3.3.5 and
 * Temporal's "compatible" choice: a wall time that happens twice (the hour repeated in autumn) is the first
 * one; a wall time that never happens (the hour skipped in spring, e.g. 02:30 in Europe/Berlin on the last
 * Sunday of March) is moved forward by the gap (03:30 CEST).
 * @param wall `YYYY-MM-DDTHH:mm`.
 * @throws {RangeError} when `wall` is not a wall time of a real calendar day (say which format to use).
 */
export function instantOf(wall: string, zone: string): Date {
  const match = WALL_TIME.exec(wall);
  const [year, month, day, hour, minute] = (match ?? []).slice(1).map(Number) as number[];
  const guess = match ? Date.UTC(year!, month! - 1, day!, hour!, minute!) : NaN;
  const check = new Date(guess);
  if (!match || Number.isNaN(guess) || check.getUTCDate() !== day || hour! > 23 || minute! > 59) {
    throw new RangeError(`"${wall}" is not a date and time: write YYYY-MM-DDTHH:mm, e.g. 2026-12-01T09:00.`);
  }
  const day_ms = 86_400_000;
  const before = zoneOffsetMinutes(zone, guess - day_ms) * 60_000;
  const after = zoneOffsetMinutes(zone, guess + day_ms) * 60_000;
  const candidates = [...new Set([guess - before, guess - after])].filter((t) => wallTimeOf(t, zone) === wall);
  // Twice (autumn): the first; never (spring): the offset before the gap, which lands after it.
  return new Date(candidates.length > 0 ? Math.min(...candidates) : guess - before);
}

/** An offset in minutes as ISO 8601 writes it: `+03:00`, `-05:00`, `+00:00`. */
export function offsetText(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * The zone as the admin names it beside a date, at `instant` (the offset changes with daylight saving time):
 * `Asia/Riyadh (UTC+03:00)`, `Europe/Berlin (UTC+01:00)`, and just `UTC` for UTC.
 */
export function zoneLabel(zone: string, instant: Date | number | string = Date.now()): string {
  if (zone === "UTC") return "UTC";
  return `${zone} (UTC${offsetText(zoneOffsetMinutes(zone, new Date(instant)))})`;
}

/**
 * `instant` as ISO 8601 with the offset of `zone` at that instant, to the second: `2026-12-01T09:00:00+03:00`
 * (what `studio pull` writes to a file's `publishAt`, so the file says the wall time it was scheduled for).
 */
export function isoWithOffset(instant: Date | number | string, zone: string): string {
  const at = new Date(instant);
  // Offsets are whole minutes, so the seconds are UTC's.
  return `${wallTimeOf(at, zone)}:${pad(at.getUTCSeconds())}${offsetText(zoneOffsetMinutes(zone, at))}`;
}
