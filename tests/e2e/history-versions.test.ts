/**
 * Issue #29 items 4 and 5 in real Chromium, in the English admin on a desktop and the Arabic admin on a 390 px
 * phone: History shows each language version's revisions, labelled by language, with a whole-word diff in
 * Arabic and dates as dates; Restore asks in a dialog naming the version and its time, and the flash at the top
 * confirms it. A conflict on a bilingual item shows their version beside yours on the same page without losing
 * yours; "Overwrite theirs" succeeds on the first try (the public pages then show your text) and "Keep theirs"
 * puts their version in the form.
 */
import type { Models } from "node-appwrite";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { createItem, updateItem } from "../../server/admin/content.ts";
import { createSessionServices } from "../../lib/appwrite/client.ts";
import { signIn } from "../../server/auth/account.ts";
import { momentText } from "../../web/i18n/history-dates.ts";
import { createUser, newUser, ready, seedAs, signInAs, type Credentials } from "./admin-helpers.ts";
import { PHONE, axeSerious, startStack, type Stack } from "./helpers.ts";

let stack: Stack;
let ada: Credentials;
let bob: Credentials;
/** Ada in the English admin on a desktop; Bob in the Arabic admin on a phone. Each signed in once. */
let adaPage: Page;
let bobPage: Page;

beforeAll(async () => {
  stack = await startStack();
  [ada, bob] = [await createUser(stack, newUser("Ada")), await createUser(stack, newUser("Bob"))];
  adaPage = await stack.page();
  await signInAs(stack, adaPage, ada);
  bobPage = await stack.page({ locale: "ar", viewport: PHONE });
  await signInAs(stack, bobPage, bob, { locale: "ar" });
});
afterAll(async () => {
  await stack?.close();
});

const table = { databaseId: DATABASE_ID, collectionId: CONTENT_MODEL.post.collectionId };
const post = { excerpt: "Kept.", authorName: "Ada", publishedDate: "2026-03-01", content: "<h2>Hi</h2><p>x</p>" };
const arPost = {
  excerpt: "مختصر.",
  authorName: "آدا",
  publishedDate: "2026-03-01",
  content: "<h2>مرحبًا</h2><p>نص.</p>",
};

/** The save button of a published item's form ("Update", issue #29 item 1), in either admin language. */
const saveButton = (page: Page) => page.getByRole("button", { name: /^(Update|تحديث)$/ });
/** A language version's field as the form names it (`title`, `ar.title`), on its tab. */
const field = (page: Page, name: string) => page.locator(`[name="${name}"]:not([type=hidden])`);

/** A session of `user`'s, for seeding with the admin's own library. */
async function sessionOf(user: Credentials) {
  const { emulator } = stack.backend;
  const session = await signIn(stack.backend.services, user.email, user.password);
  return { target: emulator, user: session.user, services: createSessionServices(emulator, session.secret) };
}

/**
 * A published post with an English and an Arabic version (reviewed), as Ada; with `shared`, every signed-in
 * user may change both (so Bob can edit it too).
 */
async function bilingual(slug: string, title: string, arTitle: string, shared = false) {
  const en = await seedAs(stack, ada, { kind: "post", input: { ...post, title, slug } });
  const { target, user, services } = await sessionOf(ada);
  const columns = { locale: "ar", sourceLocale: "en", reviewed: true, translationModel: "human" };
  const ar = await createItem(target, services, user, "post", { ...arPost, title: arTitle, slug } as never, null, {
    columns,
    permissions: en.$permissions,
  });
  if (shared) {
    const permissions = [...en.$permissions, 'update("users")'];
    for (const doc of [en, ar])
      await stack.backend.services.databases.updateDocument({ ...table, documentId: doc.$id, permissions });
  }
  return { en, ar };
}

async function stored(id: string): Promise<Models.Document & Record<string, unknown>> {
  return stack.backend.services.databases.getDocument({ ...table, documentId: id });
}

