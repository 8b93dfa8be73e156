/**
 * Issue #16 items 1–3 over real HTTP: drafts and scheduled items from files and from the admin are documents
 * guests cannot read (absent from every public list, page, sitemap and feed, present in the admin); a
 * scheduled post appears by itself at its time, also with the page cache on and on two site processes; a
 * signed-in user and a shared link see previews at the public URL, never cached, never indexed.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { ID, Query } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { push } from "../../lib/publish/push.ts";
import { PREVIEW_LINK_TTL_MS, signPreview } from "../../lib/publish/preview-link.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { startSite, type RunningSite } from "../../server/serve-site.ts";
import { copyFixtureContent, ROOT, startBackend, type Backend } from "../helpers/stack.ts";
import { markupOf, Visitor } from "../helpers/site.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { momentText } from "../../web/i18n/history-dates.ts";

const SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef";
/** When the scheduled post is due: a few seconds after the push, so the tests see it before and after. */
let dueAt: number;
let backend: Backend;
let contentDir: string;
let site: RunningSite;
let second: RunningSite;
let ada: Visitor;
const guest = () => new Visitor(site.url);

async function post(slug: string) {
  const page = await backend.services.databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId: CONTENT_MODEL.post.collectionId,
    queries: [Query.equal("slug", slug)],
  });
  return page.documents[0];
}

/** A preview token for the English document of post `slug` (issue #28 item 4: bound to one document). */
async function tokenFor(slug: string, now = Date.now()): Promise<string> {
  const doc = (await post(slug))!;
  return signPreview(SECRET, { kind: "post", documentId: doc.$id, locale: "en", key: "0" }, now);
}

/** The team's permissions of a post pushed from files, with the read permission of its state (issue #28). */
const TEAM_ONLY = ['read("team:studio")', 'update("team:studio")', 'delete("team:studio")'];
const TEAM_PUBLIC = ['read("any")', 'update("team:studio")', 'delete("team:studio")'];

/** The public places an item could show up in, signed out: list, page, sitemap, both feeds. */
async function publicTexts(slug: string, title: string) {
  const v = guest();
  const list = markupOf((await v.request("/en/blog")).text);
  const page = await v.request(`/en/blog/${slug}`);
  const sitemap = (await v.request("/sitemap/1.xml")).text;
  const feeds = (await v.request("/en/rss.xml")).text + (await v.request("/ar/rss.xml")).text;
  return {
    inList: list.includes(title),
    status: page.status,
    inSitemap: sitemap.includes(slug),
    inFeeds: feeds.includes(slug),
  };
}

beforeAll(async () => {
  backend = await startBackend();
  contentDir = await copyFixtureContent();
  await writeFile(
    path.join(contentDir, "ventures/gamma-later.md"),
    "---\nname: Gamma Later\nshortDescription: Next year.\nwebsiteURL: https://gamma.example\npublishAt: 2099-01-01\n---\n## The Problem\n\nLater.\n",
  );
  const pushed = await push(backend.services, { contentDir });
  expect(pushed.failed).toBe(0);
  process.env.APPWRITE_ENDPOINT = backend.emulator.endpoint;
  process.env.APPWRITE_PROJECT_ID = backend.emulator.projectId;
  process.env.APPWRITE_API_KEY = backend.emulator.apiKey;
  process.env.PREVIEW_SECRET = SECRET;
  site = await startSite({ root: ROOT, port: 0, scheduleRecheckMs: 1_000 });
  second = await startSite({ root: ROOT, port: 0, scheduleRecheckMs: 1_000 });
  await backend.services.users.create({
    userId: ID.unique(),
    email: "ada@example.com",
    password: "correct horse battery",
    name: "Ada",
  });
  ada = new Visitor(site.url);
  expect((await ada.login("ada@example.com")).status).toBe(302);
});
afterAll(async () => {
  delete process.env.PREVIEW_SECRET;
  await site?.close();
  await second?.close();
  await backend?.close();
});

describe("states from files", () => {
  it("pushes a draft file as a document only signed-in users may read", async () => {
    expect(await post("work-in-progress")).toMatchObject({ status: "draft", $permissions: TEAM_ONLY });
    expect(await publicTexts("work-in-progress", "Not Yet")).toEqual({
      inList: false,
      status: 404,
      inSitemap: false,
      inFeeds: false,
    });
  });

  it("shows drafts and scheduled items in the admin's lists, with their state and a filter", async () => {
    const list = await ada.request("/admin/blog?state=draft");
    expect(list.status).toBe(200);
    expect(markupOf(list.text)).toContain("Not Yet");
    expect(markupOf(list.text)).not.toContain("Hello World");
    const ventures = markupOf((await ada.request("/admin/ventures")).text);
    expect(ventures).toContain("Gamma Later");
    expect(ventures).toContain('data-state="scheduled"');
  });

  it("keeps a venture with a future publishAt scheduled and private", async () => {
    const v = guest();
    expect((await v.request("/en/ventures/gamma-later")).status).toBe(404);
    expect(markupOf((await v.request("/en/ventures")).text)).not.toContain("Gamma Later");
  });
});

