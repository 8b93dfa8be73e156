/**
 * The media library in a browser (issue #30 item 3), as the studio team's owner: upload with default alt texts,
 * search, the picker (a modal dialog: Escape closes it, alt text required, "Suggest alt text" from a fake
 * Gemini that is sent the image), in the English admin on a desktop and the Arabic admin on a 390 px phone; the
 * picker's HTML put into a post's body, and the public page showing that image with its alt, `srcset` and a box
 * that does not change size when the image arrives. The visual editor (built alongside) calls the same picker.
 */
import path from "node:path";
import { Query, Teams } from "node-appwrite";
import type { BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { STUDIO_TEAM_ID } from "../../model/team.ts";
import { startFakeGemini, type FakeGemini } from "../helpers/fake-gemini.ts";
import { createUser, htmlSource, newUser, ready, signInAs, type Credentials } from "./admin-helpers.ts";
import { DESKTOP, PHONE, ROOT, startStack, type Stack } from "./helpers.ts";

let stack: Stack;
let gemini: FakeGemini;
let owner: Credentials;
const PHOTO = path.join(ROOT, "content", "images", "join-learn-build-earn.jpg");

beforeAll(async () => {
  stack = await startStack();
  gemini = await startFakeGemini();
  process.env.GEMINI_API_KEY = "test-key";
  process.env.GEMINI_BASE_URL = gemini.baseUrl;
  owner = await createUser(stack, newUser("Owner"));
  const { users, client } = stack.backend.services;
  const ownerId = (await users.list({ search: owner.email })).users.find((u) => u.email === owner.email)!.$id;
  const teams = new Teams(client);
  await teams.create({ teamId: STUDIO_TEAM_ID, name: "Studio" }).catch((e: { code?: number }) => {
    if (e.code !== 409) throw e;
  });
  await teams.createMembership({ teamId: STUDIO_TEAM_ID, roles: ["owner"], userId: ownerId });
}, 180_000);
afterAll(async () => {
  delete process.env.GEMINI_API_KEY;
  delete process.env.GEMINI_BASE_URL;
  await gemini?.close();
  await stack?.close();
});

/**
 * The owner's session is made once (over HTTP, `signInAs`); every later page starts from its cookies, in the
 * admin language `locale` (its cookie, as the login page of that language sets it).
 */
let session: BrowserContextOptions["storageState"];
/** A page of the owner's on the media library in `locale`. */
async function signedIn(locale: "en" | "ar", viewport = DESKTOP): Promise<Page> {
  const page = await stack.page({ viewport, storageState: session });
  if (!session) {
    await signInAs(stack, page, owner, { locale, to: `/admin/media?lang=${locale}` });
    session = await page.context().storageState();
    return page;
  }
  await page.context().addCookies([{ name: "locale", value: locale, url: stack.site.url }]);
  await page.goto(`/admin/media?lang=${locale}`);
  await ready(page);
  return page;
}

/** Elements sticking out of the window sideways (either side: the Arabic admin overflows to the left). */
const overflowing = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((el) => {
        const { left, right, width } = el.getBoundingClientRect();
        return width > 0 && (left < -1 || right > window.innerWidth + 1) && !el.closest("dialog:not([open])");
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 80)),
  );
let html = "";

