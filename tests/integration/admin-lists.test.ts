/**
 * Issue #17 item 6 over real HTTP: the admin's blog list with 500 posts (seeded with the API key) searches,
 * sorts both ways by date and by title, pages by 50 with "Showing 51–100 of 500" (and its Arabic), keeps one
 * row per item across pages (an item's Arabic version never makes a second row), keeps the search, sort and
 * filters in every link, and links each item to its page on the site.
 */
import { ID, Permission, Role } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSite, type RunningSite } from "../../server/serve-site.ts";
import { ROOT, startBackend, type Backend } from "../helpers/stack.ts";
import { htmlDocument, markupOf, Visitor } from "../helpers/site.ts";
import { formatNumber } from "../../web/i18n/i18n.ts";
import { ALMANAC, isDraft, MANY, seedManyPosts, titleOf } from "../helpers/many-posts.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL, placeholderDocument } from "../../model/model.ts";
import { STATUS_COLUMN } from "../../model/lifecycle.ts";
import { withStudioTeam } from "../../lib/publish/item-permissions.ts";
import { translationHash } from "../../lib/translate/hash.ts";

let backend: Backend;
let site: RunningSite;
let ada: Visitor;

beforeAll(async () => {
  backend = await startBackend();
  await seedManyPosts(backend.services);
  process.env.APPWRITE_ENDPOINT = backend.emulator.endpoint;
  process.env.APPWRITE_PROJECT_ID = backend.emulator.projectId;
  process.env.APPWRITE_API_KEY = backend.emulator.apiKey;
  site = await startSite({ root: ROOT, port: 0 });
  await backend.services.users.create({
    userId: ID.unique(),
    email: "ada@example.com",
    password: "correct horse battery",
    name: "Ada",
  });
  ada = new Visitor(site.url);
  expect((await ada.login("ada@example.com")).status).toBe(302);
}, 120_000);
afterAll(async () => {
  await site?.close();
  await backend?.close();
});

/** The list page at `query`, as shown: its HTML without scripts. */
async function list(query = "", headers: Record<string, string> = {}): Promise<string> {
  const reply = await ada.request(`/admin/blog${query}`, { headers });
  expect(reply.status).toBe(200);
  return markupOf(reply.text).replaceAll("&amp;", "&");
}

/** The post numbers of a page's rows, in order (from their "View on site" links). */
function numbers(html: string): number[] {
  return [...html.matchAll(/href="\/(?:en|ar)\/blog\/ledger-(\d{3})"/g)].map((m) => Number(m[1]));
}

const range = (from: number, to: number, step = -1) =>
  Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => from + i * step);