describe("preview", () => {
  it("shows a signed-in user a draft at its public URL, with the banner, never cached", async () => {
    const page = await ada.request("/en/blog/work-in-progress");
    expect(page.status).toBe(200);
    expect(markupOf(page.text)).toContain("Preview: not public");
    // A draft has no publication date yet (issue #35): it says so instead of "Published on …".
    expect(markupOf(page.text)).toContain("Not published yet");
    expect(markupOf(page.text)).not.toContain("Published on");
    expect(page.headers.get("cache-control")).toMatch(/no-store/);
    expect(page.text).toMatch(/<meta name="robots" content="noindex, nofollow"/);
    const arabic = await ada.request("/ar/blog/work-in-progress");
    expect(markupOf(arabic.text)).toContain("معاينة: غير منشور للعامة");
    expect(markupOf(arabic.text)).toContain("لم يُنشر بعد");
  });

  it("opens a draft signed-out with a valid shared link, noindex and no-store", async () => {
    const token = await tokenFor("work-in-progress");
    const page = await guest().request(`/en/blog/work-in-progress?preview=${token}`);
    expect(page.status).toBe(200);
    expect(markupOf(page.text)).toContain("Not Yet");
    expect(page.headers.get("cache-control")).toMatch(/no-store/);
    expect(page.headers.get("x-robots-tag")).toMatch(/noindex/);
    // Asked again, it is rendered again: never stored in the page cache.
    const renders = site.stats.renders;
    await guest().request(`/en/blog/work-in-progress?preview=${token}`);
    expect(site.stats.renders).toBeGreaterThan(renders);
  });

  it("refuses an expired link and a tampered one, before the page runs", async () => {
    // The site server checks the token and sends it to the plain URL (SECURITY C71), which a guest cannot see.
    const plain = { status: 302, location: "/en/blog/work-in-progress" };
    const renders = site.stats.renders;
    const expired = await tokenFor("work-in-progress", Date.now() - PREVIEW_LINK_TTL_MS - 1000);
    expect(await guest().request(`/en/blog/work-in-progress?preview=${expired}`)).toMatchObject(plain);
    const valid = await tokenFor("work-in-progress");
    const tampered = valid.slice(0, -2) + (valid.endsWith("AA") ? "BA" : "AA");
    expect(await guest().request(`/en/blog/work-in-progress?preview=${tampered}`)).toMatchObject(plain);
    expect(site.stats.renders).toBe(renders);
    // A link signed for another document: the page finds its slug differs and shows nothing (issue #28 item 4).
    const forOther = await tokenFor("hello-world");
    expect((await guest().request(`/en/blog/work-in-progress?preview=${forOther}`)).status).toBe(404);
    expect((await guest().request("/en/blog/work-in-progress")).status).toBe(404);
    // A malformed token is dropped by the canonical-query redirect, before any render.
    const malformed = await guest().request("/en/blog/work-in-progress?preview=nope");
    expect(malformed).toMatchObject({ status: 301, location: "/en/blog/work-in-progress" });
  });

  it("makes a link with Share preview, and sends a link of a public item to its plain URL", async () => {
    const shared = await ada.request("/admin/preview-link", {
      method: "POST",
      form: { kind: "post", id: (await post("work-in-progress"))!.$id },
    });
    const { url } = JSON.parse(shared.text) as { url: string };
    const link = new URL(url);
    expect((await guest().request(link.pathname + link.search)).status).toBe(200);
    const published = await tokenFor("hello-world");
    const redirect = await guest().request(`/en/blog/hello-world?preview=${published}`);
    expect(redirect).toMatchObject({ status: 302, location: "/en/blog/hello-world" });
    expect(
      (await guest().request("/admin/preview-link", { method: "POST", form: { kind: "post", id: "x" } })).status,
    ).not.toBe(200);
    // A malformed request gets a sentence an editor can act on, not a developer's.
    const malformed = await ada.request("/admin/preview-link", { method: "POST", form: { kind: "page", id: "x" } });
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.text)).toEqual({
      error: "The request was incomplete. Reload the page and try again.",
    });
  });
});

