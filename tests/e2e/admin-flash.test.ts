/**
 * Issue #17 item 3 in real Chromium, in the English and the Arabic admin: a flash message after each save
 * (create, save changes, save draft), publish, unpublish, schedule, delete and account change, naming the item,
 * in a polite live region, dismissible, gone after a reload; a failed delete (another user's item, or one
 * removed through the API key before the editor confirms) told on the list; one success message at a time on
 * the account page; the message without JavaScript. Screenshots: `test-output/screenshots/admin-flash-*.png`.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import {
  adminPage,
  createUser,
  htmlSource,
  newUser,
  ready,
  seedAs,
  signInAs,
  type Credentials,
} from "./admin-helpers.ts";
import { SCREENSHOTS, startStack, type Stack } from "./helpers.ts";
import { CONTENT_MODEL } from "../../model/model.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
  await mkdir(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await stack?.close();
});

const arabicDay = new Intl.DateTimeFormat("ar", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
}).format(new Date("2099-12-01T00:00:00Z"));
expect(arabicDay).toMatch(/^(1|١) ديسمبر (2099|٢٠٩٩)$/);

const TEXTS = {
  en: {
    created: (n: string) => `Created “${n}”.`,
    saved: (n: string) => `Saved “${n}”.`,
    published: (n: string) => `Published “${n}”: English.`,
    draft: (n: string) => `Saved “${n}” as a draft.`,
    unpublished: (n: string) => `“${n}” is now a draft.`,
    scheduled: (n: string) => `“${n}” is scheduled for 1 Dec 2099, 00:00 UTC: English.`,
    deleted: (n: string) => `Moved “${n}” to the trash.`,
    noPermission: (n: string) => `“${n}” was not deleted: you don't have permission to delete it.`,
    gone: (n: string) => `“${n}” was not deleted: it no longer exists`,
    nameUpdated: "Name updated successfully.",
    passwordUpdated: "Password updated successfully.",
    mismatch: "New passwords do not match.",
    delete: "Delete",
    dismiss: "Dismiss",
  },
  ar: {
    created: (n: string) => `تم إنشاء «${n}».`,
    saved: (n: string) => `تم حفظ «${n}».`,
    // A new item in the Arabic admin is its Arabic version (issue #29 item 5).
    published: (n: string) => `تم نشر «${n}»: العربية.`,
    draft: (n: string) => `تم حفظ «${n}» كمسودة.`,
    unpublished: (n: string) => `أصبح «${n}» مسودة.`,
    // The digits are what Intl's "ar" writes, as the rest of the Arabic admin (Latin in current ICU data).
    scheduled: (n: string) => `«${n}» مجدول للنشر في ${arabicDay}، 00:00 \u2066UTC: العربية.`,
    deleted: (n: string) => `نُقل «${n}» إلى سلة المهملات.`,
    noPermission: (n: string) => `لم يُحذف «${n}»: ليست لديك صلاحية حذفه.`,
    gone: (n: string) => `لم يُحذف «${n}»: لم يعد موجودًا`,
    nameUpdated: "تم تحديث الاسم بنجاح.",
    passwordUpdated: "تم تحديث كلمة المرور بنجاح.",
    mismatch: "كلمتا المرور الجديدتان غير متطابقتين.",
    delete: "حذف",
    dismiss: "إغلاق",
  },
} as const;
type Lang = keyof typeof TEXTS;

/** The flash region's text without the bidi isolates around the item's name ("" when no message shows). */
async function flashText(page: Page): Promise<string> {
  const region = page.locator("main [role=status][aria-live=polite]").first();
  return ((await region.textContent()) ?? "").replace(/[\u2068\u2069]/g, "");
}

/** Waits for the flash to read `text` (or start with it), and checks it is one polite live region. */
async function expectFlash(page: Page, text: string, tone: "success" | "error" = "success"): Promise<void> {
  // A password change takes a while (hashing): more than the poll's default second.
  await expect.poll(() => flashText(page), { timeout: 10_000 }).toContain(text);
  expect(await page.locator("main [data-flash]").getAttribute("data-flash")).toBe(tone);
  expect(await page.locator("main [data-flash]").getAttribute("aria-atomic")).toBe("true");
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `admin-flash-${name}.png`) });
}