describe("the admin's blog list with 500 posts", () => {
  it("shows 50 a page, newest first, with the count and links to the other pages", async () => {
    const first = await list();
    expect(first).toContain("Showing 1–50 of 500");
    expect(numbers(first)).toEqual(range(499, 450));
    expect(first).toContain('href="/admin/blog?page=2"');
    expect(first).toContain('href="/admin/blog?page=10"');

    const second = await list("?page=2");
    expect(second).toContain("Showing 51–100 of 500");
    expect(numbers(second)).toEqual(range(449, 400));
    expect(second).toMatch(/<a(?=[^>]*aria-current="page")(?=[^>]*href="\/admin\/blog\?page=2")[^>]*>/);

    const last = await list("?page=10");
    expect(last).toContain("Showing 451–500 of 500");
    expect(numbers(last)).toEqual(range(49, 0));
    // Past the end: the last page.
    expect(numbers(await list("?page=99"))).toEqual(range(49, 0));
  });

  it("keeps one row per item on every page: Arabic versions add no rows, an Arabic-only item has one", async () => {
    const seen: number[] = [];
    for (let page = 1; page <= 10; page += 1) seen.push(...numbers(await list(`?page=${page}&sort=date-asc`)));
    expect(seen).toEqual(range(0, MANY - 1, 1));
    const first = await list("?sort=date-asc");
    // Post 0 has both versions: one row, shown from English, both languages up to date.
    expect(first).toContain('href="/en/blog/ledger-000"');
    const newest = await list();
    expect(newest).toContain('href="/ar/blog/ledger-499"');
    expect(newest).toContain(titleOf(499));
  });

  it("searches titles in either language", async () => {
    const found = await list("?q=almanac");
    expect(found).toContain("Showing 1–1 of 1");
    expect(numbers(found)).toEqual([ALMANAC]);
    expect(found).toContain(titleOf(ALMANAC));
    // The search stays in the box and in the filters' links.
    expect(found).toMatch(/name="q"[^>]*value="almanac"/);
    expect(found).toContain('href="/admin/blog?q=almanac&state=draft"');

    const arabic = await list(`?q=${encodeURIComponent("دفتر 250")}`);
    expect(numbers(arabic)).toEqual([250]);
    expect(arabic).toContain("Ledger 250");
    expect(await list("?q=no-such-title")).toContain("Nothing matches this search or filter.");
  });

  it("sorts by title and by date, both ways", async () => {
    expect(numbers(await list("?sort=name-asc")).slice(0, 3)).toEqual([0, 1, 2]);
    expect(numbers(await list("?sort=name-desc")).slice(0, 3)).toEqual([499, ALMANAC, 498]);
    expect(numbers(await list("?sort=date-asc&page=2"))).toEqual(range(50, 99, 1));
    const page = await list("?sort=name-asc&page=3");
    expect(page).toContain('href="/admin/blog?sort=name-asc&page=4"');
    expect(page).toContain('href="/admin/blog?sort=name-asc&page=2"');
  });

  it("filters by state across pages, keeping the filter in the page links", async () => {
    const drafts = await list("?state=draft&page=2");
    expect(drafts).toContain("Showing 51–100 of 100");
    const shown = numbers(drafts);
    expect(shown).toHaveLength(50);
    expect(shown.every(isDraft)).toBe(true);
    expect(drafts).toContain('href="/admin/blog?state=draft"');
    expect(await list("?state=draft&q=ledger%20006")).toContain("Showing 1–1 of 1");
    // Without JavaScript the search form is a plain GET of the list, its search and sort keeping the filter.
    const search = /<form[^>]*role="search"[\s\S]*?<\/form>/.exec(drafts)?.[0] ?? "";
    const opening = /^<form[^>]*>/.exec(search)?.[0] ?? "";
    expect(opening).toContain(' method="get"');
    expect(opening).toContain(' action="/admin/blog"');
    expect(search).toMatch(/<input type="hidden" name="state" value="draft"\/>/);
    expect(search).toMatch(/<input[^>]* name="q"/);
    expect(search).toMatch(/<select[^>]* name="sort"/);
    expect(numbers(await list("?state=draft&q=Ledger+00&sort=date-asc"))).toEqual([1, 6]);
    // Every item but the 20 with both versions misses one language.
    const missing = await list("?translation=missing&page=2&sort=date-asc");
    expect(missing).toContain("Showing 51–100 of 480");
    expect(missing).toContain('href="/admin/blog?translation=missing&sort=date-asc&page=3"');
  });

  it("links each item to its page, and a signed-in user opens a draft's preview there", async () => {
    const html = await list("?q=ledger%20006");
    expect(html).toContain('href="/en/blog/ledger-006"');
    expect(isDraft(6)).toBe(true);
    expect((await ada.request("/en/blog/ledger-006")).status).toBe(200);
    expect((await new Visitor(site.url).request("/en/blog/ledger-006")).status).toBe(404);
  });

  it("says it in Arabic", async () => {
    const html = await list("?page=2", { "Accept-Language": "ar" });
    // The admin's numbers as the site writes Arabic ones (`formatNumber`: Intl's "ar").
    const n = (value: number) => formatNumber(value, "ar");
    expect(html).toContain(`عرض ${n(51)}–${n(100)} من ${n(500)}`);
    expect(html).toContain("عرض في الموقع");
    expect(html).toContain(`aria-label="الصفحة ${n(3)}"`);
    expect(html).toContain("السابق");
    expect(html).toContain("التالي");
  });
});

/**
 * Issue #15 item 6 over HTTP (moved from tests/e2e/admin-langs.test.ts, which keeps the tabs, the keyboard and
 * the saves that record the states): each row of a list shows each language's translation state, and
 * `?translation=` keeps the items in that state. Four ventures are written with the API key, one per state of
 * their Arabic version, as the admin's saves store them (`sourceLocale`, `reviewed`, `sourceHash` of the
 * English version's translated fields).
 */