describe("scheduling", () => {
  it("publishes a future-dated post by itself at its time, on every process, with the page cache on", async () => {
    // Far enough ahead for the push and both caches warmed first (~0.3 s here), near enough not to keep the
    // timing project waiting.
    dueAt = Date.now() + 2_500;
    await writeFile(
      path.join(contentDir, "posts/coming-soon.md"),
      `---\ntitle: Coming Soon\nexcerpt: Scheduled.\nauthorName: Test Author\npublishedDate: ${new Date(dueAt).toISOString()}\n---\nSoon.\n`,
    );
    expect((await push(backend.services, { contentDir })).created).toBe(1);
    expect(await post("coming-soon")).toMatchObject({ status: "scheduled", $permissions: TEAM_ONLY });
    // Warm both caches with the list that must change (the cache serves once its change feed is live).
    for (const s of [site, second]) {
      const until = Date.now() + 10_000;
      do {
        expect(markupOf((await new Visitor(s.url).request("/en/blog")).text)).not.toContain("Coming Soon");
      } while (s.pages!.size === 0 && Date.now() < until);
      expect(s.pages!.size).toBeGreaterThan(0);
    }
    expect(Date.now()).toBeLessThan(dueAt);
    const deadline = dueAt + 15_000;
    const seen = async (s: RunningSite) =>
      markupOf((await new Visitor(s.url).request("/en/blog")).text).includes("Coming Soon");
    while (!((await seen(site)) && (await seen(second)))) {
      if (Date.now() > deadline) throw new Error("the scheduled post never appeared");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(Date.now()).toBeGreaterThanOrEqual(dueAt);
    expect(await post("coming-soon")).toMatchObject({ status: "published", $permissions: TEAM_PUBLIC });
    expect((await guest().request("/en/blog/coming-soon")).status).toBe(200);
    expect((await guest().request("/sitemap/1.xml")).text).toContain("coming-soon");
    expect((await guest().request("/en/rss.xml")).text).toContain("coming-soon");
  }, 40_000);
});

describe("states from the admin", () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [k, v] of Object.entries(fields)) data.set(k, v);
    return data;
  };
  const fields = (slug: string, date = "2026-03-01") => ({
    title: `Admin ${slug}`,
    slug,
    excerpt: "From the admin.",
    authorName: "Ada",
    publishedDate: date,
    content: "<h2>Hi</h2><p>Text.</p>",
  });

  it("saves a draft, publishes it, unpublishes it, and schedules a post at a future time", async () => {
    const draft = await ada.request("/admin/blog/new", {
      method: "POST",
      form: form({ ...fields("admin-draft"), intent: "save" }),
    });
    expect(draft.status).toBe(302);
    expect(await post("admin-draft")).toMatchObject({ status: "draft" });
    expect((await publicTexts("admin-draft", "Admin admin-draft")).status).toBe(404);
    expect(markupOf((await ada.request("/admin/blog")).text)).toContain("Admin admin-draft");

    const id = (await post("admin-draft"))!.$id;
    await ada.request(`/admin/blog/edit/${id}`, {
      method: "POST",
      form: form({ ...fields("admin-draft"), intent: "publish" }),
    });
    const published = await post("admin-draft");
    expect(published).toMatchObject({ status: "published" });
    expect(published!.$permissions).toContain('read("any")');
    expect((await publicTexts("admin-draft", "Admin admin-draft")).inList).toBe(true);

    await ada.request(`/admin/blog/edit/${id}`, {
      method: "POST",
      form: form({ ...fields("admin-draft"), intent: "unpublish" }),
    });
    expect(await post("admin-draft")).toMatchObject({ status: "draft" });
    expect((await post("admin-draft"))!.$permissions).not.toContain('read("any")');
    expect((await publicTexts("admin-draft", "Admin admin-draft")).status).toBe(404);

    // Issue #29: a save without intent never publishes; a publish at a future time schedules.
    await ada.request("/admin/blog/new", { method: "POST", form: form(fields("admin-later", "2099-05-01")) });
    expect(await post("admin-later")).toMatchObject({ status: "draft" });
    const later = (await post("admin-later"))!.$id;
    await ada.request(`/admin/blog/edit/${later}`, {
      method: "POST",
      form: form({ ...fields("admin-later"), intent: "publish", publishAt: "2099-05-01", publishAtTime: "09:30" }),
    });
    expect(await post("admin-later")).toMatchObject({
      status: "scheduled",
      publishAt: "2099-05-01T09:30:00.000+00:00",
    });
    expect((await publicTexts("admin-later", "Admin admin-later")).inList).toBe(false);
  });

  it("schedules a venture with its publish date, publishes it now when the date is cleared, and refuses a date that is not a day", async () => {
    const venture = async (slug: string) =>
      (
        await backend.services.databases.listDocuments({
          databaseId: DATABASE_ID,
          collectionId: CONTENT_MODEL.venture.collectionId,
          queries: [Query.equal("slug", slug)],
        })
      ).documents[0];
    const ventureFields = {
      name: "Admin Later",
      slug: "admin-venture-later",
      shortDescription: "Scheduled from the admin.",
      websiteURL: "https://later.example",
      caseStudy: "<h2>The Problem</h2><p>Later.</p>",
    };
    const created = await ada.request("/admin/ventures/new", {
      method: "POST",
      form: form({ ...ventureFields, publishAt: "2099-02-03", intent: "publish" }),
    });
    expect(created.status).toBe(302);
    const scheduled = await venture("admin-venture-later");
    expect(scheduled).toMatchObject({ status: "scheduled", publishAt: "2099-02-03T00:00:00.000+00:00" });
    expect(scheduled!.$permissions).not.toContain('read("any")');
    expect((await guest().request("/en/ventures/admin-venture-later")).status).toBe(404);
    // The edit form shows the day it is scheduled for.
    const edit = markupOf((await ada.request(`/admin/ventures/edit/${scheduled!.$id}`)).text);
    expect(edit).toMatch(/name="publishAt"[^>]*value="2099-02-03"|value="2099-02-03"[^>]*name="publishAt"/);

    const invalid = await ada.request(`/admin/ventures/edit/${scheduled!.$id}`, {
      method: "POST",
      form: form({ ...ventureFields, publishAt: "2099-02-30", intent: "publish" }),
    });
    expect(invalid.status).toBe(400);
    expect(markupOf(invalid.text)).toContain("Enter a date such as 2026-12-31.");
    expect(await venture("admin-venture-later")).toMatchObject({ status: "scheduled" });

    await ada.request(`/admin/ventures/edit/${scheduled!.$id}`, {
      method: "POST",
      form: form({ ...ventureFields, publishAt: "", intent: "publish" }),
    });
    // Published now: the time it went public is its publishAt.
    expect(await venture("admin-venture-later")).toMatchObject({ status: "published" });
    expect((await guest().request("/en/ventures/admin-venture-later")).status).toBe(200);
  });

  it("counts published, scheduled and drafts on the dashboard besides the spec's totals", async () => {
    const page = markupOf((await ada.request("/admin")).text);
    const count = (id: string) => new RegExp(`data-testid="${id}">(\\d+)<`).exec(page)?.[1];
    expect(Number(count("state-draft"))).toBeGreaterThanOrEqual(2);
    expect(Number(count("state-scheduled"))).toBeGreaterThanOrEqual(2);
    const total = Number(count("/admin/ventures")) + Number(count("/admin/blog"));
    expect(Number(count("state-published")) + Number(count("state-scheduled")) + Number(count("state-draft"))).toBe(
      total,
    );
  });

  it("refuses the second of two concurrent saves, naming who changed it and when, and keeps the input", async () => {
    await backend.services.users.create({
      userId: ID.unique(),
      email: "bob@example.com",
      password: "correct horse battery",
      name: "Bob",
    });
    const bob = new Visitor(site.url);
    expect((await bob.login("bob@example.com")).status).toBe(302);
    // A published post (issue #29 item 1: only an explicit publish makes it public; the saves below keep it so).
    await ada.request("/admin/blog/new", {
      method: "POST",
      form: form({ ...fields("shared-post"), intent: "publish" }),
    });
    const opened = (await post("shared-post"))!;
    // Bob may edit it too: give signed-in users read and update rights, as a team would.
    await backend.services.databases.updateDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      documentId: opened.$id,
      permissions: [...opened.$permissions, 'read("users")', 'update("users")'],
    });
    const version = (await post("shared-post"))!.$updatedAt;
    const edit = `/admin/blog/edit/${opened.$id}`;
    const first = await ada.request(edit, {
      method: "POST",
      form: form({ ...fields("shared-post"), excerpt: "Ada's.", version }),
    });
    expect(first.status).toBe(302);
    const second = await bob.request(edit, {
      method: "POST",
      form: form({ ...fields("shared-post"), excerpt: "Bob's.", version }),
    });
    expect(second.status).toBe(409);
    const updatedAt = (await post("shared-post"))!.$updatedAt;
    expect(markupOf(second.text)).toContain(`changed by Ada at ${momentText(updatedAt, "en")} since you opened it`);
    expect(second.text).toContain("Bob&#x27;s.");
    expect(markupOf(second.text)).toContain("See their version");
    expect((await post("shared-post"))!.excerpt).toBe("Ada's.");
    // Saving again with the version the refusal carried replaces theirs deliberately.
    const again = await bob.request(edit, {
      method: "POST",
      form: form({ ...fields("shared-post"), excerpt: "Bob's.", version: updatedAt }),
    });
    expect(again.status).toBe(302);
    expect(await post("shared-post")).toMatchObject({ excerpt: "Bob's.", updatedBy: "Bob" });
  });
});
