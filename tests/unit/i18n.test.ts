import { afterEach, describe, expect, it, vi } from "vitest";
import ar from "../../web/i18n/locales/ar.json";
import en from "../../web/i18n/locales/en.json";
import { getI18n, messagesFor, withFallback, SHELL_NAMESPACES } from "../../web/i18n/catalog.server.ts";
import { directionOf, formatLongDate, switchLocalePath } from "../../web/i18n/i18n.ts";
import { createTranslator, translatorOf } from "../../web/i18n/t.ts";

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
    // The Arabic catalog is completed with English once, on the server (catalog.server.ts)
    const arabic = withFallback(
      { test: { both: "كلاهما" } },
      { test: { both: "Both", onlyEnglish: "Only in English" } },
    );
    const { t } = createTranslator([arabic], "ar");
    expect(t("test.onlyEnglish")).toBe("Only in English");
    expect(t("test.both")).toBe("كلاهما");
  });

  it("shows the key and warns when it is missing in both languages", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(getI18n("ar").t("test.nowhere")).toBe("test.nowhere");
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('missing translation "test.nowhere"'));
  });

  it("fills in placeholders and reads lists", () => {
    const { t, list } = getI18n("en");
    expect(t("blog.by", { author: "Ada" })).toContain("Ada");
    expect(t("blog.by", { author: "Ada" })).not.toContain("{{");
    expect(list<string>("about.founderBio").length).toBeGreaterThan(0);
  });

  it("sends a page only its language and the namespaces asked for", () => {
    const shell = messagesFor("ar", SHELL_NAMESPACES);
    expect(Object.keys(shell).sort()).toEqual([...SHELL_NAMESPACES].sort());
    expect(JSON.stringify(shell)).not.toContain(en.site.tagline);
    const legal = messagesFor("en", ["legal.updated", "legal.privacy"]);
    expect(Object.keys(legal)).toEqual(["legal"]);
    expect(Object.keys(legal.legal as object).sort()).toEqual(["privacy", "updated"]);
    // Picking part of a namespace never changes the catalog
    expect(Object.keys(messagesFor("en", ["legal"]).legal as object)).toContain("terms");
  });

  it("translates in the browser from the matched routes' loader data, the page's first", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const matches = [
      { id: "root", loaderData: { locale: "ar", messages: messagesFor("ar", SHELL_NAMESPACES) } },
      { id: "routes/public/layout", loaderData: { origin: "" } },
      { id: "routes/public/about", loaderData: { messages: { about: { title: "page" }, site: { name: "x" } } } },
    ];
    const { t } = translatorOf(matches);
    expect(t("about.title")).toBe("page");
    expect(t("site.name")).toBe("x");
    expect(t("nav.home")).toBe(ar.nav.home);
    // Meta functions get `data` rather than `loaderData`
    expect(translatorOf(matches.map((m) => ({ id: m.id, data: m.loaderData }))).t("about.title")).toBe("page");
    expect(t("admin.nav.dashboard")).toBe("admin.nav.dashboard");
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('missing translation "admin.nav.dashboard" (ar)'));
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
