import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzip } from "../../server/http/cached-pages.ts";
import { etagMatches } from "../../lib/http/negotiation.ts";
import {
  cspNonce,
  fillTemplate,
  filledLength,
  gzipTemplate,
  makeTemplate,
  PAGE_MAX_AGE_MS,
  PageCache,
} from "../../server/http/page-cache.ts";

const RENDER_NONCE = "cmVuZGVyLW5vbmNlLTEyMw==";
const page = (text: string, nonce = RENDER_NONCE) =>
  makeTemplate(
    `<html><body><p>${text}</p><script nonce="${nonce}">1</script>${"é ".repeat(3000)}<script nonce="${nonce}">2</script></body></html>`,
    `default-src 'self'; script-src 'nonce-${nonce}' 'strict-dynamic'`,
    nonce,
    [["content-type", "text/html; charset=utf-8"]],
  );

describe("page templates", () => {
  it("puts a fresh nonce in every slot of the body and the CSP, and nothing of the render's", () => {
    const template = page("hello");
    const html = fillTemplate(template, "ZnJlc2gtbm9uY2UtNDU2Nzg=").toString();
    expect(html).not.toContain(RENDER_NONCE);
    expect(html.match(/nonce="ZnJlc2gtbm9uY2UtNDU2Nzg="/g)).toHaveLength(2);
    expect(template.csp.join("ZnJlc2gtbm9uY2UtNDU2Nzg=")).toContain("'nonce-ZnJlc2gtbm9uY2UtNDU2Nzg='");
    expect(filledLength(template, 24)).toBe(Buffer.byteLength(html));
  });

  it("gives one weak ETag to the same content whatever its nonce, and another to other content", () => {
    expect(page("hello").etag).toBe(page("hello", "b3RoZXItcmVuZGVyLW5vbmNl").etag);
    expect(page("hello").etag).not.toBe(page("hello!").etag);
    expect(page("hello").etag).toMatch(/^W\/"[\w-]+"$/);
  });

  it("splices a valid gzip body (CRC and length checked by zlib) that is much smaller than the page", () => {
    const template = page("hello");
    const gzipped = gzipTemplate(template, "ZnJlc2gtbm9uY2UtNDU2Nzg=");
    expect(gunzipSync(gzipped).toString()).toBe(fillTemplate(template, "ZnJlc2gtbm9uY2UtNDU2Nzg=").toString());
    expect(gzipped.length).toBeLessThan(template.bytes / 10);
  });

  it("refuses a nonce too short to be unguessable", () => {
    expect(() => makeTemplate("<p>x</p>", "script-src 'nonce-abc'", "abc", [])).toThrow(/128-bit/);
  });

  it("reads the nonce of a CSP header", () => {
    expect(cspNonce(`script-src 'nonce-${RENDER_NONCE}' 'strict-dynamic'`)).toBe(RENDER_NONCE);
    expect(cspNonce("script-src 'self'")).toBeNull();
  });
});

describe("conditional requests (RFC 9110 §13.1.2)", () => {
  it("matches weakly, in lists, and on *", () => {
    expect(etagMatches('W/"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches("*", 'W/"abc"')).toBe(true);
    expect(etagMatches('W/"abd"', 'W/"abc"')).toBe(false);
    expect(etagMatches(undefined, 'W/"abc"')).toBe(false);
  });

  it("reads Accept-Encoding with q-values", () => {
    expect(acceptsGzip("gzip, deflate, br")).toBe(true);
    expect(acceptsGzip("br;q=1.0, gzip;q=0.5")).toBe(true);
    expect(acceptsGzip("gzip;q=0")).toBe(false);
    expect(acceptsGzip("br")).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});

describe("PageCache", () => {
  it("does not store a page rendered before a write (an older generation)", () => {
    const cache = new PageCache();
    const generation = cache.generation;
    cache.invalidate();
    expect(cache.store("/en", page("old"), generation)).toBe(false);
    expect(cache.lookup("/en")).toBeUndefined();
    expect(cache.store("/en", page("new"), cache.generation)).toBe(true);
    expect(cache.lookup("/en")?.etag).toBe(page("new").etag);
  });

  it("drops everything on invalidate", () => {
    const cache = new PageCache();
    cache.store("/en", page("a"), cache.generation);
    cache.store("/ar", page("b"), cache.generation);
    cache.invalidate();
    expect(cache.size).toBe(0);
    expect(cache.lookup("/en")).toBeUndefined();
  });

  it("evicts the least recently used page beyond its count and byte bounds", () => {
    const cache = new PageCache({ maxEntries: 2 });
    cache.store("/a", page("a"), 0);
    cache.store("/b", page("b"), 0);
    cache.lookup("/a"); // /b is now the least recently used
    cache.store("/c", page("c"), 0);
    expect(cache.lookup("/b")).toBeUndefined();
    expect(cache.lookup("/a")).toBeDefined();
    expect(cache.lookup("/c")).toBeDefined();

    const small = new PageCache({ maxBytes: page("a").bytes * 1.5 });
    small.store("/a", page("a"), 0);
    small.store("/b", page("b"), 0);
    expect(small.size).toBe(1);
    expect(small.lookup("/b")).toBeDefined();
  });

  it("forgets a page older than maxAgeMs", () => {
    let now = 1_000;
    const cache = new PageCache({ maxAgeMs: 500, now: () => now });
    cache.store("/en", page("a"), 0);
    now += 400;
    expect(cache.lookup("/en")).toBeDefined();
    now += 200;
    expect(cache.lookup("/en")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("serves a page at most 60 s by default, since an unpublish sends guests no event (C55)", () => {
    let now = 1_000;
    const cache = new PageCache({ now: () => now });
    expect(cache.maxAgeMs).toBe(PAGE_MAX_AGE_MS);
    expect(PAGE_MAX_AGE_MS).toBe(60_000);
    cache.store("/en/blog", page("a"), cache.generation);
    now += 60_000;
    expect(cache.lookup("/en/blog")).toBeDefined();
    now += 1;
    expect(cache.lookup("/en/blog")).toBeUndefined();
  });
});
