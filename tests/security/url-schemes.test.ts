/**
 * SECURITY C58 over real HTTP and the real `studio` bin: a website URL with a script or data scheme is
 * refused by the admin (with its localized message) and by `studio push` (exit 1, file and field named);
 * a venture written straight through the Appwrite API with such a URL renders without the link; links in
 * bodies to `//host` or `/\host` are removed before storing and before rendering.
 */
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { ID, Permission, Query, Role } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { markupOf, startSiteStack, Visitor, type SiteStack } from "../helpers/site.ts";
import { copyFixtureContent } from "../helpers/stack.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { studio as studioIn } from "../helpers/studio.ts";

let stack: SiteStack;
let ada: Visitor;
const PASSWORD = "correct horse battery";

beforeAll(async () => {
  stack = await startSiteStack();
  await stack.backend.services.users.create({
    userId: ID.unique(),
    email: "ada@example.com",
    password: PASSWORD,
    name: "Ada",
  });
  ada = new Visitor(stack.site.url);
  expect((await ada.login("ada@example.com", PASSWORD)).status).toBe(302);
});
afterAll(async () => stack?.close());

const BAD_URLS = [
  "javascript://%0aalert(document.domain)",
  "JAVASCRIPT://%0Aalert(1)",
  "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
  "vbscript:msgbox(1)",
];
const MESSAGE = {
  en: "Enter a full web address that starts with http:// or https://, such as https://example.com.",
  ar: "أدخل عنوان موقع كاملًا يبدأ بـ http:// أو https://، مثل https://example.com.",
};
/** Links a body may not keep (protocol-relative or backslash tricks that leave the site). */
const BAD_LINKS = ["//evil.example", "/\\evil.example", "\\\\evil.example", "/%5Cevil.example"];

async function findVenture(slug: string) {
  const page = await stack.backend.services.databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId: CONTENT_MODEL.venture.collectionId,
    queries: [Query.equal("slug", slug)],
  });
  return page.documents[0];
}

function ventureForm(slug: string, websiteURL: string, caseStudy = "<h2>The Problem</h2><p>Text.</p>"): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries({
    name: `Venture ${slug}`,
    slug,
    websiteURL,
    shortDescription: "Short.",
    caseStudy,
    intent: "publish", // issue #29: only an explicit publish makes a save public
  }))
    form.set(k, v);
  return form;
}

/** Every `href` of a page, as written in its HTML (entities decoded for `&amp;` only). */
const hrefsOf = (html: string) => [...html.matchAll(/\shref="([^"]*)"/gi)].map((m) => m[1]!.replaceAll("&amp;", "&"));

describe("the admin refuses a website URL that is not http(s) (C58)", () => {
  it.each(BAD_URLS.map((url, i) => [url, i % 2 === 0 ? "en" : "ar"] as const))(
    "answers 400 to %s with the %s message, storing nothing",
    async (websiteURL, locale) => {
      const slug = `bad-url-${BAD_URLS.indexOf(websiteURL)}`;
      const reply = await ada.request("/admin/ventures/new", {
        method: "POST",
        headers: { Cookie: `${ada.cookie}; locale=${locale}` },
        body: ventureForm(slug, websiteURL),
      });
      expect(reply.status).toBe(400);
      expect(reply.text).toContain(MESSAGE[locale]);
      expect(await findVenture(slug)).toBeUndefined();
    },
  );

  it("still stores an https website URL, and removes //host and /\\host links from the case study", async () => {
    const body = BAD_LINKS.map((href) => `<p><a href="${href}">out</a></p>`).join("") + '<p><a href="/en">home</a></p>';
    const reply = await ada.request("/admin/ventures/new", {
      method: "POST",
      body: ventureForm("good-url", "https://good.example", body),
    });
    expect(reply.status).toBe(302);
    const stored = await findVenture("good-url");
    expect(stored?.websiteURL).toBe("https://good.example");
    for (const href of BAD_LINKS) expect(stored?.caseStudy).not.toContain(`href="${href}"`);
    expect(stored?.caseStudy).toContain('<a href="/en">home</a>');
  });
});

describe("the site never links to another scheme (C58)", () => {
  it.each(BAD_URLS.filter((url) => !/^(data|vbscript):/i.test(url)))(
    "renders a venture written through the API with %s without the link",
    async (websiteURL) => {
      // Appwrite's own URL rule (kept by the embedded server) accepts any scheme with a host.
      const slug = `api-${BAD_URLS.indexOf(websiteURL)}`;
      const body = BAD_LINKS.map((href) => `<p><a href="${href}">out</a></p>`).join("");
      await stack.backend.services.databases.createDocument({
        databaseId: DATABASE_ID,
        collectionId: CONTENT_MODEL.venture.collectionId,
        documentId: ID.unique(),
        data: { name: "Scheme", slug, websiteURL, shortDescription: "Short.", caseStudy: body, logoUrl: null },
        permissions: [Permission.read(Role.any())],
      });
      expect((await findVenture(slug))?.websiteURL).toBe(websiteURL);

      for (const locale of ["en", "ar"]) {
        const page = await new Visitor(stack.site.url).request(`/${locale}/ventures/${slug}`);
        expect(page.status).toBe(200);
        const hrefs = hrefsOf(page.text);
        expect(hrefs.filter((h) => /^\s*(javascript|data|vbscript):/i.test(h))).toEqual([]);
        expect(hrefs.filter((h) => /^\s*[/\\]{2}|%5c|\\/i.test(h))).toEqual([]);
        expect(page.text).not.toMatch(/javascript:/i);
        expect(markupOf(page.text)).not.toContain(locale === "en" ? "Visit website" : "زيارة الموقع");
      }
    },
  );

  it("still shows the visit-website link of an https venture", async () => {
    const page = await new Visitor(stack.site.url).request("/en/ventures/good-url");
    expect(page.status).toBe(200);
    expect(hrefsOf(page.text)).toContain("https://good.example");
  });
});

/** `studio <args>` in this process (tests/helpers/studio.ts), piped, against the test backend. */
const studio = (args: string[]) => studioIn(args, stack.backend.emulator);

describe("studio push refuses a website URL that is not http(s) (C58)", () => {
  it("exits 1 naming the file and websiteURL for each scheme, and writes none of those ventures", async () => {
    const dir = await copyFixtureContent();
    try {
      for (const [i, url] of BAD_URLS.entries()) {
        await writeFile(
          path.join(dir, `ventures/scheme-${i}.md`),
          `---\nname: Scheme ${i}\nshortDescription: x\nwebsiteURL: "${url}"\n---\nBody\n`,
        );
      }
      const { code, stderr } = await studio(["push", "--dir", dir]);
      expect(code).toBe(1);
      for (const i of BAD_URLS.keys()) {
        expect(stderr).toMatch(new RegExp(`ventures/scheme-${i}\\.md: websiteURL: must be an http:// or https:// URL`));
        expect(await findVenture(`scheme-${i}`)).toBeUndefined();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
