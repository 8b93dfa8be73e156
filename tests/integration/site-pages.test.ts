/**
 * The public site with many posts (issue #18 item 3), over HTTP against the built site and the embedded
 * server: the blog list's numbered pages (contents, pager, rel prev/next, canonical, 404 past the last,
 * redirect for a malformed number, Arabic labels), the sitemap index and its parts, RSS capped at 50.
 */
import path from "node:path";
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countRows } from "../../lib/appwrite/content-pages.ts";
import type { ContentReader } from "../../lib/appwrite/content-store.ts";
import { readContent } from "../../lib/content/read.ts";
import { formatNumber } from "../../web/i18n/i18n.ts";
import { generatePosts, seedPosts, type SeedPost } from "../../scripts/bench/lib/seed-posts.ts";
import { buildSitemapIndex, buildSitemapPart } from "../../web/data/feeds.server.ts";
import { htmlDocument, startSiteStack, type SiteStack } from "../helpers/site.ts";
import { ROOT } from "../helpers/stack.ts";

let stack: SiteStack;
let seeded: SeedPost[];
/** Every public post's slug, newest first among the seeded ones, then the fixture's. */
let allSlugs: string[];

beforeAll(async () => {
  stack = await startSiteStack();
  // 121 posts newer than the fixture's: the 20 newest in English and Arabic, the rest in English only. So the
  // fixture's bilingual posts start at row 141 and one of them has its versions on both sides of a page
  // boundary (rows 143 and 144, pages of 24 rows): it must show once.
  seeded = generatePosts(121, { bilingual: 20 });
  await seedPosts(stack.backend.services, seeded);
  const { items } = await readContent(path.join(ROOT, "content"));
  const fixture = [...new Set(items.filter((i) => i.kind === "post" && !i.draft).map((i) => i.slug))];
  allSlugs = [...new Set(seeded.map((p) => p.slug)), ...fixture];
}, 60_000);
afterAll(async () => stack?.close());

async function get(pathname: string) {
  const response = await fetch(stack.site.url + pathname, { redirect: "manual" });
  const document = htmlDocument(await response.text());
  const link = (rel: string) => document.querySelector(`link[rel="${rel}"]`)?.getAttribute("href") ?? null;
  const slugs = [
    ...document.querySelectorAll(
      'section[aria-labelledby="all-posts"] h3 a, section[aria-labelledby="all-posts"] a[href*="/blog/"]',
    ),
  ]
    .map((a) => decodeURIComponent(a.getAttribute("href")!.split("/blog/")[1]!))
    .filter((s, i, all) => all.indexOf(s) === i);
  return { response, document, link, slugs };
}

const xmlOf = (text: string) => new JSDOM(text, { contentType: "text/xml" }).window.document;

