import { describe, expect, it } from "vitest";
import { canonicalPageQuery, SERVICES_TAB_COUNT, servicesTab } from "../../lib/http/page-query.ts";
import ar from "../../web/i18n/locales/ar.json";
import en from "../../web/i18n/locales/en.json";

describe("the query parameters public pages read (C54)", () => {
  it("knows as many services tabs as both languages show", () => {
    expect(SERVICES_TAB_COUNT).toBe(en.services.tabs.length);
    expect(SERVICES_TAB_COUNT).toBe(ar.services.tabs.length);
  });

  it("maps ?tab= to a tab index, anything else to the first tab", () => {
    expect(servicesTab("2")).toBe(1);
    expect(servicesTab(String(SERVICES_TAB_COUNT + 1))).toBe(0);
    expect(servicesTab("x")).toBe(0);
    expect(servicesTab(null)).toBe(0);
  });

  it("keeps only the parameters a page reads, in their canonical form", () => {
    expect(canonicalPageQuery("/en/services", "?tab=2&x=1")).toBe("?tab=2");
    expect(canonicalPageQuery("/ar/services", "?tab=03")).toBe("?tab=3");
    expect(canonicalPageQuery("/en/blog", "?anything=1")).toBe("");
  });

  it("keeps the blog list's ?page= from 2 up, in plain decimal (issue #18 item 3)", () => {
    expect(canonicalPageQuery("/en/blog", "?page=2&utm=x")).toBe("?page=2");
    expect(canonicalPageQuery("/ar/blog", "?page=007")).toBe("?page=7");
    for (const value of ["1", "0", "-3", "x", "1e3", "9999999999"]) {
      expect(canonicalPageQuery("/en/blog", `?page=${value}`), value).toBe("");
    }
    expect(canonicalPageQuery("/en/blog/some-post", "?page=2")).toBe("");
  });

  it("keeps the blog list's ?all=1 switch after the page, and drops any other value of it (issue #35)", () => {
    expect(canonicalPageQuery("/ar/blog", "?all=1")).toBe("?all=1");
    expect(canonicalPageQuery("/ar/blog", "?all=1&page=3")).toBe("?page=3&all=1");
    expect(canonicalPageQuery("/ar/blog", "?page=3&all=1")).toBe("?page=3&all=1");
    for (const value of ["0", "true", "yes", "11", ""]) {
      expect(canonicalPageQuery("/ar/blog", `?all=${value}`), value).toBe("");
    }
  });
});
