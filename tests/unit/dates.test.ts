/** Issue #29 items 2 and 7: wall times in the site's time zone (across DST) and the admin's one format per kind of date. */
import { describe, expect, it } from "vitest";
import { formatDate } from "../../lib/text/dates.ts";
import {
  assertTimeZone,
  instantOf,
  isoWithOffset,
  isTimeZone,
  wallTimeOf,
  zoneLabel,
  zoneOffsetMinutes,
} from "../../lib/text/time-zone.ts";

describe("time zones", () => {
  it("turns a Riyadh wall time into its UTC instant and back, and names the zone with its offset", () => {
    expect(instantOf("2026-12-01T09:00", "Asia/Riyadh").toISOString()).toBe("2026-12-01T06:00:00.000Z");
    expect(wallTimeOf("2026-12-01T06:00:00Z", "Asia/Riyadh")).toBe("2026-12-01T09:00");
    expect(zoneLabel("Asia/Riyadh", "2026-12-01T06:00:00Z")).toBe("Asia/Riyadh (UTC+03:00)");
    expect(isoWithOffset("2026-12-01T06:00:00Z", "Asia/Riyadh")).toBe("2026-12-01T09:00:00+03:00");
    expect(zoneLabel("UTC")).toBe("UTC");
  });

  it("follows Europe/Berlin's daylight saving time: offsets, the skipped hour and the repeated one", () => {
    expect(zoneOffsetMinutes("Europe/Berlin", Date.parse("2026-01-15T12:00:00Z"))).toBe(60);
    expect(zoneOffsetMinutes("Europe/Berlin", Date.parse("2026-07-15T12:00:00Z"))).toBe(120);
    expect(instantOf("2026-07-15T09:00", "Europe/Berlin").toISOString()).toBe("2026-07-15T07:00:00.000Z");
    expect(instantOf("2026-01-15T09:00", "Europe/Berlin").toISOString()).toBe("2026-01-15T08:00:00.000Z");
    // 29 March 2026: 02:00 → 03:00. 02:30 never happens: it is moved forward by the gap (03:30 CEST).
    expect(instantOf("2026-03-29T02:30", "Europe/Berlin").toISOString()).toBe("2026-03-29T01:30:00.000Z");
    // 25 October 2026: 03:00 → 02:00. 02:30 happens twice: the first (CEST).
    expect(instantOf("2026-10-25T02:30", "Europe/Berlin").toISOString()).toBe("2026-10-25T00:30:00.000Z");
    expect(zoneLabel("Europe/Berlin", "2026-07-01T00:00:00Z")).toBe("Europe/Berlin (UTC+02:00)");
    expect(isoWithOffset("2026-01-15T08:00:00Z", "Europe/Berlin")).toBe("2026-01-15T09:00:00+01:00");
  });

  it("refuses what is not a wall time or not a zone, saying what to write", () => {
    expect(() => instantOf("2026-02-30T09:00", "UTC")).toThrow(/YYYY-MM-DDTHH:mm/);
    expect(() => instantOf("2026-12-01 09:00", "UTC")).toThrow(/YYYY-MM-DDTHH:mm/);
    expect(() => instantOf("2026-12-01T24:00", "UTC")).toThrow(/YYYY-MM-DDTHH:mm/);
    expect(isTimeZone("Asia/Riyadh")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("EST")).toBe(false);
    expect(() => assertTimeZone("Asia/Riad")).toThrow(/IANA name such as Asia\/Riyadh/);
  });
});

describe("the admin's dates", () => {
  const at = "2026-12-01T06:00:00Z";
  it("writes each kind of date one way in English", () => {
    expect(formatDate(at, "day", "en", "Asia/Riyadh")).toBe("1 Dec 2026");
    expect(formatDate(at, "time", "en", "Asia/Riyadh")).toBe("09:00");
    expect(formatDate(at, "moment", "en", "Asia/Riyadh")).toBe("1 Dec 2026, 09:00 Asia/Riyadh (UTC+03:00)");
    expect(formatDate(at, "moment", "en")).toBe("1 Dec 2026, 06:00 UTC");
  });

  it("writes Arabic month names with the Arabic admin's Latin digits, the zone isolated left-to-right", () => {
    expect(formatDate(at, "day", "ar", "Asia/Riyadh")).toBe("1 ديسمبر 2026");
    expect(formatDate(at, "moment", "ar", "Asia/Riyadh")).toBe(
      "1 ديسمبر 2026، 09:00 \u2066Asia/Riyadh (UTC+03:00)\u2069",
    );
  });

  it("keeps a calendar day that day in every zone, and shows a dash for no date instead of Invalid Date", () => {
    expect(formatDate("2026-12-01", "day", "en", "America/Los_Angeles")).toBe("1 Dec 2026");
    expect(formatDate("2026-12-01", "day", "ar", "Pacific/Kiritimati")).toBe("1 ديسمبر 2026");
    expect(formatDate("", "day", "en")).toBe("–");
    expect(formatDate(null, "moment", "ar")).toBe("–");
    expect(formatDate("not a date", "moment", "en")).toBe("–");
  });
});