describe("the blog list, a page at a time", () => {
  it("shows the newest 12 on page 1 with a pager, rel next and a canonical URL without ?page", async () => {
    const { response, document, link, slugs } = await get("/en/blog");
    expect(response.status).toBe(200);
    expect(slugs).toEqual(allSlugs.slice(0, 12));
    expect(link("canonical")).toBe(`${stack.site.url}/en/blog`);
    expect(link("next")).toBe(`${stack.site.url}/en/blog?page=2`);
    expect(link("prev")).toBeNull();
    const nav = document.querySelector('nav[aria-label="Blog pages"]')!;
    expect(nav.querySelector('[aria-current="page"]')?.textContent).toContain("1");
    expect(nav.querySelector('a[rel="next"]')?.textContent).toBe("Next");
    expect(nav.querySelector('a[href="/en/blog?page=2"]')).not.toBeNull();
  });

  it("lists every public post exactly once across the pages, each page linked to its neighbours", async () => {
    const seen: string[] = [];
    let pathname: string | null = "/en/blog";
    let page = 1;
    while (pathname) {
      const { response, link, slugs, document } = await get(pathname);
      expect(response.status, pathname).toBe(200);
      expect(link("canonical")).toBe(stack.site.url + pathname);
      expect(document.querySelector('link[hreflang="ar"]')?.getAttribute("href")).toBe(
        stack.site.url + pathname.replace("/en/", "/ar/"),
      );
      if (page > 1) expect(link("prev")).toBe(`${stack.site.url}/en/blog${page === 2 ? "" : `?page=${page - 1}`}`);
      if (page > 1) expect(document.title).toMatch(new RegExp(`^Insights, page ${page} \\|`));
      seen.push(...slugs);
      const next = link("next");
      pathname = next ? next.replace(stack.site.url, "") : null;
      page++;
    }
    expect(seen.slice(0, 121)).toEqual(allSlugs.slice(0, 121)); // the seeded posts, newest first
    expect([...seen].sort()).toEqual([...allSlugs].sort());
    expect(page - 1).toBeGreaterThan(5);
    const last = page - 1;
    expect((await get(`/en/blog?page=${last + 1}`)).response.status).toBe(404);
  });

  it("redirects a malformed or first page number to the bare list, a padded one to its plain form", async () => {
    const cases = {
      "?page=abc": "",
      "?page=0": "",
      "?page=1": "",
      "?page=-2": "",
      "?page=02": "?page=2",
      "?page=2&page=3": "?page=2",
      "?page=2&x=1": "?page=2",
    };
    for (const [search, target] of Object.entries(cases)) {
      const { response } = await get(`/en/blog${search}`);
      expect(response.status, search).toBe(301);
      expect(response.headers.get("location"), search).toBe(`/en/blog${target}`);
    }
  });

  it("labels the pager in Arabic, in the site's Arabic numbers, in a right-to-left page", async () => {
    const { document, link } = await get("/ar/blog?page=2");
    expect(document.documentElement.getAttribute("dir")).toBe("rtl");
    const nav = document.querySelector('nav[aria-label="صفحات المدونة"]')!;
    expect(nav).not.toBeNull();
    expect(nav.querySelector('a[rel="prev"]')?.textContent).toBe("السابق");
    expect(nav.querySelector('a[rel="next"]')?.textContent).toBe("التالي");
    // The site's Arabic numbers (`formatNumber`, as on the other pages).
    const [one, two] = [formatNumber(1, "ar"), formatNumber(2, "ar")];
    expect(nav.querySelector('[aria-current="page"] .sr-only')?.textContent).toBe(`الصفحة ${two}`);
    expect(nav.querySelector('a[href="/ar/blog"][aria-label]')?.getAttribute("aria-label")).toBe(`الصفحة ${one}`);
    expect(link("canonical")).toBe(`${stack.site.url}/ar/blog?page=2`);
    expect(document.title.startsWith(`رؤى، الصفحة ${two} | `)).toBe(true);
  });

  it("holds only Arabic versions on /ar/blog's pages, and from page 2 only the list under the page's title", async () => {
    const bilingual = [...new Set(seeded.filter((p) => p.locale === "ar").map((p) => p.slug))];
    const seen: string[] = [];
    let pathname: string | null = "/ar/blog";
    while (pathname) {
      const { response, link, slugs, document } = await get(pathname);
      expect(response.status, pathname).toBe(200);
      expect(document.querySelector('main [role="note"]'), pathname).toBeNull(); // no "English only" card
      seen.push(...slugs);
      const next = link("next");
      pathname = next ? next.replace(stack.site.url, "") : null;
    }
    // The 20 bilingual seeded posts, newest first, then the fixture's (all bilingual, older).
    expect(seen.slice(0, 20)).toEqual(bilingual);
    expect(seen.slice(20).sort()).toEqual(allSlugs.slice(121).sort());

    const { document } = await get("/ar/blog?page=2");
    const headings = [...document.querySelectorAll("main h1")].map((h) => h.textContent);
    expect(headings).toEqual([`رؤى، الصفحة ${formatNumber(2, "ar")}`]);
    const main = document.querySelector("main")!.textContent!;
    expect(main).not.toContain("ملاحظات حول بناء وكالات الخدمات المصغّرة"); // the hero's intro
    expect(document.querySelector("main li.border-s-2")).toBeNull(); // the three numbered blocks
    expect(document.querySelector("main section#all-posts, main section[aria-labelledby=all-posts]")).not.toBeNull();
  });

  it("lists every post once across /ar/blog?all=1's pages, the switch kept on every pager link", async () => {
    const seen: string[] = [];
    let pathname: string | null = "/ar/blog?all=1";
    while (pathname) {
      const { response, link, slugs, document } = await get(pathname);
      expect(response.status, pathname).toBe(200);
      expect(link("canonical")).toBe(stack.site.url + pathname);
      for (const a of document.querySelectorAll('nav[aria-label="صفحات المدونة"] a')) {
        expect(a.getAttribute("href")).toMatch(/all=1$/);
      }
      seen.push(...slugs);
      const next = link("next");
      pathname = next ? next.replace(stack.site.url, "") : null;
    }
    expect([...seen].sort()).toEqual([...allSlugs].sort());
  });

  it("shows a bilingual post's Arabic version on /ar/blog", async () => {
    const { document } = await get("/ar/blog");
    const titles = [...document.querySelectorAll("li h3")].map((h) => h.textContent);
    expect(titles.slice(0, 3)).toEqual(["مقال رقم 1", "مقال رقم 2", "مقال رقم 3"]);
  });
});

