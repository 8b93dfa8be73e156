/**
 * SECURITY C54 (issue 13 item 2): the page cache cannot be bypassed with a query string. A public page's URL
 * carrying parameters the page does not read (or values it would not use) is redirected to its canonical URL,
 * so `?anything=<random>` costs a redirect, not a render; `?tab=` on the services page and the login page's
 * `redirectTo` still work. SECURITY C71 (issue #26 item 4): a made-up session cookie or preview token is served
 * the cached page (a preview token not signed for the item costs a redirect to it), never a render.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageCacheLive, startSiteStack, Visitor, type SiteStack } from "../helpers/site.ts";

let stack: SiteStack;
beforeAll(async () => {
  stack = await startSiteStack();
  await pageCacheLive(stack.site, "/en/blog"); // the cache serves only once the change feed is live
});
afterAll(async () => stack.close());

const get = (path: string, init: RequestInit = {}) => fetch(stack.site.url + path, { redirect: "manual", ...init });
/** The `?tab=` link of the selected approach tab on a services page. */
const selectedTab = (html: string) => /<a[^>]*aria-selected="true"[^>]*>/.exec(html)?.[0].match(/\?tab=(\d+)/)?.[1];

describe("query strings on cached pages (C54)", () => {
  it("renders /en/blog at most once for 200 requests with a different ?anything=N each", async () => {
    await get("/en/blog"); // stored
    const before = stack.site.stats.renders;
    for (let n = 0; n < 200; n++) {
      const reply = await get(`/en/blog?anything=${n}`, { method: n % 2 ? "HEAD" : "GET" });
      expect(reply.status, `?anything=${n}`).toBe(301);
      expect(reply.headers.get("location")).toBe("/en/blog");
      await reply.arrayBuffer();
    }
    const followed = await fetch(`${stack.site.url}/en/blog?utm_source=x&fbclid=${Math.random()}`);
    expect(followed.status).toBe(200);
    expect(new URL(followed.url).search).toBe("");
    expect(await followed.text()).toContain("</html>");
    expect(stack.site.stats.renders - before).toBeLessThanOrEqual(1);
  });

  it("keeps ?tab= on the services page, cached, and maps unknown values to the default tab", async () => {
    for (const locale of ["en", "ar"]) {
      const second = await get(`/${locale}/services?tab=2`);
      expect(second.status).toBe(200);
      expect(selectedTab(await second.text())).toBe("2");
      const plain = await get(`/${locale}/services`);
      expect(selectedTab(await plain.text())).toBe("1");
    }
    // Other parameters go, the tab stays; leading zeros are normalized.
    expect((await get("/en/services?utm=1&tab=3")).headers.get("location")).toBe("/en/services?tab=3");
    expect((await get("/en/services?tab=03")).headers.get("location")).toBe("/en/services?tab=3");

    const before = stack.site.stats.renders;
    const sizeBefore = stack.site.pages!.size;
    for (let n = 0; n < 100; n++) {
      const value = n % 3 === 0 ? String(1000 + n) : n % 3 === 1 ? `x${n}` : `${n % 3}&tab=${n}`;
      const reply = await get(`/en/services?tab=${value}`);
      if (reply.status === 301) {
        expect(reply.headers.get("location")).toMatch(/^\/en\/services(\?tab=[1-3])?$/);
      } else {
        expect(reply.status).toBe(200); // ?tab=2&tab=<n>: the first value counts, so it is canonical ?tab=2
      }
      await reply.arrayBuffer();
    }
    expect(stack.site.stats.renders - before).toBeLessThanOrEqual(3); // at most one per tab
    expect(stack.site.pages!.size - sizeBefore).toBeLessThanOrEqual(3);
  });

  it("leaves the login page's redirectTo alone (never cached, it reads its query itself)", async () => {
    const reply = await get("/en/login?redirectTo=%2Fadmin%2Fblog&x=1");
    expect(reply.status).toBe(200);
    expect(await reply.text()).toMatch(/name="redirectTo" value="\/admin\/blog"/);
  });

  it("does not redirect what is not a public page (media widths, feeds, the .data of client navigations)", async () => {
    for (const path of ["/en/rss.xml?x=1", "/sitemap.xml?x=1", "/en/blog.data?x=1", "/healthz?x=1"]) {
      expect((await get(path)).status, path).not.toBe(301);
    }
  });
});

describe("made-up session cookies and preview tokens (C71)", () => {
  const POST = "/en/blog/ideation-to-exit-the-eight-phases";

  it("serves the cached page to a session cookie Appwrite does not know, without rendering", async () => {
    await get("/en/blog"); // stored
    await get("/en/blog", { headers: { Cookie: "studio_session=warm-up" } }); // the first verdict is asked for
    const before = stack.site.stats.renders;
    for (let n = 0; n < 60; n++) {
      // A third of the requests repeat one made-up value; the others each make a new one up.
      const value = n % 3 === 0 ? "eyJub3QiOiJhIHNlc3Npb24ifQ" : `made-up-${n}`;
      const reply = await get("/en/blog", { headers: { Cookie: `locale=en; studio_session=${value}` } });
      expect(reply.status).toBe(200);
      expect(reply.headers.get("cache-control")).toMatch(/^public, max-age=0, s-maxage=/);
      await reply.arrayBuffer();
    }
    expect(stack.site.stats.renders - before).toBe(0);
  });

  it("still renders a real sign-in privately, never from the cache", async () => {
    const v = new Visitor(stack.site.url);
    expect((await v.register("cache-verdict@example.com")).status).toBe(302);
    const before = stack.site.stats.renders;
    for (let n = 0; n < 3; n++) {
      const reply = await v.request("/en/blog");
      expect(reply.status).toBe(200);
      expect(reply.headers.get("cache-control")).toBe("private, no-store");
    }
    expect(stack.site.stats.renders - before).toBe(3);
  });

  it("sends a made-up preview token on a published item to the plain URL, without rendering", async () => {
    const token = (n: number) => `${Math.floor(Date.now() / 1000) + 3600 + n}.${"A".repeat(42)}${"ABCD"[n % 4]}.0.d1`;
    await get(`${POST}?preview=${token(0)}`); // the first token makes the server read the secret
    await get(POST); // stored
    const before = stack.site.stats.renders;
    for (let n = 1; n <= 60; n++) {
      const reply = await get(`${POST}?preview=${token(n)}`);
      expect(reply.status).toBe(302);
      expect(reply.headers.get("location")).toBe(POST);
    }
    const followed = await fetch(`${stack.site.url}${POST}?preview=${token(99)}`);
    expect(followed.status).toBe(200);
    expect(followed.headers.get("cache-control")).toMatch(/^public, max-age=0, s-maxage=/);
    expect(stack.site.stats.renders - before).toBe(0);
  });
});
