import path from "node:path";
import { htmlDocument } from "../helpers/site.ts";
import { ID, Permission, Role } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { push } from "../../lib/publish/push.ts";
import { placeholderDocument, CONTENT_MODEL } from "../../model/model.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { startSite, type RunningSite } from "../../server/serve-site.ts";
import { ROOT, startBackend, type Backend } from "../helpers/stack.ts";

let backend: Backend;
let site: RunningSite;
const EN_ONLY = "locales-english-only";
const AR_ONLY = "locales-arabic-only";
const BOTH = "locales-both";
const PRIVATE_AR = "locales-private-arabic";

async function post(slug: string, locale: "en" | "ar", title: string, options: { public?: boolean } = {}) {
  await backend.services.databases.createDocument({
    databaseId: DATABASE_ID,
    collectionId: CONTENT_MODEL.post.collectionId,
    documentId: ID.unique(),
    data: placeholderDocument("post", {
      slug,
      locale,
      title,
      excerpt: `${title}.`,
      content: `<h2>${title}</h2><p>${title}</p>`,
      publishedDate: "2030-01-01T00:00:00.000+00:00",
    }),
    permissions: options.public === false ? [] : [Permission.read(Role.any())],
  });
}

beforeAll(async () => {
  backend = await startBackend();
  await push(backend.services, { contentDir: path.join(ROOT, "content") });
  await post(EN_ONLY, "en", "English only");
  await post(AR_ONLY, "ar", "بالعربية فقط");
  await post(BOTH, "en", "Both languages");
  await post(BOTH, "ar", "باللغتين");
  await post(PRIVATE_AR, "en", "Public English");
  await post(PRIVATE_AR, "ar", "مسودة خاصة", { public: false });
  process.env.APPWRITE_ENDPOINT = backend.emulator.endpoint;
  process.env.APPWRITE_PROJECT_ID = backend.emulator.projectId;
  process.env.APPWRITE_API_KEY = backend.emulator.apiKey;
  site = await startSite({ root: ROOT, port: 0 });
});
afterAll(async () => {
  await site?.close();
  await backend?.close();
});

async function page(pathname: string) {
  const response = await fetch(site.url + pathname);
  expect(response.status, pathname).toBe(200);
  const document = htmlDocument(await response.text());
  const alternates = Object.fromEntries(
    [...document.querySelectorAll('link[rel="alternate"][hreflang]')].map((l) => [
      l.getAttribute("hreflang"),
      l.getAttribute("href"),
    ]),
  );
  const jsonLd = [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) =>
    JSON.parse(s.textContent ?? "null"),
  );
  return { document, alternates, jsonLd, h1: document.querySelector("h1")?.textContent };
}