describe("the translation states in the admin's lists", () => {
  const ARABIC = ["up-to-date", "unreviewed", "stale", "missing"] as const;
  const slugOf = (state: string) => `translation-${state}`;

  beforeAll(async () => {
    const table = { databaseId: DATABASE_ID, tableId: CONTENT_MODEL.venture.collectionId };
    const permissions = withStudioTeam([Permission.read(Role.any())]);
    for (const state of ARABIC) {
      const en = placeholderDocument("venture", {
        name: `Translation ${state}`,
        slug: slugOf(state),
        shortDescription: `Its Arabic version is ${state}.`,
        caseStudy: "<p>In English.</p>",
        locale: "en",
        [STATUS_COLUMN]: "published",
      });
      await backend.services.tablesDB.createRow({ ...table, rowId: ID.unique(), data: en, permissions });
      if (state === "missing") continue;
      const ar = {
        ...en,
        name: `ترجمة ${state}`,
        shortDescription: "بالعربية.",
        caseStudy: "<p>بالعربية.</p>",
        locale: "ar",
        sourceLocale: "en",
        reviewed: state !== "unreviewed",
        // A stale version records the hash of what the English version said before its last edit.
        sourceHash:
          state === "stale"
            ? translationHash("venture", { ...en, shortDescription: "Before." })
            : translationHash("venture", en),
      };
      await backend.services.tablesDB.createRow({ ...table, rowId: ID.unique(), data: ar, permissions });
    }
  });

  /** The translation badges (English, Arabic) of each of the four ventures listed at `query`, by slug. */
  async function states(query = "", headers: Record<string, string> = {}) {
    const reply = await ada.request(`/admin/ventures${query}`, { headers });
    expect(reply.status).toBe(200);
    const document = htmlDocument(reply.text);
    const shown: Record<string, string[]> = {};
    for (const row of document.querySelectorAll("tbody tr")) {
      const slug = ARABIC.map(slugOf).find((s) => row.querySelector(`a[href$="/ventures/${s}"]`));
      if (slug)
        shown[slug] = [...row.querySelectorAll("[data-translation]")].map((b) => b.getAttribute("data-translation")!);
    }
    return { shown, document };
  }

  it("shows each language's state in the item's one row", async () => {
    const { shown, document } = await states();
    expect(shown).toEqual(Object.fromEntries(ARABIC.map((state) => [slugOf(state), ["up-to-date", state]])));
    const row = [...document.querySelectorAll("tbody tr")].find((r) => r.textContent!.includes("Translation missing"));
    expect(row?.querySelector('[data-translation="missing"]')?.textContent).toBe("Missing");
  });

  it("keeps only the items in the state ?translation= names, from the filter's links", async () => {
    const { document } = await states();
    const filter = document.querySelector('nav[aria-label="Filter by translation"]')!;
    for (const state of ARABIC) {
      const link = [...filter.querySelectorAll("a")].find(
        (a) => a.getAttribute("href") === `/admin/ventures?translation=${state}`,
      );
      expect(link, state).toBeDefined();
      const { shown } = await states(`?translation=${state}`);
      // An item is in a state when one of its languages is: every item's English version is up to date.
      expect(Object.keys(shown).sort(), state).toEqual(
        state === "up-to-date" ? ARABIC.map(slugOf).sort() : [slugOf(state)],
      );
    }
  });

  it("says the states and the filter in the Arabic admin", async () => {
    const { document } = await states("?translation=missing", { "Accept-Language": "ar" });
    const filter = document.querySelector('nav[aria-label="التصفية حسب الترجمة"]')!;
    const current = filter.querySelector('a[aria-current="page"]');
    expect(current?.textContent).toBe("غير موجودة");
    const row = [...document.querySelectorAll("tbody tr")].find((r) =>
      r.querySelector(`a[href$="/ventures/${slugOf("missing")}"]`),
    );
    expect(row?.querySelector('[data-translation="missing"]')?.textContent).toBe("غير موجودة");
  });
});