describe("the media library and its picker", () => {
  it("uploads, searches and inserts with required, suggested alt text in the English admin", async () => {
    const page = await signedIn("en");
    expect(await page.getByRole("link", { name: "Media" }).count()).toBe(1);
    const form = page.getByRole("form", { name: "Upload an image" });
    await form.locator("input[type=file]").setInputFiles(PHOTO);
    await form.getByLabel("Alt text (English)").fill("Sticky notes on a studio wall");
    await form.getByLabel("Alt text (Arabic)").fill("ملاحظات لاصقة على جدار الاستوديو");
    await form.getByRole("button", { name: "Upload", exact: true }).click();
    await page.getByText("Image uploaded.").waitFor();
    const card = page.locator("li[data-media]").filter({ hasText: "join-learn-build-earn.jpg" });
    await card.waitFor();
    await expect.poll(() => card.innerText()).toContain("1600 × 900");
    expect(await card.innerText()).toMatch(/\d+ kB/);

    // Search by alt text, then a miss.
    await page.getByRole("searchbox", { name: "Search images" }).fill("sticky");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.waitForURL(/q=sticky/);
    await expect.poll(() => page.locator("li[data-media]").count()).toBe(1);
    await page.getByRole("searchbox", { name: "Search images" }).fill("no such thing");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByText("No image matches this search.").waitFor();

    // The picker: a modal dialog; Escape closes it.
    await page.getByRole("button", { name: "Insert an image (English)" }).click();
    const dialog = page.getByRole("dialog", { name: "Insert an image" });
    await dialog.waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Insert an image (English)" }).click();
    await dialog.getByRole("button", { name: /join-learn-build-earn\.jpg/ }).click();
    const alt = dialog.getByRole("textbox", { name: "Alt text" });
    expect(await alt.inputValue()).toBe("Sticky notes on a studio wall"); // the default, in the version's language
    // Focus stays in the dialog: the page behind it is inert.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest("dialog")))).toBe(true);

    await alt.fill("");
    await dialog.getByRole("button", { name: "Insert", exact: true }).click();
    await dialog.getByRole("alert").filter({ hasText: "Enter alt text before inserting" }).waitFor();
    expect(await dialog.isVisible()).toBe(true);

    gemini.script({ text: "A wall covered in colourful sticky notes" });
    await dialog.getByRole("button", { name: "Suggest alt text" }).click();
    await expect.poll(() => alt.inputValue()).toBe("A wall covered in colourful sticky notes");
    const sent = gemini.requests.at(-1)!.body.contents[0].parts as {
      inlineData?: { mimeType: string };
      text?: string;
    }[];
    expect(sent[0]!.inlineData!.mimeType).toBe("image/jpeg"); // the image itself is sent
    expect(sent[1]!.text).toContain("in English");
    await dialog.getByRole("button", { name: "Insert", exact: true }).click();
    await dialog.waitFor({ state: "hidden" });
    html = await page.getByLabel("HTML of the inserted image").inputValue();
    expect(html).toMatch(
      /^<img src="\/media\/[A-Za-z0-9]+" alt="A wall covered in colourful sticky notes" width="1600" height="900">$/,
    );
  });

  it("works in the Arabic admin on a 390 px phone", async () => {
    const page = await signedIn("ar", PHONE);
    expect(await page.getByRole("heading", { name: "مكتبة الوسائط" }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    expect(await overflowing(page)).toEqual([]);
    await page.getByRole("button", { name: "إدراج صورة (العربية)" }).click();
    const dialog = page.getByRole("dialog", { name: "إدراج صورة" });
    await dialog.waitFor();
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await dialog.getByRole("searchbox", { name: "البحث في الصور" }).fill("جدار");
    await dialog.getByRole("button", { name: "بحث", exact: true }).click();
    await expect.poll(() => dialog.locator("li").count()).toBe(1);
    await dialog.locator("li button").first().click();
    const alt = dialog.getByRole("textbox", { name: "النص البديل" });
    expect(await alt.inputValue()).toBe("ملاحظات لاصقة على جدار الاستوديو");
    expect(await alt.getAttribute("dir")).toBe("rtl");
    await alt.fill("  ");
    await dialog.getByRole("button", { name: "إدراج", exact: true }).click();
    await dialog.getByRole("alert").filter({ hasText: "أدخل النص البديل قبل الإدراج" }).waitFor();
    gemini.script({ text: "جدار مغطى بملاحظات لاصقة ملونة" });
    await dialog.getByRole("button", { name: "اقتراح نص بديل" }).click();
    await expect.poll(() => alt.inputValue()).toBe("جدار مغطى بملاحظات لاصقة ملونة");
    expect(gemini.requests.at(-1)!.body.contents[0].parts[1].text).toContain("Arabic");
    expect(await overflowing(page)).toEqual([]);
    await dialog.getByRole("button", { name: "إدراج", exact: true }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await page.getByLabel("HTML الصورة المُدرجة").inputValue()).toContain('alt="جدار مغطى بملاحظات لاصقة ملونة"');
  });

  it("puts the inserted image in a post; the public page shows it responsive with no layout shift", async () => {
    expect(html).not.toBe("");
    const { rows } = await stack.backend.services.tablesDB.listRows({
      databaseId: DATABASE_ID,
      tableId: CONTENT_MODEL.post.collectionId,
      queries: [Query.equal("slug", "join-learn-build-earn"), Query.equal("locale", "en")],
    });
    const post = rows[0]!;
    const page = await signedIn("en");
    await page.goto(`/admin/blog/edit/${post.$id}`);
    await ready(page);
    // The body opens in the visual editor; its HTML tab holds the source (issue #30).
    const body = await htmlSource(page, "content");
    await body.fill(`${await body.inputValue()}\n<p>Our wall:</p>\n${html}`);
    // A published post is updated in place: the page stays on the editor with the flash (issue #29).
    await page.getByRole("button", { name: "Update", exact: true }).click();
    await expect
      .poll(async () => (await page.locator("main [data-flash]").first().textContent())?.replace(/[\u2068\u2069]/g, ""))
      .toBe("Saved “Join, Learn, Build, Earn: A Practical Path to Owning a Service Business”.");

    // The image's bytes are held back until the box has been measured.
    const visitor = await stack.page({ viewport: PHONE });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await visitor.route(/\/media\//, async (route) => {
      await held;
      await route.continue();
    });
    await visitor.goto("/en/blog/join-learn-build-earn", { waitUntil: "domcontentloaded" });
    const img = visitor.locator(".prose-body img[alt='A wall covered in colourful sticky notes']");
    await img.waitFor({ state: "attached" });
    expect(await img.getAttribute("srcset")).toMatch(/\/media\/\w+\?w=320 320w/);
    expect(await img.getAttribute("width")).toBe("1600");
    expect(await img.getAttribute("height")).toBe("900");
    const before = await img.evaluate((el: HTMLImageElement) => {
      const { width, height } = el.getBoundingClientRect();
      return { width, height, loaded: el.complete && el.naturalWidth > 0 };
    });
    expect(before.loaded).toBe(false);
    expect(before.height).toBeGreaterThan(0);
    release();
    await img.scrollIntoViewIfNeeded();
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), { timeout: 15_000 })
      .toBe(true);
    const after = await img.evaluate((el: HTMLImageElement) => {
      const { width, height } = el.getBoundingClientRect();
      return { width, height };
    });
    expect(after).toEqual({ width: before.width, height: before.height });
  });

  it("inserts from the library through the body editor's Image button, with its alt text and size", async () => {
    const { rows } = await stack.backend.services.tablesDB.listRows({
      databaseId: DATABASE_ID,
      tableId: CONTENT_MODEL.post.collectionId,
      queries: [Query.equal("slug", "join-learn-build-earn"), Query.equal("locale", "en")],
    });
    const page = await signedIn("en");
    await page.goto(`/admin/blog/edit/${rows[0]!.$id}`);
    await ready(page);
    const toolbar = page.getByRole("toolbar", { name: "Formatting" });
    await toolbar.waitFor();
    await page.locator(".ProseMirror").first().click();
    await page.keyboard.press("Control+End");
    await toolbar.getByRole("button", { name: "Image" }).click();
    const dialog = page.getByRole("dialog", { name: "Insert an image" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: /join-learn-build-earn\.jpg/ }).click();
    // The version's default alt text, required, as on the media page.
    expect(await dialog.getByRole("textbox", { name: "Alt text" }).inputValue()).toBe("Sticky notes on a studio wall");
    await dialog.getByRole("button", { name: "Insert", exact: true }).click();
    await dialog.waitFor({ state: "hidden" });
    // In the body, where the cursor was: the image with its alt text and pixel size (no layout shift later).
    const source = await htmlSource(page, "content");
    expect(await source.inputValue()).toMatch(
      /<img src="\/media\/[A-Za-z0-9]+" alt="Sticky notes on a studio wall" width="1600" height="900">/,
    );
    // The picker's own forms did not submit the item's form.
    expect(await page.locator("main [data-flash]").count()).toBe(0);
  });
});
