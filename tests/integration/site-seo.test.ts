import path from "node:path";
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readContent } from "../../lib/content/read.ts";
import type { RunningSite } from "../../server/serve-site.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { SUBMISSION_MODEL } from "../../model/model.ts";
import { htmlDocument, startSiteStack, type SiteStack } from "../helpers/site.ts";
import { ROOT, type Backend } from "../helpers/stack.ts";

let stack: SiteStack;
let backend: Backend;
let site: RunningSite;
let slugs: { ventures: string[]; posts: string[] };

beforeAll(async () => {
  stack = await startSiteStack();
  ({ backend, site } = stack);
  const { items } = await readContent(path.join(ROOT, "content"));
  const published = items.filter((i) => !i.draft);
  // One slug per item: its English and Arabic files share it.
  const unique = (kind: string) => [...new Set(published.filter((i) => i.kind === kind).map((i) => i.slug))];
  slugs = { ventures: unique("venture"), posts: unique("post") };
});
afterAll(async () => stack?.close());

async function head(pathname: string) {
  const response = await fetch(site.url + pathname);
  const document = htmlDocument(await response.text());
  const meta = (selector: string) => document.querySelector(selector)?.getAttribute("content") ?? null;
  const link = (selector: string) => document.querySelector(selector)?.getAttribute("href") ?? null;
  const jsonLd = [...document.querySelectorAll('script[type="application/ld+json"]')].map(
    (s) => JSON.parse(s.textContent ?? "null") as Record<string, unknown>,
  );
  return { response, document, meta, link, jsonLd };
}