/** A page signed in as `user`, in the admin's language `lang`. */
async function signedIn(user: Credentials, lang: Lang): Promise<Page> {
  if (lang === "en") return adminPage(stack, user);
  const page = await stack.page();
  await signInAs(stack, page, user, { locale: "ar" });
  return page;
}

const field = (page: Page, name: string) => page.locator(`form [name="${name}"]`).first();
const button = (page: Page, intent: string) => page.locator(`form button[name=intent][value=${intent}]`);

/**
 * Submits the open venture form with the button of `intent` (issue #29: publish and unpublish confirm in the
 * dialog first), on the item's edit page, where the save lands (issue #29 item 3): the flash tells it is done.
 */
async function submit(page: Page, intent: "publish" | "save" | "unpublish"): Promise<void> {
  await button(page, intent).first().click();
  if (intent !== "save") await page.locator("dialog[open] button[name=intent]").click();
  await page.waitForURL((u) => u.pathname.startsWith("/admin/ventures/edit/"));
  await ready(page);
}

/** Goes to the venture list. */
async function toList(page: Page): Promise<void> {
  await page.goto("/admin/ventures");
  await ready(page);
}

/** Opens the item `name` from the venture list. */
async function openEdit(page: Page, name: string): Promise<void> {
  await toList(page);
  await page.getByRole("row").filter({ hasText: name }).locator("a[href*='/edit/']").first().click();
  await page.waitForURL((u) => u.pathname.startsWith("/admin/ventures/edit/"));
  await ready(page);
}

async function confirmDelete(page: Page, name: string, lang: Lang, before?: () => Promise<void>): Promise<void> {
  await page.getByRole("row").filter({ hasText: name }).getByRole("button", { name: TEXTS[lang].delete }).click();
  const dialog = page.getByRole("dialog");
  await expect.poll(() => dialog.isVisible()).toBe(true);
  await before?.();
  await dialog.getByRole("button", { name: TEXTS[lang].delete }).click();
  await expect.poll(() => dialog.isVisible()).toBe(false);
}