describe("the sitemap index and its parts", () => {
  it("names its parts in /sitemap.xml, and part 1 lists every post in both versions that exist", async () => {
    const index = xmlOf(await (await fetch(`${stack.site.url}/sitemap.xml`)).text());
    expect(index.documentElement.tagName).toBe("sitemapindex");
    const parts = [...index.getElementsByTagName("loc")].map((l) => l.textContent);
    expect(parts).toEqual([`${stack.site.url}/sitemap/1.xml`]);
    const response = await fetch(parts[0]!);
    expect(response.headers.get("content-type")).toMatch(/^application\/xml/);
    const locs = [...xmlOf(await response.text()).getElementsByTagName("loc")].map((l) => l.textContent);
    for (const post of seeded) expect(locs).toContain(`${stack.site.url}/${post.locale}/blog/${post.slug}`);
    expect(locs).not.toContain(`${stack.site.url}/ar/blog/${seeded.at(-1)!.slug}`);
    expect(new Set(locs).size).toBe(locs.length);
    expect((await fetch(`${stack.site.url}/sitemap/2.xml`)).status).toBe(404);
    expect((await fetch(`${stack.site.url}/sitemap/x.xml`)).status).toBe(404);
  });

  it("splits into parts of at most the part size, together the same URLs with the same alternates", async () => {
    const origin = "https://example.test";
    const whole = await buildSitemapPart(origin, 1);
    const index = await buildSitemapIndex(origin, 37);
    const count = (index.match(/<sitemap>/g) ?? []).length;
    expect(count).toBeGreaterThan(4);
    const urls: string[] = [];
    for (let n = 1; n <= count; n++) {
      const part = (await buildSitemapPart(origin, n, 37))!;
      const entries = part.match(/<url>.*<\/url>/g) ?? [];
      expect(entries.length).toBeLessThanOrEqual(37);
      urls.push(...entries);
    }
    expect(await buildSitemapPart(origin, count + 1, 37)).toBeNull();
    expect(urls).toEqual(whole!.match(/<url>.*<\/url>/g));
  });
});

describe("feeds", () => {
  it("carries the 50 newest posts of its locale", async () => {
    const links = async (locale: string) =>
      [...xmlOf(await (await fetch(`${stack.site.url}/${locale}/rss.xml`)).text()).querySelectorAll("item > link")].map(
        (l) => l.textContent!.split("/blog/")[1],
      );
    expect(await links("en")).toEqual(allSlugs.slice(0, 50));
    const ar = await links("ar");
    expect(ar.slice(0, 20)).toEqual(allSlugs.slice(0, 20));
    expect(ar).not.toContain(allSlugs[20]);
  });
});

describe("counting past Appwrite's 5,000 total", () => {
  it("finds the exact count by probing offsets", async () => {
    for (const n of [0, 4999, 5000, 5001, 12_345, 40_000]) {
      let calls = 0;
      const reader = {
        tablesDB: {
          listRows: async ({ queries }: { queries: string[] }) => {
            calls++;
            const offset = Number(queries.map((q) => JSON.parse(q)).find((q) => q.method === "offset")?.values[0] ?? 0);
            return { total: Math.min(n, 5000), rows: offset < n ? [{ $id: String(offset) }] : [] };
          },
        },
      } as unknown as ContentReader;
      expect(await countRows(reader, "post"), String(n)).toBe(n);
      expect(calls).toBeLessThan(40);
    }
  });
});