describe("SEO outputs", () => {
  it("gives every page its title, description, canonical URL, hreflang alternates, Open Graph and Twitter tags", async () => {
    for (const pathname of ["/en/about", "/ar/services", "/en/privacy-policy", "/ar/contact"]) {
      const { response, document, meta, link } = await head(pathname);
      expect(response.status, pathname).toBe(200);
      expect(document.title, pathname).toMatch(/ \| (Venture Studio|استوديو المشاريع)$/);
      expect(meta('meta[name="description"]')?.length, pathname).toBeGreaterThan(40);
      expect(link('link[rel="canonical"]')).toBe(site.url + pathname);
      const rest = pathname.slice(3);
      expect(link('link[rel="alternate"][hreflang="en"]')).toBe(`${site.url}/en${rest}`);
      expect(link('link[rel="alternate"][hreflang="ar"]')).toBe(`${site.url}/ar${rest}`);
      expect(link('link[rel="alternate"][hreflang="x-default"]')).toBe(`${site.url}/en${rest}`);
      expect(meta('meta[property="og:url"]')).toBe(site.url + pathname);
      expect(meta('meta[property="og:title"]')).toBe(document.title);
      expect(meta('meta[property="og:locale"]')).toBe(pathname.startsWith("/ar") ? "ar_AR" : "en_US");
      expect(meta('meta[name="twitter:card"]')).toBe("summary");
    }
  });

  it("describes the studio as an Organization on the home page", async () => {
    const { jsonLd } = await head("/ar");
    expect(jsonLd).toHaveLength(1);
    expect(jsonLd[0]).toMatchObject({
      "@type": "Organization",
      name: "استوديو المشاريع",
      url: `${site.url}/ar`,
      address: { addressRegion: "WY", addressCountry: "US" },
    });
  });

  it("describes a post as a BlogPosting with its image as the large social card", async () => {
    const slug = slugs.posts[0]!;
    const { jsonLd, meta } = await head(`/en/blog/${slug}`);
    expect(jsonLd[0]).toMatchObject({
      "@type": "BlogPosting",
      mainEntityOfPage: `${site.url}/en/blog/${slug}`,
      author: { "@type": "Person" },
    });
    expect(String(jsonLd[0]!.image)).toMatch(new RegExp(`^${site.url}/media/`));
    expect(meta('meta[property="og:type"]')).toBe("article");
    expect(meta('meta[name="twitter:card"]')).toBe("summary_large_image");
  });

  it("lists both locales of every page, venture and post in the sitemap (/sitemap.xml: an index of parts)", async () => {
    const index = await fetch(`${site.url}/sitemap.xml`);
    expect(index.headers.get("content-type")).toMatch(/^application\/xml/);
    const parts = new JSDOM(await index.text(), { contentType: "text/xml" }).window.document;
    expect(parts.documentElement.tagName).toBe("sitemapindex");
    expect([...parts.getElementsByTagName("loc")].map((l) => l.textContent)).toEqual([`${site.url}/sitemap/1.xml`]);
    const response = await fetch(`${site.url}/sitemap/1.xml`);
    expect(response.headers.get("content-type")).toMatch(/^application\/xml/);
    const xml = new JSDOM(await response.text(), { contentType: "text/xml" }).window.document;
    const locs = [...xml.getElementsByTagName("loc")].map((l) => l.textContent?.replace(site.url, ""));
    const paths = [
      "",
      "/about",
      "/services",
      "/ventures",
      "/blog",
      "/community",
      "/partner",
      "/contact",
      "/privacy-policy",
      "/terms-of-use",
      ...slugs.ventures.map((s) => `/ventures/${s}`),
      ...slugs.posts.map((s) => `/blog/${s}`),
    ];
    expect(locs.sort()).toEqual(paths.flatMap((p) => [`/en${p}`, `/ar${p}`]).sort());
    expect(xml.getElementsByTagName("xhtml:link")).toHaveLength(paths.length * 2 * 3);
  });

  it("titles the legal pages' table of contents in the page's language", async () => {
    const expected = { en: "On this page", ar: "في هذه الصفحة" };
    for (const pathname of ["/en/privacy-policy", "/ar/privacy-policy", "/en/terms-of-use", "/ar/terms-of-use"]) {
      const { document } = await head(pathname);
      const locale = pathname.slice(1, 3) as keyof typeof expected;
      expect(document.querySelector("h2#contents")?.textContent, pathname).toBe(expected[locale]);
    }
  });

  it("serves an RSS feed per locale, and robots.txt pointing at the sitemap", async () => {
    for (const locale of ["en", "ar"]) {
      const response = await fetch(`${site.url}/${locale}/rss.xml`);
      expect(response.headers.get("content-type")).toMatch(/^application\/rss\+xml/);
      const xml = new JSDOM(await response.text(), { contentType: "text/xml" }).window.document;
      expect(xml.querySelector("channel > language")?.textContent).toBe(locale);
      const links = [...xml.querySelectorAll("item > link")].map((l) => l.textContent);
      expect(links.sort()).toEqual(slugs.posts.map((s) => `${site.url}/${locale}/blog/${s}`).sort());
    }
    expect((await fetch(`${site.url}/fr/rss.xml`)).status).toBe(404);
    const robots = await (await fetch(`${site.url}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${site.url}/sitemap.xml`);
    expect(robots).toContain("Disallow: /admin");
  });
});

describe("the form actions without JavaScript", () => {
  const post = (pathname: string, fields: Record<string, string>) =>
    fetch(site.url + pathname, { method: "POST", body: new URLSearchParams(fields), redirect: "manual" });

  it("store a contact message and a community application (interest as projectIdea)", async () => {
    const contact = await post("/en/contact", { name: "Dana", email: "dana@example.com", message: "Hello" });
    expect(contact.status).toBe(200);
    expect(await contact.text()).toContain("Message Sent!");
    const community = await post("/ar/community", { name: "سامي", email: "sami@example.com", interest: "وكالة" });
    expect(community.status).toBe(200);
    const answered = htmlDocument(await community.text());
    expect(answered.querySelector('form [role="status"]')?.textContent).toContain("شكرًا لك!");
    // The answered form is empty again (the hidden honeypot aside, SECURITY C57).
    const fields = [
      ...answered.querySelectorAll('form input:not([name="website"]):not([type="hidden"]), form textarea'),
    ];
    expect(fields.map((f) => f.getAttribute("name"))).toEqual(["name", "email", "interest"]);
    expect(fields.map((f) => (f.tagName === "TEXTAREA" ? f.textContent : (f.getAttribute("value") ?? "")))).toEqual([
      "",
      "",
      "",
    ]);
    const { databases } = backend.services;
    const messages = await databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: SUBMISSION_MODEL.contactMessage.collectionId,
    });
    expect(messages.documents.map((d) => [d.name, d.email, d.message])).toContainEqual([
      "Dana",
      "dana@example.com",
      "Hello",
    ]);
    const applications = await databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: SUBMISSION_MODEL.communityApplication.collectionId,
    });
    expect(applications.documents.map((d) => [d.name, d.projectIdea])).toContainEqual(["سامي", "وكالة"]);
  });

  it("refuse invalid input with 400 and the spec's texts, storing nothing", async () => {
    const contact = await post("/en/contact", { name: "Eve", email: "eve@", message: "x" });
    expect(contact.status).toBe(400);
    const html = await contact.text();
    expect(html).toContain("Please correct the errors below.");
    expect(html).toContain('value="eve@"');
    // Text of spaces only is blank: refused by its field, and what was typed is given back as it was.
    const blank = await post("/en/contact", { name: "   ", email: "blank@example.com", message: "A blank name" });
    expect(blank.status).toBe(400);
    const refilled = htmlDocument(await blank.text());
    expect(refilled.querySelector('form [role="alert"]')?.textContent).toBe("Please correct the errors below.");
    expect(refilled.querySelector("form")?.textContent).toContain("This field is required.");
    expect(refilled.querySelector('form input[name="name"]')?.getAttribute("value")).toBe("   ");
    expect(refilled.querySelector('form input[name="email"]')?.getAttribute("value")).toBe("blank@example.com");
    expect(refilled.querySelector('form textarea[name="message"]')?.textContent).toBe("A blank name");
    const community = await post("/en/community", { name: "Eve", email: "eve@example.com", interest: "   " });
    expect(community.status).toBe(400);
    expect(await community.text()).toContain("Please fill out all fields correctly.");
    const { databases } = backend.services;
    const messages = await databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: SUBMISSION_MODEL.contactMessage.collectionId,
    });
    expect(messages.documents.filter((d) => d.name === "Eve" || d.email === "blank@example.com")).toEqual([]);
  });
});