/** The text of a public page (no cache). */
async function publicText(path: string): Promise<string> {
  const response = await fetch(new URL(path, stack.site.url), { headers: { "Cache-Control": "no-cache" } });
  return response.ok ? await response.text() : `HTTP ${response.status}`;
}

describe("history per language version", () => {
  it("lists the Arabic version's revisions with a whole-word diff, and restore asks, then flashes at the top", async () => {
    const { en, ar } = await bilingual("history-versions", "A practical guide", "دليل عملي لبناء الشركات");
    // An edit of the Arabic version alone: its history has the version it replaced, the English one none.
    const { target, user, services } = await sessionOf(ada);
    await updateItem(
      target,
      services,
      user,
      "post",
      ar.$id,
      { ...arPost, title: "دليل تطبيقي لبناء الشركات", slug: "history-versions" } as never,
      null,
    );
    const page = adaPage;
    await page.goto(`/admin/blog/edit/${en.$id}`);
    await ready(page);
    const history = page.locator("[data-history]");
    const english = history.getByRole("region", { name: "English" });
    const arabic = history.getByRole("region", { name: "العربية" });
    await expect.poll(() => english.textContent()).toContain("No earlier versions yet.");
    const rows = arabic.locator("[data-revision]");
    await expect.poll(() => rows.count()).toBe(1);
    const row = rows.first();
    const savedAt = await row.locator("time").getAttribute("dateTime");
    // A date as a date, in the admin's language (never raw ISO).
    expect(await row.locator("time").textContent()).toBe(momentText(savedAt!, "en"));
    expect(await row.textContent()).not.toMatch(/\d{4}-\d\d-\d\dT/);
    expect(await row.textContent()).toContain("saved by Ada");

    // The Arabic words changed are marked whole, right-to-left.
    await row.getByRole("button", { name: "Show changes" }).click();
    // Only the fields that changed are shown: the title (excerpt and body are the same).
    expect(await row.locator("[data-field-diff]").count()).toBe(1);
    const title = row.locator('[data-field-diff="title"]');
    expect(await title.locator("del").allTextContents()).toEqual(["عملي"]);
    expect(await title.locator("ins").allTextContents()).toEqual(["تطبيقي"]);
    expect(await title.locator("p[dir]").getAttribute("dir")).toBe("rtl");

    // Restore asks first, naming the version and its time; Cancel leaves everything as it was.
    await row.getByRole("button", { name: "Restore this version" }).click();
    const dialog = page.getByRole("dialog", { name: "Restore this version?" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`The Arabic version saved on ${momentText(savedAt!, "en")} by Ada`);
    expect(await axeSerious(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect((await stored(ar.$id)).title).toBe("دليل تطبيقي لبناء الشركات");

    await row.getByRole("button", { name: "Restore this version" }).click();
    await dialog.getByRole("button", { name: "Restore", exact: true }).click();
    const flash = page.locator('[data-flash="success"]');
    await flash.waitFor();
    await ready(page);
    expect(await flash.textContent()).toContain(
      `Restored the Arabic version of “\u2068دليل عملي لبناء الشركات\u2069” saved on ${momentText(savedAt!, "en")}.`,
    );
    // At the top, where a save's confirmation is: in view when the page loads, above the form.
    const box = (await flash.boundingBox())!;
    expect(box.y + box.height).toBeLessThan(page.viewportSize()!.height);
    expect(box.y).toBeLessThan((await page.locator("form").first().boundingBox())!.y);
    expect((await stored(ar.$id)).title).toBe("دليل عملي لبناء الشركات");
    await page.getByRole("tab", { name: "العربية" }).click();
    expect(await field(page, "ar.title").inputValue()).toBe("دليل عملي لبناء الشركات");
    // The restore is itself kept: the Arabic version now has two earlier versions.
    await expect.poll(() => rows.count()).toBe(2);
  });
});

describe("a conflict on a bilingual item", () => {
  it("shows theirs beside yours (stacked on a phone, in Arabic), and Overwrite theirs wins the first time", async () => {
    const { en, ar } = await bilingual("conflict-versions", "Shared guide", "دليل مشترك", true);
    for (const page of [adaPage, bobPage]) {
      await page.goto(`/admin/blog/edit/${en.$id}`);
      await ready(page);
    }
    // A new item's history, in the Arabic admin: nothing earlier yet.
    await expect.poll(() => bobPage.locator("[data-history]").textContent()).toContain("لا توجد نسخ سابقة بعد.");
    // Ada changes both versions and saves.
    await field(adaPage, "title").fill("Ada's shared guide");
    await adaPage.getByRole("tab", { name: "العربية" }).click();
    await field(adaPage, "ar.title").fill("دليل آدا المشترك");
    await saveButton(adaPage).click();
    await adaPage.locator('[data-flash="success"]').waitFor();
    const adaSaved = await stored(en.$id);

    // Bob, who opened it before, changes both too: refused, his input kept, in Arabic, the time as a date.
    await field(bobPage, "title").fill("Bob's shared guide");
    await bobPage.getByRole("tab", { name: "العربية" }).click();
    await field(bobPage, "ar.title").fill("دليل بوب المشترك");
    await saveButton(bobPage).click();
    const alert = bobPage.getByRole("alert").filter({ hasText: "منذ فتحته" });
    await alert.waitFor();
    const text = (await alert.textContent())!;
    expect(text).toContain("عدّله Ada في");
    expect(text).not.toMatch(/\d{4}-\d\d-\d\dT/);
    expect(text).toMatch(/ نوفمبر | ديسمبر | UTC/);
    expect(await field(bobPage, "ar.title").inputValue()).toBe("دليل بوب المشترك");

    // Their version beside his, per field that differs, on the same page: words only theirs has struck,
    // words only his underlined, whole Arabic words; stacked at 390 px.
    await bobPage.locator("summary", { hasText: "عرض نسختهم" }).click();
    const arTitle = bobPage.locator('[data-conflict-field="ar.title"]');
    await arTitle.waitFor();
    expect(await arTitle.locator('[data-side="theirs"] del').allTextContents()).toEqual(["آدا"]);
    expect(await arTitle.locator('[data-side="yours"] ins').allTextContents()).toEqual(["بوب"]);
    const enTitle = bobPage.locator('[data-conflict-field="title"]');
    expect(await enTitle.locator('[data-side="theirs"]').textContent()).toContain("Ada's shared guide");
    const theirs = (await arTitle.locator('[data-side="theirs"]').boundingBox())!;
    const yours = (await arTitle.locator('[data-side="yours"]').boundingBox())!;
    expect(yours.y).toBeGreaterThanOrEqual(theirs.y + theirs.height);
    expect(await bobPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await axeSerious(bobPage)).toEqual([]);
    // Nothing of his was lost by looking.
    expect(await field(bobPage, "ar.title").inputValue()).toBe("دليل بوب المشترك");

    // Overwrite theirs: saved on the first try, both versions his; the public pages show his text.
    await bobPage.getByRole("button", { name: "استبدال نسختهم" }).click();
    await bobPage.locator('[data-flash="success"]').waitFor();
    expect((await stored(en.$id)).title).toBe("Bob's shared guide");
    expect((await stored(ar.$id)).title).toBe("دليل بوب المشترك");
    expect((await stored(en.$id)).$updatedAt).not.toBe(adaSaved.$updatedAt);
    await expect.poll(() => publicText("/ar/blog/conflict-versions")).toContain("دليل بوب المشترك");
    await expect.poll(() => publicText("/en/blog/conflict-versions")).toContain("Bob&#x27;s shared guide");

    // His history, in the Arabic admin on the phone: the Arabic version's revisions, whole words, dates as
    // dates; Restore asks in a dialog that fits the screen, and Escape leaves everything as it was.
    await bobPage.goto(`/admin/blog/edit/${en.$id}`);
    await ready(bobPage);
    const history = bobPage.locator("[data-history]");
    await history.getByRole("heading", { name: "السجل" }).waitFor();
    const rows = history.getByRole("region", { name: "العربية" }).locator("[data-revision]");
    await expect.poll(() => rows.count()).toBe(2);
    const newest = rows.first();
    expect(await newest.locator("time").textContent()).toBe(
      momentText((await newest.locator("time").getAttribute("dateTime"))!, "ar"),
    );
    await newest.getByRole("button", { name: "عرض التغييرات" }).click();
    const diff = newest.locator('[data-field-diff="title"]');
    expect(await diff.locator("del").allTextContents()).toEqual(["آدا"]);
    expect(await diff.locator("ins").allTextContents()).toEqual(["بوب"]);
    await newest.getByRole("button", { name: "استعادة هذه النسخة" }).click();
    const dialog = bobPage.getByRole("dialog", { name: "استعادة هذه النسخة؟" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("النسخة العربية التي حفظها Ada في");
    expect((await dialog.boundingBox())!.width).toBeLessThanOrEqual(PHONE.width);
    await bobPage.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect((await stored(ar.$id)).title).toBe("دليل بوب المشترك");
  });

  it("Keep theirs puts their version in the form and discards yours, in the English admin", async () => {
    const { en } = await bilingual("keep-theirs", "Kept guide", "دليل محفوظ", true);
    const page = adaPage;
    await page.goto(`/admin/blog/edit/${en.$id}`);
    await ready(page);
    // Bob's save meanwhile (as the admin writes it: who saved it is on the row).
    await stack.backend.services.databases.updateDocument({
      ...table,
      documentId: en.$id,
      data: { title: "Bob's kept guide", updatedBy: "Bob" },
    });
    const bobs = await stored(en.$id);
    await field(page, "title").fill("Ada's discarded guide");
    await saveButton(page).click();
    const alert = page.getByRole("alert").filter({ hasText: "since you opened it" });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(
      `changed by Bob at ${momentText(bobs.$updatedAt, "en")} since you opened it`,
    );
    await page.locator("summary", { hasText: "See their version" }).click();
    const title = page.locator('[data-conflict-field="title"]');
    expect(await title.locator('[data-side="theirs"] del').allTextContents()).toEqual(["Bob's", "kept"]);
    // Side by side on a desktop.
    const [theirs, yours] = [
      (await title.locator('[data-side="theirs"]').boundingBox())!,
      (await title.locator('[data-side="yours"]').boundingBox())!,
    ];
    expect(Math.abs(theirs.y - yours.y)).toBeLessThan(2);

    // The page's data reloads after it (React Router's single-fetch `.data` request).
    const reloaded = page.waitForResponse(
      (r) => r.request().method() === "GET" && new URL(r.url()).pathname.endsWith(".data"),
    );
    await page.getByRole("button", { name: "Keep theirs (discard mine)" }).click();
    // The form, the status line and the alert change in React's next render: wait for it, not a fixed instant.
    await expect.poll(() => field(page, "title").inputValue()).toBe("Bob's kept guide");
    const kept = page.getByRole("status").filter({ hasText: "Their version is in the form now" });
    await kept.waitFor();
    await alert.waitFor({ state: "hidden" });
    // The line stays once the data has reloaded (it used to vanish with the answer the reload dropped).
    await reloaded;
    await page.waitForTimeout(500);
    expect(await kept.isVisible()).toBe(true);
    // Nothing of hers is kept to be put back, and the next save is not refused.
    await expect
      .poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("studio:unsaved"))))
      .toEqual([]);
    await saveButton(page).click();
    await page.locator('[data-flash="success"]').waitFor();
    expect((await stored(en.$id)).title).toBe("Bob's kept guide");
  });
});
