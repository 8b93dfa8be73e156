/**
 * Issue #29 items 3 and 10 in real Chromium. Staying in the editor: a save keeps the editor on the item's
 * edit page with the flash and the item's state, a new item lands on its own edit page; typing in a draft is
 * autosaved to the server ("Saved 10:42"; another browser sees it; guests still do not), a new item is
 * created as a draft once its required fields are filled, a published item is never autosaved, and leaving
 * after an autosave does not ask. The dashboard counts items with their language versions, lists recent
 * drafts and scheduled items (titles in the admin's language), and offers "New …" per kind: in the English
 * admin on a desktop and the Arabic admin at 390 px.
 */
import { Query } from "node-appwrite";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_KIND_NAMES, CONTENT_MODEL } from "../../model/model.ts";
import { createItem } from "../../server/admin/content.ts";
import { createSessionServices } from "../../lib/appwrite/client.ts";
import { signIn } from "../../server/auth/account.ts";
import {
  adminPage,
  createUser,
  htmlSource,
  newUser,
  ready,
  seedAs,
  signInAs,
  statusOf,
  type Credentials,
} from "./admin-helpers.ts";
import { PHONE, startStack, type Stack } from "./helpers.ts";

let stack: Stack;
let ada: Credentials;
let page: Page;
const POSTS = CONTENT_MODEL.post.collectionId;

beforeAll(async () => {
  stack = await startStack();
  ada = await createUser(stack, newUser("Ada"));
  page = await adminPage(stack, ada);
}, 180_000);
afterAll(async () => {
  await stack?.close();
});

async function stored(slug: string, locale = "en") {
  const found = await stack.backend.services.databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId: POSTS,
    queries: [Query.equal("slug", slug), Query.equal("locale", locale)],
  });
  return found.documents[0];
}

const field = (p: Page, name: string) => p.locator(`form [name="${name}"]`).first();
const autosaveStatus = (p: Page) => p.locator("[data-autosave]");
/** The flash region's text without the bidi isolates around the item's name. */
const flashText = async (p: Page) =>
  ((await p.locator("main [data-flash]").first().textContent()) ?? "").replace(/[\u2068\u2069]/g, "");

async function fillPost(p: Page, title: string, slug: string): Promise<void> {
  // The first keystrokes may come before the form has hydrated: filled again until the form keeps them.
  await expect
    .poll(async () => {
      await field(p, "title").fill(title);
      return field(p, "title").inputValue();
    })
    .toBe(title);
  await field(p, "slug").fill(slug);
  await field(p, "excerpt").fill("Written in the editor.");
  await (await htmlSource(p, "content")).fill("<p>Body.</p>");
}

