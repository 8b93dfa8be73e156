/**
 * Issue #17 items 5 and 6 in real Chromium. With 500 posts (seeded with the API key, the pushed ones removed)
 * the blog list searches, sorts, pages by 50 ("Showing 51–100 of 500") with everything in the URL (a reload
 * keeps it; without JavaScript the search form still works). On a phone (390 px) the lists are cards whose
 * actions the keyboard reaches, in English and right to left in Arabic, and no admin page scrolls sideways.
 */
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { seedManyPosts, titleOf } from "../helpers/many-posts.ts";
import { createUser, newUser, ready, signInAs, type Credentials } from "./admin-helpers.ts";
import { PHONE, SCREENSHOTS, startStack, type Stack } from "./helpers.ts";

let stack: Stack;
let user: Credentials;
beforeAll(async () => {
  stack = await startStack();
  // Only the 500: the posts pushed from content/ go.
  await stack.backend.services.tablesDB.deleteRows({
    databaseId: DATABASE_ID,
    tableId: CONTENT_MODEL.post.collectionId,
  });
  await seedManyPosts(stack.backend.services);
  user = await createUser(stack, newUser("Lina"));
}, 180_000);
afterAll(async () => {
  await stack?.close();
});

/** A signed-in page (English or Arabic admin: the login page's language) at `size`. */
async function admin(locale: "en" | "ar", size = { width: 1280, height: 800 }): Promise<Page> {
  const page = await stack.page({ viewport: size });
  await signInAs(stack, page, user, { locale });
  return page;
}

const count = (page: Page) => page.getByTestId("list-count").textContent();
/** The titles of the list's rows, in order. */
const titles = (page: Page) => page.locator("tbody tr td:first-child").allTextContents();
/** Numbers as the browser writes them in `locale` (the list's counts are `Intl.NumberFormat`'s). */
const numberIn = (page: Page, locale: string, n: number) =>
  page.evaluate(([l, v]) => new Intl.NumberFormat(l === "ar" ? "ar" : "en-US").format(v as number), [locale, n]);

describe("the blog list with 500 posts (desktop)", () => {
  it("searches, sorts and pages, all kept in the URL", async () => {
    const page = await admin("en");
    await page.goto("/admin/blog");
    await ready(page);
    expect(await count(page)).toBe("Showing 1–50 of 500");
    expect((await titles(page)).slice(0, 2)).toEqual([titleOf(499), "Ledger 498"]);

    await page.getByRole("link", { name: "Page 2", exact: true }).click();
    await page.waitForURL((u) => u.search === "?page=2");
    await expect.poll(() => count(page)).toBe("Showing 51–100 of 500");
    expect(await titles(page)).toHaveLength(50);
    expect((await titles(page))[0]).toBe("Ledger 449");
    await page.reload();
    await ready(page);
    expect(await count(page)).toBe("Showing 51–100 of 500");
    expect(await page.locator('nav a[aria-current="page"]').last().textContent()).toBe("2");

    // Choosing a sort submits at once, from page 1.
    await page.getByLabel("Sort").selectOption("name-desc");
    await page.waitForURL((u) => u.search === "?sort=name-desc");
    await expect.poll(async () => (await titles(page)).slice(0, 3)).toEqual([titleOf(499), titleOf(137), "Ledger 498"]);
    await page.getByLabel("Sort").selectOption("name-asc");
    await page.waitForURL((u) => u.search === "?sort=name-asc");
    await expect.poll(async () => (await titles(page)).slice(0, 2)).toEqual(["Ledger 000", "Ledger 001"]);

    await page.getByLabel("Search by Title").fill("almanac");
    await page.getByLabel("Search by Title").press("Enter");
    await page.waitForURL((u) => u.search === "?q=almanac&sort=name-asc");
    await expect.poll(() => titles(page)).toEqual([titleOf(137)]);
    expect(await count(page)).toBe("Showing 1–1 of 1");
    const view = page.getByRole("link", { name: "View on site" });
    expect(await view.getAttribute("href")).toBe("/en/blog/ledger-137");
    await view.click();
    await page.waitForURL((u) => u.pathname === "/en/blog/ledger-137");
    expect(await page.locator("h1").textContent()).toBe(titleOf(137));
  });

  it("works without JavaScript: the search form and the page links are plain GETs", async () => {
    const signedIn = await admin("en");
    const state = await signedIn.context().storageState();
    const context = await stack.browser.newContext({
      baseURL: stack.site.url,
      javaScriptEnabled: false,
      storageState: state,
    });
    try {
      const page = await context.newPage();
      await page.goto("/admin/blog?state=draft");
      await page.getByLabel("Search by Title").fill("Ledger 00");
      await page.getByLabel("Sort").selectOption("date-asc");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.waitForURL((u) => u.searchParams.get("q") === "Ledger 00");
      expect(new URL(page.url()).searchParams.get("state")).toBe("draft");
      // Drafts among Ledger 000–009: 001 and 006.
      expect(await titles(page)).toEqual(["Ledger 001", "Ledger 006"]);
    } finally {
      await context.close();
    }
  });
});

