/**
 * SECURITY C55: public pages read what guests may read, and only that. Documents written through REST with the
 * API key (as the Appwrite console or a script would) without `read("any")` are 404 in both locales and absent
 * from every list, the sitemap and both RSS feeds, with the page cache on and off; a public post made private is
 * dropped from the cache within its max age (no realtime event reaches a guest for it); and no public page, list,
 * feed or image needs the API key: the site runs here with a key the embedded server refuses.
 */
import path from "node:path";
import { ID, Permission, Query, Role } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAdminServices, parseFileViewUrl } from "../../lib/appwrite/client.ts";
import { push } from "../../lib/publish/push.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { startSite, type RunningSite } from "../../server/serve-site.ts";
import { ROOT, startBackend, type Backend } from "../helpers/stack.ts";
import { CONTENT_MODEL } from "../../model/model.ts";

/** Max age of the third site's page cache: short, so the unpublish test waits seconds, not a minute. */
const SHORT_MAX_AGE_MS = 1_500;
const WRONG_KEY = "standard_not-the-project-key";

let backend: Backend;
/** Page cache on, production settings. */
let cached: RunningSite;
/** Page cache off: every request renders. */
let uncached: RunningSite;
/** Page cache on with a short max age. */
let shortLived: RunningSite;

const hiddenVenture = { slug: "hidden-venture-c55", name: "Hidden Venture C55" };
const hiddenPost = { slug: "hidden-post-c55", title: "Hidden Post C55" };

const ventureData = (v: { slug: string; name: string }) => ({
  name: v.name,
  slug: v.slug,
  shortDescription: "Not for guests.",
  caseStudy: "<p>Private case study.</p>",
  websiteURL: "https://example.com",
});
const postData = (p: { slug: string; title: string }) => ({
  title: p.title,
  slug: p.slug,
  excerpt: "Not for guests.",
  content: "<p>Private post.</p>",
  // Newest of all, so today's code would put it first on the home page and in the feeds.
  publishedDate: "2030-01-01T00:00:00.000+00:00",
  authorName: "Someone",
});

/** Polls `condition` every 100 ms (vitest's `vi.waitFor`); throws naming `what` after `ms`. */
async function until(condition: () => Promise<boolean>, what: string, ms: number): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await condition())) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    },
    { timeout: ms, interval: 100 },
  );
}

/** Waits until a site's page cache serves (its change feed is live): a page gets stored. */
async function cacheLive(site: RunningSite): Promise<void> {
  await until(
    async () => {
      await (await fetch(`${site.url}/en/about`)).text();
      return site.pages!.size > 0;
    },
    "the page cache to go live",
    10_000,
  );
}

const text = async (site: RunningSite, url: string) => {
  const response = await fetch(site.url + url, { redirect: "manual" });
  return { status: response.status, body: await response.text() };
};

beforeAll(async () => {
  backend = await startBackend();
  const pushed = await push(backend.services, { contentDir: path.join(ROOT, "content") });
  if (pushed.failed > 0) throw new Error("pushing content/ failed");
  const { databases } = backend.services;
  // Through REST with the API key, as the console or a script would: readable by one user, or by users only.
  await databases.createDocument({
    databaseId: DATABASE_ID,
    collectionId: CONTENT_MODEL.venture.collectionId,
    documentId: ID.unique(),
    data: ventureData(hiddenVenture),
    permissions: [Permission.read(Role.user("someone")), Permission.update(Role.user("someone"))],
  });
  await databases.createDocument({
    databaseId: DATABASE_ID,
    collectionId: CONTENT_MODEL.post.collectionId,
    documentId: ID.unique(),
    data: postData(hiddenPost),
    permissions: [Permission.read(Role.users())],
  });
  process.env.APPWRITE_ENDPOINT = backend.emulator.endpoint;
  process.env.APPWRITE_PROJECT_ID = backend.emulator.projectId;
  process.env.APPWRITE_API_KEY = WRONG_KEY; // any API-key read by a public page fails (401 → 500)
  cached = await startSite({ root: ROOT, port: 0 });
  uncached = await startSite({ root: ROOT, port: 0, pageCache: false, readCache: false }); // no cache at all
  shortLived = await startSite({ root: ROOT, port: 0, pageMaxAgeMs: SHORT_MAX_AGE_MS });
  await Promise.all([cacheLive(cached), cacheLive(shortLived)]);
});
afterAll(async () => {
  await Promise.all([cached?.close(), uncached?.close(), shortLived?.close()]);
  await backend?.close();
});

const LISTS = [
  "/en",
  "/ar",
  "/en/ventures",
  "/ar/ventures",
  "/en/blog",
  "/ar/blog",
  "/en/ventures/clinic-ledger", // a venture's page lists the others
  "/sitemap/1.xml", // the sitemap's one part here (/sitemap.xml is their index)
  "/en/rss.xml",
  "/ar/rss.xml",
];

