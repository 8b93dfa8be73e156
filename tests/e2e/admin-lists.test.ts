/**
 * Issue #17 items 5 and 6 in real Chromium. With 500 posts (seeded with the API key, the pushed ones removed)
 * the blog list searches, sorts and pages by 50 ("Showing 51–100 of 500") with everything in the URL. On a phone
 * (390 px) the lists are cards whose actions the keyboard reaches, in English and right to left in Arabic, and
 * no admin page scrolls sideways. Server-side (tests/integration/admin-lists.test.ts): a list URL's page, sort
 * and filter as shown after a reload, the search form as a plain GET without JavaScript, the items' links.
 */
import path from "node:path";
import type { BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { seedManyPosts, titleOf } from "../helpers/many-posts.ts";
import { createUser, newUser, ready, signInAs, type Credentials } from "./admin-helpers.ts";
import { DESKTOP, PHONE, SCREENSHOTS, startStack, type Stack } from "./helpers.ts";

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

/** Each admin language's signed-in state (cookies), made once: every test here only reads. */
const signedIn = new Map<"en" | "ar", BrowserContextOptions["storageState"]>();

/** A page of the English or Arabic admin at `size`, on `to` (hydrated). */
async function admin(locale: "en" | "ar", size: { width: number; height: number }, to: string): Promise<Page> {
  const storageState = signedIn.get(locale);
  const page = await stack.page({ viewport: size, storageState });
  if (storageState) {
    await page.goto(to);
    await ready(page);
  } else {
    await signInAs(stack, page, user, { locale, to });
    signedIn.set(locale, await page.context().storageState());
  }
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
    const page = await admin("en", DESKTOP, "/admin/blog");
    expect(await count(page)).toBe("Showing 1–50 of 500");
    expect((await titles(page)).slice(0, 2)).toEqual([titleOf(499), "Ledger 498"]);

    await page.getByRole("link", { name: "Page 2", exact: true }).click();
    await page.waitForURL((u) => u.search === "?page=2");
    await expect.poll(() => count(page)).toBe("Showing 51–100 of 500");
    expect(await titles(page)).toHaveLength(50);
    expect((await titles(page))[0]).toBe("Ledger 449");
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
    expect(await page.getByRole("link", { name: "View on site" }).getAttribute("href")).toBe("/en/blog/ledger-137");
  });
});

/** Whether the page scrolls sideways (its document wider than the window). */
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/**
 * Goes through the admin's pages on `page` (on `/admin/blog?page=2` now) and returns those wider than the
 * window; the venture list's screenshot is taken on the way.
 */
async function sidewaysPages(page: Page, locale: "en" | "ar"): Promise<string[]> {
  const wide: string[] = (await overflows(page)) ? [new URL(page.url()).pathname + new URL(page.url()).search] : [];
  const check = async (url: string) => {
    await page.goto(url);
    await ready(page);
    if (await overflows(page)) wide.push(url);
  };
  for (const url of ["/admin", "/admin/ventures/new", "/admin/blog/new", "/admin/account"]) await check(url);
  for (const list of ["/admin/ventures", "/admin/blog"]) {
    await check(list);
    if (list === "/admin/ventures")
      await page.screenshot({ path: path.join(SCREENSHOTS, `admin-ventures-phone-${locale}.png`), fullPage: false });
    await check((await page.locator("tbody tr a[href*='/edit/']").first().getAttribute("href"))!);
  }
  return wide;
}

describe("the admin on a phone (390 px)", () => {
  it("shows the lists as cards whose actions the keyboard reaches, and no page scrolls sideways (English)", async () => {
    const page = await admin("en", PHONE, "/admin/blog?page=2");
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
    await page.getByRole("dialog").waitFor();
    await page.keyboard.press("Escape");
    await page.screenshot({ path: path.join(SCREENSHOTS, "admin-blog-phone-en.png"), fullPage: false });
    expect(await sidewaysPages(page, "en")).toEqual([]);
  });

  it("runs cards and pages right to left in Arabic, with Arabic counts, and no page scrolls sideways", async () => {
    const page = await admin("ar", PHONE, "/admin/blog?page=2");
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
    expect(await sidewaysPages(page, "ar")).toEqual([]);
  });
});