/** Whether the page scrolls sideways (its document wider than the window). */
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe("the admin on a phone (390 px)", () => {
  for (const locale of ["en", "ar"] as const) {
    it(`never scrolls sideways (${locale})`, async () => {
      const page = await admin(locale, PHONE);
      const edit = async (list: string) => {
        await page.goto(list);
        return page.locator("tbody tr a[href*='/edit/']").first().getAttribute("href");
      };
      const pages = [
        "/admin",
        "/admin/ventures",
        "/admin/blog",
        "/admin/blog?page=2",
        "/admin/ventures/new",
        (await edit("/admin/ventures"))!,
        "/admin/blog/new",
        (await edit("/admin/blog"))!,
        "/admin/account",
      ];
      const wide: string[] = [];
      for (const url of pages) {
        await page.goto(url);
        await ready(page);
        if (await overflows(page)) wide.push(url);
      }
      expect(wide).toEqual([]);
    });
  }

  it("shows the lists as cards whose actions the keyboard reaches (English)", async () => {
    const page = await admin("en", PHONE);
    await page.goto("/admin/blog?page=2");
    await ready(page);
    expect(await page.locator("thead").isVisible()).toBe(false);
    const card = page.locator("tbody tr").first();
    const box = (await card.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(PHONE.width);
    expect(await card.evaluate((el) => getComputedStyle(el).display)).toBe("flex");
    // The title on one line, not a word a line.
    const title = card.locator("td").first();
    expect((await title.boundingBox())!.height).toBeLessThan(40);
    // Tab reaches the card's Edit, View on site and Delete; Enter on Delete asks.
    await page.getByRole("link", { name: "Next" }).focus();
    const reached: string[] = [];
    for (let i = 0; i < 6 && reached.length < 3; i += 1) {
      await page.keyboard.press("Tab");
      const text = await page.evaluate(() => document.activeElement?.textContent ?? "");
      if (["Edit", "View on site", "Delete"].includes(text)) reached.push(text);
    }
    expect(reached).toEqual(["Edit", "View on site", "Delete"]);
    await page.keyboard.press("Enter");
    expect(await page.getByRole("dialog").isVisible()).toBe(true);
    await page.keyboard.press("Escape");
    await page.screenshot({ path: path.join(SCREENSHOTS, "admin-blog-phone-en.png"), fullPage: false });
    await page.goto("/admin/ventures");
    await ready(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, "admin-ventures-phone-en.png"), fullPage: false });
  });

  it("runs cards and pages right to left in Arabic, with Arabic counts", async () => {
    const page = await admin("ar", PHONE);
    await page.goto("/admin/blog?page=2");
    await ready(page);
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    const n = (v: number) => numberIn(page, "ar", v);
    expect(await count(page)).toBe(`عرض ${await n(51)}–${await n(100)} من ${await n(500)}`);
    // The pages run from the right: Previous, then 1, then 2 (the row wraps on a phone, so the first three).
    const nav = page.getByRole("navigation", { name: "الصفحات" });
    expect(await nav.evaluate((el) => getComputedStyle(el).direction)).toBe("rtl");
    const box = async (name: string) => (await page.getByRole("link", { name, exact: true }).boundingBox())!;
    const [previous, one, two] = [
      await box("السابق"),
      await box(`الصفحة ${await n(1)}`),
      await box(`الصفحة ${await n(2)}`),
    ];
    expect(previous.y).toBe(one.y);
    expect(previous.x).toBeGreaterThan(one.x);
    expect(one.x).toBeGreaterThan(two.x);
    // A card starts at the right: its title's right edge at the card's, less the padding.
    const card = page.locator("tbody tr").first();
    const cardBox = (await card.boundingBox())!;
    const titleBox = (await card.locator("td").first().boundingBox())!;
    expect(cardBox.x + cardBox.width - (titleBox.x + titleBox.width)).toBeLessThan(24);
    expect(await card.getByRole("link", { name: "عرض في الموقع" }).isVisible()).toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOTS, "admin-blog-phone-ar.png"), fullPage: false });
    await page.goto("/admin/ventures");
    await ready(page);
    await page.screenshot({ path: path.join(SCREENSHOTS, "admin-ventures-phone-ar.png"), fullPage: false });
  });
});
