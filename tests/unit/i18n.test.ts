import { afterEach, describe, expect, it, vi } from "vitest";
import ar from "../../web/i18n/locales/ar.json";
import en from "../../web/i18n/locales/en.json";
import { directionOf, formatLongDate, getI18n, switchLocalePath } from "../../web/i18n/i18n.ts";

function keys(object: object, prefix = ""): string[] {
  return Object.entries(object).flatMap(([k, v]) =>
    typeof v === "object" && v ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

afterEach(() => vi.restoreAllMocks());

describe("i18n", () => {
  it("has every English key in Arabic, with Arabic text", () => {
    expect(keys(ar).sort()).toEqual(keys(en).sort());
    expect(getI18n("ar").t("notFound.title")).toMatch(/[\u0600-\u06FF]/);
  });

  it("falls back to English for a key missing in Arabic", () => {
    const i18n = getI18n("ar");
    getI18n("en").addResource("en", "translation", "test.onlyEnglish", "Only in English");
    expect(i18n.t("test.onlyEnglish")).toBe("Only in English");
  });

  it("shows the key and warns when it is missing in both languages", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(getI18n("ar").t("test.nowhere")).toBe("test.nowhere");
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('missing translation "test.nowhere"'));
  });

  it("switches the first path segment and knows the direction", () => {
    expect(switchLocalePath("/en/blog/some-post", "ar")).toBe("/ar/blog/some-post");
    expect(switchLocalePath("/ar", "en")).toBe("/en");
    expect(directionOf("ar")).toBe("rtl");
    expect(directionOf("en")).toBe("ltr");
  });

  it("formats dates with a long month in each locale", () => {
    expect(formatLongDate("2026-03-14T00:00:00.000+00:00", "en")).toBe("March 14, 2026");
    expect(formatLongDate("2026-03-14T00:00:00.000+00:00", "ar")).toMatch(/مارس/);
  });
});
