/**
 * The admin list's query (issue #17 item 6): what the URL gives (malformed values fall back to the defaults),
 * the links that keep search, sort, filters and page (defaults left out, a change starts at page 1), and
 * which page links a long list shows.
 */
import { describe, expect, it } from "vitest";
import { listHref, pageLinks, parseListQuery, SEARCH_MAX } from "../../web/components/admin/list-query.ts";

const parse = (query: string) => parseListQuery(new URLSearchParams(query));

describe("parseListQuery", () => {
  it("reads search, sort, page and both filters", () => {
    expect(parse("q=%20Harbour%20&sort=name-desc&page=3&state=draft&translation=stale")).toEqual({
      search: "Harbour",
      sort: "name-desc",
      page: 3,
      state: "draft",
      translation: "stale",
    });
  });

  it("falls back to all, newest first, page 1 for anything unknown", () => {
    const defaults = { search: "", sort: "date-desc", page: 1, state: null, translation: null };
    expect(parse("")).toEqual(defaults);
    expect(parse("sort=random&page=-2&state=gone&translation=x")).toEqual(defaults);
    expect(parse("page=2.5").page).toBe(1);
    expect(parse("page=1e400").page).toBe(1);
    expect(parse(`q=${"a".repeat(500)}`).search).toHaveLength(SEARCH_MAX);
  });
});

describe("listHref", () => {
  const query = parse("q=ledger&sort=name-asc&page=4&state=draft");

  it("keeps the query, leaving the defaults out", () => {
    expect(listHref("/admin/blog", query, { page: 5 })).toBe("/admin/blog?q=ledger&state=draft&sort=name-asc&page=5");
    expect(listHref("/admin/blog", parse(""))).toBe("/admin/blog");
    expect(listHref("/admin/blog", query, { page: 1 })).toBe("/admin/blog?q=ledger&state=draft&sort=name-asc");
  });

  it("starts at page 1 when the search, sort or a filter changes", () => {
    expect(listHref("/admin/blog", query, { state: null })).toBe("/admin/blog?q=ledger&sort=name-asc");
    expect(listHref("/admin/blog", query, { sort: "date-desc" })).toBe("/admin/blog?q=ledger&state=draft");
    expect(listHref("/admin/blog", query, { search: "" })).toBe("/admin/blog?state=draft&sort=name-asc");
    expect(listHref("/admin/blog", query)).toBe("/admin/blog?q=ledger&state=draft&sort=name-asc&page=4");
  });

  it("encodes the search", () => {
    expect(listHref("/admin/ventures", parse(""), { search: "دفتر & co" })).toBe(
      "/admin/ventures?q=%D8%AF%D9%81%D8%AA%D8%B1+%26+co",
    );
  });
});

describe("pageLinks", () => {
  it("links the first, the last and two either side of the current page, with gaps", () => {
    expect(pageLinks(1, 1)).toEqual([1]);
    expect(pageLinks(2, 10)).toEqual([1, 2, 3, 4, null, 10]);
    expect(pageLinks(6, 10)).toEqual([1, null, 4, 5, 6, 7, 8, null, 10]);
    expect(pageLinks(10, 10)).toEqual([1, null, 8, 9, 10]);
  });
});
