/**
 * Appwrite datetimes: ISO-8601 in UTC with milliseconds and an explicit `+00:00` offset,
 * e.g. `2026-01-02T03:04:05.678+00:00` (REFERENCE §3).
 */

/** Format a `Date` the way Appwrite returns datetimes. */
export function formatDatetime(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}

/** The current time in Appwrite's datetime format. */
export function nowDatetime(): string {
  return formatDatetime(new Date());
}

const DATE_SHAPE =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Parse a datetime value as `utopia-php/database` accepts it (`Y-m-d`, `Y-m-d H:i:s`,
 * ISO-8601 with `T`, optional fraction and offset; no offset means UTC), and return it
 * normalised to Appwrite's format. Returns `null` when the value is not a date between
 * 1000-01-01 00:00:00 and 9999-12-31 23:59:59 ([UDB] `Validator/Datetime.php`).
 */
export function normaliseDatetime(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const match = DATE_SHAPE.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone = "Z"] = match;
  const year = Number(y);
  if (year < 1000 || year > 9999) return null;
  const offset = zone.toUpperCase() === "Z" ? "Z" : zone.replace(/^([+-]\d{2}):?(\d{2})$/, "$1:$2");
  const ms = frac === "" ? "000" : frac.slice(1, 4).padEnd(3, "0");
  const iso = `${y}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}.${ms}${offset}`;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  // Reject rolled-over dates such as 2023-02-31.
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > 31 || Number(h) > 23) {
    return null;
  }
  const utcYear = date.getUTCFullYear();
  if (utcYear < 1000 || utcYear > 9999) return null;
  return formatDatetime(date);
}

function pad(part: string | undefined): string {
  return (part ?? "0").padStart(2, "0");
}
