/**
 * Issue #29 items 4 and 5, the parts without a browser: the history's and the conflict's word diff marks an
 * Arabic word whole (as an English one), never letter by letter; dates show as dates in the admin's language,
 * never raw ISO; a conflict lists the fields that differ by language version; a restore's flash names the
 * version, the item and the time.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FieldDiff } from "../../web/components/admin/field-diff.tsx";
import { differencesOf } from "../../web/components/admin/conflict.tsx";
import { dayText, isDateField, momentText } from "../../web/i18n/history-dates.ts";
import { flashText } from "../../web/data/admin-flash.server.ts";

/** The texts of the `<tag>` elements of `html`, in order. */
const tagged = (html: string, tag: "del" | "ins") =>
  [...html.matchAll(new RegExp(`<${tag}[^>]*>([^<]*)</${tag}>`, "g"))].map((m) => m[1]);

describe("the history's field diff", () => {
  it("marks whole Arabic words, in the version's direction", () => {
    const html = renderToStaticMarkup(
      <FieldDiff
        kind="post"
        name="title"
        label="العنوان"
        before="دليل عملي لبناء الشركات"
        after="دليل تطبيقي لبناء الشركات الناشئة"
        textLocale="ar"
        locale="ar"
      />,
    );
    expect(tagged(html, "del")).toEqual(["عملي"]);
    expect(tagged(html, "ins")).toEqual(["تطبيقي", " الناشئة"]);
    expect(html).toContain('dir="rtl"');
    expect(html).toContain('lang="ar"');
  });

  it("shows a date field's two days as dates, in the admin's language", () => {
    const props = {
      kind: "post",
      name: "publishedDate",
      label: "Date",
      before: "2026-11-26T00:00:00.000+00:00",
      after: "2026-12-01T00:00:00.000+00:00",
      textLocale: "en",
    } as const;
    const en = renderToStaticMarkup(<FieldDiff {...props} locale="en" />);
    expect(tagged(en, "del")).toEqual(["26 Nov 2026"]);
    expect(tagged(en, "ins")).toEqual(["1 Dec 2026"]);
    expect(en).not.toContain("T00");
    const ar = renderToStaticMarkup(<FieldDiff {...props} locale="ar" />);
    expect(tagged(ar, "ins")[0]).toMatch(/ديسمبر/);
    expect(ar).not.toMatch(/2026-|T00/);
  });
});

describe("history dates", () => {
  it("formats a moment with its date, time and zone, and a day as a day, in English and Arabic", () => {
    expect(momentText("2026-11-26T00:27:13.512+00:00", "en")).toBe("26 Nov 2026, 00:27 UTC");
    expect(momentText("2026-11-26T00:27:13.512+00:00", "ar")).toMatch(/^\S+ نوفمبر \S+،? \S+ \u2066UTC\u2069$/);
    expect(dayText("2026-11-26", "en")).toBe("26 Nov 2026");
    expect(dayText("", "en")).toBe("");
    expect(momentText("not a date", "en")).toBe("not a date");
    expect(isDateField("post", "publishedDate")).toBe(true);
    expect(isDateField("venture", "publishAt")).toBe(true);
    expect(isDateField("post", "title")).toBe(false);
  });
});

describe("a conflict's differences", () => {
  it("lists each differing field once, by language version, leaving translation bookkeeping out", () => {
    const theirs = { title: "Ada's", slug: "s", "ar.title": "عنوان آدا", "ar.reviewed": "on", "ar.model": "x" };
    const yours = { title: "Bob's", slug: "s", "ar.title": "عنوان بوب", "ar.reviewed": "", "ar.model": "" };
    expect(differencesOf(theirs, yours, "en")).toEqual([
      { key: "title", name: "title", locale: "en", theirs: "Ada's", yours: "Bob's" },
      { key: "ar.title", name: "title", locale: "ar", theirs: "عنوان آدا", yours: "عنوان بوب" },
    ]);
  });
});

describe("the restore flash", () => {
  beforeAll(() => {
    process.env.PREVIEW_SECRET = "a-preview-secret-for-the-history-unit-test-0123456789";
  });
  afterAll(() => {
    delete process.env.PREVIEW_SECRET;
  });
  it("names the version's language, the item and the time, as a date", () => {
    const flash = { event: "restored", name: "Clinic", date: "2026-11-26T00:27:00.000Z", language: "ar" } as const;
    const strip = (text: string) => text.replace(/[\u2068\u2069]/g, "");
    expect(strip(flashText(flash, "en"))).toBe(
      "Restored the Arabic version of “Clinic” saved on 26 Nov 2026, 00:27 UTC. The version it replaced is in the history.",
    );
    expect(strip(flashText(flash, "ar"))).toMatch(
      /^استُعيدت النسخة العربية من «Clinic» المحفوظة في .+ \u2066UTC\u2069?\./,
    );
  });
});