describe.each(["en", "ar"] as const)("the flash messages in the %s admin", (lang) => {
  const texts = TEXTS[lang];

  it("confirms create, save, draft, unpublish, publish, schedule and delete once, by name", async () => {
    const user = await createUser(stack, newUser(`Fay ${lang}`));
    const page = await signedIn(user, lang);
    const name = lang === "en" ? "Clinic Ledger Annex" : "دفتر العيادة";
    await page.goto("/admin/ventures/new");
    await ready(page);
    await field(page, "name").fill(name);
    await field(page, "slug").fill(`clinic-ledger-${lang}`);
    await field(page, "websiteURL").fill("https://clinic-ledger.example");
    await field(page, "shortDescription").fill("Bookkeeping for clinics.");
    await (await htmlSource(page, "caseStudy")).fill("<p>Clinics keep books.</p>");
    await submit(page, "save");
    // A new item lands on its own edit page, with the message there.
    await expectFlash(page, texts.created(name));
    await shot(page, `created-${lang}`);
    // Shown once: a reload has no message.
    await page.reload();
    await ready(page);
    expect(await flashText(page)).toBe("");

    await openEdit(page, name);
    expect(await flashText(page)).toBe(""); // left behind by the navigation
    await submit(page, "save");
    await expectFlash(page, texts.saved(name));

    await openEdit(page, name);
    await submit(page, "publish");
    await expectFlash(page, texts.published(name));
    await openEdit(page, name);
    await submit(page, "unpublish");
    await expectFlash(page, texts.unpublished(name));

    await openEdit(page, name);
    await field(page, "publishAt").fill("2099-12-01");
    await submit(page, "publish");
    await expectFlash(page, texts.scheduled(name));
    await shot(page, `scheduled-${lang}`);
    // Dismissed with the button, it stays gone.
    await page.getByRole("link", { name: texts.dismiss }).click();
    await expect.poll(() => flashText(page)).toBe("");

    await toList(page);
    await confirmDelete(page, name, lang);
    await expectFlash(page, texts.deleted(name));
    await shot(page, `deleted-${lang}`);
    await page.reload();
    await ready(page);
    expect(await flashText(page)).toBe("");
  });

  it("tells the editor a delete failed: one removed before confirming; another user's item is not offered", async () => {
    const owner = await createUser(stack, newUser(`Omar ${lang}`));
    const owned = `Owned ${lang}`;
    await seedAs(stack, owner, {
      kind: "venture",
      input: {
        name: owned,
        slug: `owned-flash-${lang}`,
        websiteURL: "https://owned.example",
        shortDescription: "Only Omar may delete it.",
        caseStudy: "<p>Owned.</p>",
      },
    });
    const user = await createUser(stack, newUser(`Sara ${lang}`));
    const mine = await seedAs(stack, user, {
      kind: "venture",
      input: {
        name: `Vanishing ${lang}`,
        slug: `vanishing-flash-${lang}`,
        websiteURL: "https://vanishing.example",
        shortDescription: "Removed before the editor confirms.",
        caseStudy: "<p>Gone.</p>",
      },
    });
    const page = await signedIn(user, lang);
    await page.goto("/admin/ventures");
    await ready(page);

    // Another user's item is not offered at all outside the studio team (issue #28 item 3: lists hold one's own).
    expect(await page.getByRole("row").filter({ hasText: owned }).count()).toBe(0);

    await confirmDelete(page, `Vanishing ${lang}`, lang, async () => {
      await stack.backend.services.databases.deleteDocument({
        databaseId: DATABASE_ID,
        collectionId: CONTENT_MODEL.venture.collectionId,
        documentId: mine.$id,
      });
    });
    await expectFlash(page, texts.gone(`Vanishing ${lang}`), "error");
    await page.reload();
    await ready(page);
    expect(await flashText(page)).toBe("");
  });

  it("shows one account message at a time: the name, then only the password", async () => {
    const user = await createUser(stack, newUser(`Amal ${lang}`));
    const page = await signedIn(user, lang);
    await page.goto("/admin/account");
    await ready(page);
    await field(page, "name").fill(`Amal Renamed ${lang}`);
    await page.locator("form:has([name=intent][value=name]) button[type=submit]").click();
    await expectFlash(page, texts.nameUpdated);
    await expect.poll(() => page.locator("aside").textContent()).toContain(`Amal Renamed ${lang}`);

    const next = `a-new-password-${lang}`;
    const passwordForm = page.locator("form:has([name=intent][value=password])");
    // A failure first: it stays in its form, and goes once the change succeeds.
    await field(page, "currentPassword").fill(user.password);
    await field(page, "newPassword").fill(next);
    await field(page, "confirmPassword").fill("not-the-same-password");
    await passwordForm.locator("button[type=submit]").click();
    await expect.poll(() => passwordForm.getByRole("status").textContent()).toBe(texts.mismatch);
    await field(page, "confirmPassword").fill(next);
    await passwordForm.locator("button[type=submit]").click();
    await expectFlash(page, texts.passwordUpdated);
    const shown = await page.locator("main").textContent();
    expect(shown).not.toContain(texts.nameUpdated); // one success message at a time
    expect(shown?.split(texts.passwordUpdated).length).toBe(2);
    expect(await field(page, "newPassword").inputValue()).toBe("");
    expect(await passwordForm.getByRole("status").count()).toBe(0);
    await shot(page, `account-${lang}`);
    await page.reload();
    await ready(page);
    expect(await flashText(page)).toBe("");
  });
});

describe("without JavaScript", () => {
  it("shows the save's message on the edit page after the redirect, and not after a reload", async () => {
    const user = await createUser(stack, newUser("Nora NoScript"));
    const item = await seedAs(stack, user, {
      kind: "venture",
      input: {
        name: "Plain Form",
        slug: "plain-form-flash",
        websiteURL: "https://plain.example",
        shortDescription: "Saved without JavaScript.",
        caseStudy: "<p>Plain.</p>",
      },
    });
    const signedInPage = await adminPage(stack, user);
    const context = await signedInPage.context().browser()!.newContext({
      baseURL: stack.site.url,
      javaScriptEnabled: false,
    });
    await context.addCookies(await signedInPage.context().cookies());
    const page = await context.newPage();
    await page.goto(`/admin/ventures/edit/${item.$id}`);
    // The POST's answer redirects to the item's own edit page (issue #29 item 3), which shows the message.
    const loaded = page.waitForEvent("load");
    await button(page, "save").click(); // "Update": a published item's save
    await loaded;
    expect(new URL(page.url()).pathname).toBe(`/admin/ventures/edit/${item.$id}`);
    expect(await flashText(page)).toBe("Saved “Plain Form”.");
    await page.reload();
    expect(await flashText(page)).toBe("");
    await context.close();
  });
});
