import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readContent, type PostItem, type VentureItem } from "../../lib/content/read.ts";
import type { RunningSite } from "../../server/serve-site.ts";
import { formatLongDate } from "../../web/i18n/i18n.ts";
import { htmlDocument, startSiteStack, type SiteStack } from "../helpers/site.ts";
import { ROOT } from "../helpers/stack.ts";

let stack: SiteStack;
let site: RunningSite;
let venture: VentureItem;
let post: PostItem;

beforeAll(async () => {
  stack = await startSiteStack(); // pushes content/ (failing on any invalid file) and serves the build
  site = stack.site;
  const { items } = await readContent(path.join(ROOT, "content"));
  venture = items.find((i): i is VentureItem => i.kind === "venture")!;
  post = items.find((i): i is PostItem => i.kind === "post")!;
});
afterAll(async () => stack?.close());

async function page(pathname: string) {
  const response = await fetch(site.url + pathname, { redirect: "manual" });
  const html = await response.text();
  const document = htmlDocument(html);
  return { response, html, document, text: document.body?.textContent ?? "" };
}

describe("the public site", () => {
  it("redirects / to /en", async () => {
    const { response } = await page("/");
    expect([301, 302]).toContain(response.status);
    expect(response.headers.get("location")).toBe("/en");
  });

  it("serves the English home with the latest ventures and posts", async () => {
    const { response, document, text } = await page("/en");
    expect(response.status).toBe(200);
    expect(document.documentElement.lang).toBe("en");
    expect(document.documentElement.dir).toBe("ltr");
    expect(text).toContain("Latest ventures");
    expect(document.querySelectorAll('a[href^="/en/ventures/"]').length).toBe(3);
    expect(document.querySelectorAll('a[href^="/en/blog/"]').length).toBe(3);
    expect(document.querySelector('a[href="/ar"]')?.textContent).toBe("العربية");
  });

  it("serves the Arabic home right-to-left with Arabic strings and a self-hosted Arabic font", async () => {
    const { response, document, text } = await page("/ar");
    expect(response.status).toBe(200);
    expect(document.documentElement.lang).toBe("ar");
    expect(document.documentElement.dir).toBe("rtl");
    expect(text).toContain("أحدث المشاريع");
    expect(document.querySelector('a[href="/en"]')?.textContent).toBe("English");

    const css = document.querySelector("style[data-href]")!.getAttribute("data-href")!;
    const stylesheet = await (await fetch(site.url + css)).text();
    const font = /url\((\/assets\/noto-kufi-arabic-arabic-400-normal-[^)]+\.woff2)\)/.exec(stylesheet)?.[1];
    expect(font).toBeDefined();
    const fontResponse = await fetch(site.url + font!);
    expect(fontResponse.status).toBe(200);
    expect(fontResponse.headers.get("content-type")).toBe("font/woff2");
  });

  it("shows a venture with its case study, website link and logo served by the site", async () => {
    const { response, document, text } = await page(`/en/ventures/${venture.slug}`);
    expect(response.status).toBe(200);
    expect(document.querySelector("h1")?.textContent).toBe(venture.frontMatter.name);
    expect(text).toContain("The Problem");
    expect(document.querySelector(`a[href="${venture.frontMatter.websiteURL}"]`)?.textContent).toBe("Visit website");
    const logo = document.querySelector<HTMLImageElement>("header img")?.getAttribute("src");
    expect(logo).toMatch(/^\/media\/img-[0-9a-f]{32}$/);
    const image = await fetch(site.url + logo!);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toMatch(/^image\//);
    expect(image.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("shows a post with its author and the date in each locale with a long month", async () => {
    const iso = new Date(post.frontMatter.publishedDate).toISOString();
    const english = await page(`/en/blog/${post.slug}`);
    expect(english.response.status).toBe(200);
    expect(english.document.querySelector("h1")?.textContent).toBe(post.frontMatter.title);
    expect(english.text).toContain(`By ${post.frontMatter.authorName}`);
    expect(english.text).toContain(`Published on ${formatLongDate(iso, "en")}`);

    const arabic = await page(`/ar/blog/${post.slug}`);
    expect(arabic.text).toContain(`نُشر في ${formatLongDate(iso, "ar")}`);
  });

  it("answers 404 with the spec's texts for unknown slugs and paths", async () => {
    const unknownVenture = await page("/en/ventures/no-such-venture");
    expect(unknownVenture.response.status).toBe(404);
    expect(unknownVenture.text).toContain("Venture not found.");
    const arabicVenture = await page("/ar/ventures/no-such-venture");
    expect(arabicVenture.response.status).toBe(404);
    expect(arabicVenture.document.querySelector("main")?.textContent).toContain("المشروع غير موجود.");

    const unknownPost = await page("/en/blog/no-such-post");
    expect(unknownPost.response.status).toBe(404);
    expect(unknownPost.text).toContain("Blog post not found.");

    for (const pathname of ["/en/no/such/page", "/fr/ventures", "/nothing-here"]) {
      const missing = await page(pathname);
      expect(missing.response.status, pathname).toBe(404);
      expect(missing.text).toContain("Page Not Found");
      expect(missing.text).toContain("The page you're looking for doesn't exist or has been moved.");
      expect(missing.document.querySelector('main a[href="/en"]')?.textContent).toBe("Go Home");
    }
  });

  it("lists every venture and post on their index pages", async () => {
    const { items } = await readContent(path.join(ROOT, "content"));
    const ventures = await page("/en/ventures");
    const posts = await page("/en/blog");
    for (const item of items.filter((i) => !i.draft)) {
      const listing = item.kind === "venture" ? ventures : posts;
      expect(listing.document.querySelector(`a[href$="/${item.slug}"]`), item.slug).not.toBeNull();
    }
  });
});
