import { describe, expect, it } from "vitest";
import { keysOfPage, keysOfWrite } from "../../lib/http/surrogate-keys.ts";
import { publicCacheControl, publicPageHeaders } from "../../server/http/cache-headers.ts";

describe("surrogate keys (issue #32 item 3)", () => {
  it("names what each public page shows: home, lists, items, other pages", () => {
    expect(keysOfPage("/en")).toEqual(["site", "home", "list:venture", "list:post"]);
    expect(keysOfPage("/ar/")).toEqual(["site", "home", "list:venture", "list:post"]);
    expect(keysOfPage("/en/blog")).toEqual(["site", "list:post"]);
    expect(keysOfPage("/ar/ventures")).toEqual(["site", "list:venture"]);
    expect(keysOfPage("/ar/blog/my-post")).toEqual(["site", "post:my-post"]);
    expect(keysOfPage("/en/ventures/clinic-ledger")).toEqual(["site", "venture:clinic-ledger"]);
    expect(keysOfPage("/en/about")).toEqual(["site"]);
    // Not a slug (a space, a made-up path): no item key a purge would never name.
    expect(keysOfPage("/en/blog/a%20b")).toEqual(["site"]);
    expect(keysOfPage("/en/blog/x/y")).toEqual(["site"]);
  });

  it("purges an item's key (old and new slug) and its list on a write", () => {
    expect(keysOfWrite("post", ["a", "b", "a", null, "Not A Slug"])).toEqual(["post:a", "post:b", "list:post"]);
    expect(keysOfWrite("venture", [undefined])).toEqual(["list:venture"]);
  });
});

describe("caching headers of a public page", () => {
  it("lets shared caches keep it while browsers revalidate; CDN_MAX_AGE=0 keeps the old no-cache", () => {
    expect(publicCacheControl({ sharedMaxAge: 60, staleWhileRevalidate: 30 })).toBe(
      "public, max-age=0, s-maxage=60, stale-while-revalidate=30",
    );
    expect(publicCacheControl({ sharedMaxAge: 60, staleWhileRevalidate: 0 })).toBe("public, max-age=0, s-maxage=60");
    expect(publicCacheControl({ sharedMaxAge: 0, staleWhileRevalidate: 30 })).toBe("public, no-cache");
  });

  it("sends Surrogate-Key space-separated and Cache-Tag comma-separated, by path (the query is ignored)", () => {
    const headers = publicPageHeaders({ sharedMaxAge: 5, staleWhileRevalidate: 1 });
    expect(headers("/en/blog?page=2")).toEqual([
      ["Cache-Control", "public, max-age=0, s-maxage=5, stale-while-revalidate=1"],
      ["Surrogate-Key", "site list:post"],
      ["Cache-Tag", "site,list:post"],
    ]);
  });
});