describe("staying in the editor", () => {
  it("saves in place with the flash and the state, then autosaves typing in the draft to the server", async () => {
    await page.goto("/admin/blog/new");
    await ready(page);
    await fillPost(page, "Stays In Place", "stays-in-place");
    // "Save" (issue #29 item 1: a new item's save keeps it a draft).
    await page.locator("form button[name=intent][value=save]").click();
    // A new item lands on its own edit page, with the flash and its state.
    await page.waitForURL((u) => u.pathname.startsWith("/admin/blog/edit/"));
    await ready(page);
    const id = (await stored("stays-in-place"))!.$id;
    expect(new URL(page.url()).pathname).toBe(`/admin/blog/edit/${id}`);
    await expect.poll(() => flashText(page)).toBe("Created “Stays In Place”.");
    expect(await page.locator("[data-state]").first().getAttribute("data-state")).toBe("draft");

    // Typing, then stopping: saved to the server a few seconds later, said with the time.
    await field(page, "excerpt").fill("Autosaved while typing.");
    await expect.poll(() => autosaveStatus(page).textContent(), { timeout: 15_000 }).toMatch(/^Saved \d\d:\d\d$/);
    expect(await stored("stays-in-place")).toMatchObject({ excerpt: "Autosaved while typing.", status: "draft" });
    expect(await statusOf(stack, "/en/blog/stays-in-place")).toBe(404);
    // Another browser of the same editor (its own context, with the session's cookies) opens what the server has.
    const other = await stack.page({ storageState: await page.context().storageState() });
    await other.goto(`/admin/blog/edit/${id}`);
    await ready(other);
    expect(await field(other, "excerpt").inputValue()).toBe("Autosaved while typing.");
    await other.close();

    // A second save after the autosave is no conflict with it, and stays on the page.
    await field(page, "title").fill("Stays In Place Still");
    await page.locator("form button[name=intent][value=save]").click();
    await expect.poll(() => flashText(page)).toBe("Saved “Stays In Place Still”.");
    expect(new URL(page.url()).pathname).toBe(`/admin/blog/edit/${id}`);
    expect(await field(page, "title").inputValue()).toBe("Stays In Place Still");

    // Everything autosaved: leaving does not ask.
    await field(page, "excerpt").fill("Autosaved again.");
    await expect.poll(() => autosaveStatus(page).textContent(), { timeout: 15_000 }).toMatch(/^Saved \d\d:\d\d$/);
    const asked: string[] = [];
    page.on("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole("link", { name: "Dashboard" }).first().click();
    await page.waitForURL((u) => u.pathname === "/admin");
    expect(asked).toEqual([]);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("studio:unsaved")))).toEqual(
      [],
    );
  });

  it("creates a new item as a draft once its required fields are filled, and moves to its edit page", async () => {
    await page.goto("/admin/blog/new");
    await ready(page);
    await fillPost(page, "Born By Autosave", "born-by-autosave");
    await page.waitForURL((u) => u.pathname.startsWith("/admin/blog/edit/"), { timeout: 15_000 });
    await ready(page);
    expect(await stored("born-by-autosave")).toMatchObject({ title: "Born By Autosave", status: "draft" });
    expect(await field(page, "title").inputValue()).toBe("Born By Autosave");
    expect(await statusOf(stack, "/en/blog/born-by-autosave")).toBe(404);
  });

  it("never autosaves a published item", async () => {
    const live = await seedAs(stack, ada, {
      kind: "post",
      input: {
        title: "Live Already",
        slug: "live-already",
        excerpt: "As guests read it.",
        authorName: "Ada",
        publishedDate: "2026-03-01",
        content: "<p>Live.</p>",
      },
    });
    // The same session in a page whose clock the test moves: no waiting for the autosave that must not come.
    const clocked = await page.context().newPage();
    await clocked.clock.install();
    const posted: string[] = [];
    clocked.on("request", (r) => {
      if (r.url().includes("/admin/autosave")) posted.push(r.url());
    });
    await clocked.goto(`/admin/blog/edit/${live.$id}`);
    await ready(clocked);
    await field(clocked, "excerpt").fill("Half-typed, not for guests.");
    await clocked.clock.runFor(10_000);
    expect(posted).toEqual([]);
    expect(await autosaveStatus(clocked).textContent()).toBe("");
    expect(await stored("live-already")).toMatchObject({ excerpt: "As guests read it.", status: "published" });
    await clocked.close();
  });
});

/** Each kind's items (slugs) and versions by locale, as the team sees them. */
async function totals() {
  const result: Record<string, { items: number; en: number; ar: number }> = {};
  for (const kind of CONTENT_KIND_NAMES) {
    const rows = await stack.backend.services.databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL[kind].collectionId,
      queries: [Query.limit(1000)],
    });
    const docs = rows.documents;
    result[CONTENT_MODEL[kind].adminPath] = {
      items: new Set(docs.map((d) => d.slug)).size,
      en: docs.filter((d) => (d.locale ?? "en") === "en").length,
      ar: docs.filter((d) => d.locale === "ar").length,
    };
  }
  return result;
}