describe.each([
  ["on", () => cached],
  ["off", () => uncached],
])("with the page cache %s", (_mode, site) => {
  it("answers 404 in both locales for a venture and a post guests may not read", async () => {
    for (const locale of ["en", "ar"]) {
      for (const url of [`/${locale}/ventures/${hiddenVenture.slug}`, `/${locale}/blog/${hiddenPost.slug}`]) {
        const page = await text(site(), url);
        expect(page.status, url).toBe(404);
        expect(page.body, url).not.toContain("Not for guests.");
        expect(page.body, url).not.toMatch(/Hidden (Venture|Post) C55/);
      }
    }
  });

  it("leaves them out of every list, the home page's cards, the sitemap and both RSS feeds (twice: stored, then served)", async () => {
    for (let round = 0; round < 2; round++) {
      for (const url of LISTS) {
        const page = await text(site(), url);
        expect(page.status, url).toBe(200);
        for (const hidden of [hiddenVenture.slug, hiddenVenture.name, hiddenPost.slug, hiddenPost.title]) {
          expect(page.body, `${url} shows ${hidden}`).not.toContain(hidden);
        }
      }
    }
    // The lists really are public: the pushed content shows.
    expect((await text(site(), "/en/blog")).body).toContain("join-learn-build-earn");
    expect((await text(site(), "/sitemap/1.xml")).body).toContain("/ar/ventures/clinic-ledger");
    if (site().pages) expect(site().pages!.size).toBeGreaterThan(1);
  });
});

describe("no API key behind public pages", () => {
  it("serves pages, lists, feeds and images while the site's configured API key is refused by Appwrite", async () => {
    const wrongKey = createAdminServices({ ...backend.emulator, apiKey: WRONG_KEY });
    await expect(
      wrongKey.tablesDB.listRows({ databaseId: DATABASE_ID, tableId: CONTENT_MODEL.venture.collectionId }),
    ).rejects.toMatchObject({ code: 401 });

    const { documents } = await backend.services.databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      queries: [Query.equal("slug", "join-learn-build-earn")],
    });
    const fileId = parseFileViewUrl(String(documents[0]!["featuredImageUrl"]))!.fileId;
    for (const url of [
      ...LISTS,
      "/en/blog/join-learn-build-earn",
      "/ar/ventures/qalam-bridge",
      `/media/${fileId}`,
      `/media/${fileId}?w=640`,
    ]) {
      const response = await fetch(uncached.url + url, { headers: { Accept: "image/webp,*/*" } });
      await response.arrayBuffer();
      expect(response.status, url).toBe(200);
    }
  });
});

describe("a public post made private", () => {
  const fading = { slug: "fading-post-c55", title: "Fading Post C55" };

  it("drops out of the cached pages within the cache's max age, and at once without a cache", async () => {
    const { databases } = backend.services;
    const doc = await databases.createDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      documentId: ID.unique(),
      data: postData(fading),
      permissions: [Permission.read(Role.any())],
    });
    // Public: the create's realtime event drops the cache, and the next render shows it (then it is stored).
    await until(
      async () => (await text(shortLived, "/en/blog")).body.includes(fading.title),
      "the post to show",
      5_000,
    );
    expect((await text(shortLived, `/en/blog/${fading.slug}`)).status).toBe(200);
    expect((await text(shortLived, "/en")).body).toContain(fading.title);

    // Unpublished through REST: Appwrite tells only the roles that may read it now, so guests hear nothing.
    const unpublishedAt = Date.now();
    await databases.updateDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      documentId: doc.$id,
      permissions: [Permission.read(Role.user("someone"))],
    });
    expect((await text(uncached, "/en/blog")).body).not.toContain(fading.title);
    expect((await text(uncached, `/ar/blog/${fading.slug}`)).status).toBe(404);

    await until(
      async () => {
        const [list, home, detail] = await Promise.all([
          text(shortLived, "/en/blog"),
          text(shortLived, "/en"),
          text(shortLived, `/en/blog/${fading.slug}`),
        ]);
        return !list.body.includes(fading.title) && !home.body.includes(fading.title) && detail.status === 404;
      },
      "the unpublished post to leave the cached pages",
      SHORT_MAX_AGE_MS + 3_000,
    );
    expect(Date.now() - unpublishedAt).toBeLessThan(SHORT_MAX_AGE_MS + 3_000);
    for (const url of ["/sitemap/1.xml", "/en/rss.xml", "/ar/rss.xml"]) {
      expect((await text(shortLived, url)).body, url).not.toContain(fading.slug);
    }
  });
});
