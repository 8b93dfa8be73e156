import { describe, expect, it } from "vitest";
import { pageHref, pageWindow } from "../../web/components/pagination.tsx";

describe("the blog pager's numbers (issue #18 item 3)", () => {
  it("shows the first, the last and two either side of the current page, with gaps", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 4)).toEqual([1, 2, 3, 4]);
    expect(pageWindow(7, 400)).toEqual([1, null, 5, 6, 7, 8, 9, null, 400]);
    expect(pageWindow(400, 400)).toEqual([1, null, 398, 399, 400]);
    expect(pageWindow(4, 9)).toEqual([1, 2, 3, 4, 5, 6, null, 9]);
  });

  it("links page 1 at the bare path, the others with ?page=", () => {
    expect(pageHref("/ar/blog", 1)).toBe("/ar/blog");
    expect(pageHref("/ar/blog", 3)).toBe("/ar/blog?page=3");
  });

  it("keeps the list's switch after the page number (issue #35), in the canonical order", () => {
    expect(pageHref("/ar/blog", 1, "all=1")).toBe("/ar/blog?all=1");
    expect(pageHref("/ar/blog", 3, "all=1")).toBe("/ar/blog?page=3&all=1");
  });
});