describe("language versions on the public site", () => {
  it("shows the Arabic version on /ar and the English one on /en, with hreflang for both", async () => {
    const ar = await page(`/ar/blog/${BOTH}`);
    expect(ar.h1).toBe("باللغتين");
    expect(ar.document.querySelector('[role="note"]')).toBeNull();
    expect(ar.alternates).toEqual({
      en: `${site.url}/en/blog/${BOTH}`,
      ar: `${site.url}/ar/blog/${BOTH}`,
      "x-default": `${site.url}/en/blog/${BOTH}`,
    });
    expect(ar.jsonLd[0]).toMatchObject({ "@type": "BlogPosting", headline: "باللغتين", inLanguage: "ar" });
    expect((await page(`/en/blog/${BOTH}`)).h1).toBe("Both languages");
  });

  it("falls back to the other language inside its lang/dir, with a notice in the page's language", async () => {
    const ar = await page(`/ar/blog/${EN_ONLY}`);
    expect(ar.h1).toBe("English only");
    expect(ar.document.querySelector("h1")!.closest('[lang="en"][dir="ltr"]')).not.toBeNull();
    expect(ar.document.querySelector('[role="note"]')?.textContent).toBe("هذا المقال متاح بالإنجليزية فقط.");
    expect(ar.alternates).toEqual({
      en: `${site.url}/en/blog/${EN_ONLY}`,
      "x-default": `${site.url}/en/blog/${EN_ONLY}`,
    });

    const en = await page(`/en/blog/${AR_ONLY}`);
    expect(en.h1).toBe("بالعربية فقط");
    expect(en.document.querySelector("h1")!.closest('[lang="ar"][dir="rtl"]')).not.toBeNull();
    expect(en.document.querySelector('[role="note"]')?.textContent).toBe("This article is available in Arabic only.");
    expect(en.alternates).toEqual({
      ar: `${site.url}/ar/blog/${AR_ONLY}`,
      "x-default": `${site.url}/ar/blog/${AR_ONLY}`,
    });
  });

  it("never shows a version guests cannot read (SECURITY C55): the public one is shown instead", async () => {
    const ar = await page(`/ar/blog/${PRIVATE_AR}`);
    expect(ar.h1).toBe("Public English");
    expect(ar.document.body.textContent).not.toContain("مسودة خاصة");
    expect(Object.keys(ar.alternates)).toEqual(["en", "x-default"]);
  });

  it("lists Arabic versions on /ar/blog, and every item once, English-only ones too, behind ?all=1", async () => {
    const titlesOf = (document: Document) => [...document.querySelectorAll("li h3")].map((h) => h.textContent);
    const own = await page("/ar/blog");
    expect(titlesOf(own.document)).toContain("باللغتين");
    expect(titlesOf(own.document)).toContain("بالعربية فقط");
    expect(titlesOf(own.document)).not.toContain("English only");
    expect(titlesOf(own.document)).not.toContain("Public English"); // its Arabic version is private
    expect(own.document.querySelector('main [role="note"]')).toBeNull();
    expect(own.document.querySelector('a[href="/ar/blog?all=1"]')?.textContent).toBe(
      "اعرض أيضًا المقالات المتاحة بالإنجليزية فقط",
    );

    const all = await page("/ar/blog?all=1");
    const titles = titlesOf(all.document);
    expect(titles.filter((t) => t === "باللغتين" || t === "Both languages")).toEqual(["باللغتين"]);
    expect(titles).toContain("English only");
    expect(titles).not.toContain("مسودة خاصة");
    expect(all.document.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex, nofollow");
    // The whole list under its own heading, and the plain link (no JavaScript needed) back to the Arabic ones.
    expect(all.document.querySelector("#all-posts")?.textContent).toBe("كل المقالات");
    expect(all.document.querySelector('main a[href="/ar/blog"]')?.textContent).toBe(
      "أخفِ المقالات المتاحة بالإنجليزية فقط",
    );
    // On /en the other way round: the Arabic-only post only behind the switch.
    expect(titlesOf((await page("/en/blog")).document)).not.toContain("بالعربية فقط");
    expect(titlesOf((await page("/en/blog?all=1")).document)).toContain("بالعربية فقط");
  });

  it("puts a language's own versions first on home, and the others' ventures under their own heading", async () => {
    await backend.services.databases.createDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.venture.collectionId,
      documentId: ID.unique(),
      data: placeholderDocument("venture", { slug: "locales-venture-english", locale: "en", name: "Venture English" }),
      permissions: [Permission.read(Role.any())],
    });
    const ventures = await page("/ar/ventures");
    const others = ventures.document.querySelector('section[aria-labelledby="other-ventures"]')!;
    expect(others.querySelector("h2")?.textContent).toBe("مشاريع موصوفة بالإنجليزية فقط");
    expect([...others.querySelectorAll("li h3")].map((h) => h.textContent)).toEqual(["Venture English"]);
    const first = [...ventures.document.querySelectorAll("main li")].filter((li) => !others.contains(li));
    expect(first.length).toBeGreaterThan(0);
    for (const li of first) expect(li.getAttribute("lang")).toBeNull(); // each in the page's language
    // Home's latest posts: the newest are English-only and the private one (2030); Arabic versions come first.
    const home = await page("/ar");
    const latest = home.document.querySelector('section[aria-labelledby="latest-posts"]')!;
    const cards = [...latest.querySelectorAll("li")];
    expect(cards.map((li) => li.getAttribute("lang"))).toEqual([null, null, null]);
  });

  it("puts the Arabic items in /ar/rss.xml and lists only existing versions in the sitemap", async () => {
    const arRss = await (await fetch(`${site.url}/ar/rss.xml`)).text();
    const enRss = await (await fetch(`${site.url}/en/rss.xml`)).text();
    expect(arRss).toContain("<title>باللغتين</title>");
    expect(arRss).not.toContain("<title>English only</title>");
    expect(enRss).toContain("<title>English only</title>");
    expect(enRss).not.toContain("باللغتين");
    // The sitemap is an index of parts (issue #18 item 3): here one part.
    const index = await (await fetch(`${site.url}/sitemap.xml`)).text();
    expect(index).toContain(`<loc>${site.url}/sitemap/1.xml</loc>`);
    const sitemap = await (await fetch(`${site.url}/sitemap/1.xml`)).text();
    expect(sitemap).toContain(`<loc>${site.url}/ar/blog/${AR_ONLY}</loc>`);
    expect(sitemap).not.toContain(`<loc>${site.url}/en/blog/${AR_ONLY}</loc>`);
    expect(sitemap).not.toContain(`<loc>${site.url}/ar/blog/${PRIVATE_AR}</loc>`);
    expect(sitemap).toContain(`hreflang="x-default" href="${site.url}/ar/blog/${AR_ONLY}"`);
  });
});