const DASHBOARD = {
  en: {
    versions: (en: number, ar: number) => `${en} in English and ${ar} in Arabic`,
    drafts: "Recent drafts",
    upcoming: "Scheduled next",
    newPost: "New Post",
    newVenture: "New Venture",
  },
  ar: {
    versions: (en: number, ar: number) => `${en} بالإنجليزية و${ar} بالعربية`,
    drafts: "أحدث المسودات",
    upcoming: "المجدول للنشر قريبًا",
    newPost: "مقال جديد",
    newVenture: "مشروع جديد",
  },
} as const;

describe("the dashboard", () => {
  it("counts items with their versions, lists drafts and scheduled items, offers New per kind", async () => {
    // A scheduled post (published at a time to come, issue #29 item 2: its date alone does not schedule it),
    // and an Arabic version of a draft (its title shows in the Arabic admin).
    const session = await signIn(stack.backend.services, ada.email, ada.password);
    const { emulator } = stack.backend;
    const later = await createItem(
      emulator,
      createSessionServices(emulator, session.secret),
      session.user,
      "post",
      {
        title: "Coming Later",
        slug: "coming-later",
        excerpt: "Not yet.",
        authorName: "Ada",
        publishedDate: "2099-05-01",
        content: "<p>Later.</p>",
      } as never,
      null,
      { intent: "publish", publishAt: "2099-05-01T09:00:00.000Z" },
    );
    expect(later.status).toBe("scheduled");
    const draft = (await stored("born-by-autosave"))!;
    await stack.backend.services.databases.createDocument({
      databaseId: DATABASE_ID,
      collectionId: POSTS,
      documentId: "unique()",
      data: { ...pick(draft), title: "وُلد بالحفظ التلقائي", locale: "ar" },
      permissions: draft.$permissions,
    });
    const expected = await totals();

    // In the English admin on a desktop, and in the Arabic admin on a phone (its sign-in lands on the dashboard).
    for (const lang of ["en", "ar"] as const) {
      const texts = DASHBOARD[lang];
      const p = lang === "en" ? page : await arabicPhoneAdmin();
      if (lang === "en") {
        await p.goto("/admin");
        await ready(p);
      }
      for (const kind of ["blog", "ventures"]) {
        expect(await p.getByTestId(`/admin/${kind}`).textContent()).toBe(String(expected[kind]!.items));
        expect(await p.getByTestId(`/admin/${kind}-versions`).textContent()).toBe(
          texts.versions(expected[kind]!.en, expected[kind]!.ar),
        );
      }
      const drafts = p.getByRole("region", { name: texts.drafts });
      const draftTitle = lang === "ar" ? "وُلد بالحفظ التلقائي" : "Born By Autosave";
      await expect.poll(() => drafts.getByRole("link", { name: draftTitle }).count()).toBe(1);
      expect(await drafts.getByRole("link", { name: draftTitle }).getAttribute("href")).toBe(
        `/admin/blog/edit/${draft.$id}`,
      );
      const upcoming = p.getByRole("region", { name: texts.upcoming });
      expect(await upcoming.getByRole("link", { name: "Coming Later" }).count()).toBe(1);
      expect(await upcoming.textContent()).toMatch(/2099/);
      expect(await p.getByRole("link", { name: texts.newPost }).getAttribute("href")).toBe("/admin/blog/new");
      expect(await p.getByRole("link", { name: texts.newVenture }).getAttribute("href")).toBe("/admin/ventures/new");
      // Nothing scrolls sideways on a phone.
      expect(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
  });
});

/** The stored fields of a post row that another version of it shares (its `$` attributes left out). */
function pick(doc: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(doc).filter(([k]) => !k.startsWith("$")));
}

/** A page of Ada's in the Arabic admin (the `locale` cookie, as the language switch sets it), on a phone, on /admin. */
async function arabicPhoneAdmin(): Promise<Page> {
  const p = await stack.page({ viewport: PHONE });
  await signInAs(stack, p, ada, { locale: "ar" });
  return p;
}
