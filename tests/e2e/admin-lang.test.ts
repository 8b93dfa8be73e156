/**
 * Issue #17 items 1–2 in real Chromium: the admin speaks the editor's language (a switch English | العربية
 * remembered in the account prefs across sign-out and sign-in, the site's language followed from its Admin
 * link, an explicit switch winning afterwards), its server messages and tab titles are in that language, field
 * errors sit by their field naming it (a taken slug included; spaces only count as empty and what was typed
 * stays), a chosen file that is not an image is refused at once, and every admin page passes axe-core (no
 * serious or critical violation) at 1280 and 390 px in both languages. Screenshots of the Arabic admin go to
 * `test-output/screenshots/admin-ar-*.png`.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { Query } from "node-appwrite";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adminPage,
  createUser,
  htmlSource,
  newUser,
  ready,
  seedAs,
  signInAs,
  signInThroughPage,
  type Credentials,
} from "./admin-helpers.ts";
import { DESKTOP, SCREENSHOTS, axeSerious, startStack, type Stack } from "./helpers.ts";

let stack: Stack;
/** The editor of the error and axe tests, signed in once per admin language (`editorPage`). */
let editor: Credentials;
beforeAll(async () => {
  stack = await startStack();
  await mkdir(SCREENSHOTS, { recursive: true });
  editor = await createUser(stack, newUser("Eman Editor"));
});
afterAll(async () => {
  await stack?.close();
});

const pathOf = (page: Page) => new URL(page.url()).pathname;
const lang = (page: Page) => page.locator("html").getAttribute("lang");
const h1 = (page: Page) => page.locator("h1").first().textContent();
const switchButton = (page: Page, name: "English" | "العربية") =>
  page.getByRole("group", { name: /Admin language|لغة لوحة الإدارة/ }).getByRole("button", { name });

/** The account prefs Appwrite holds for `user` (read with the API key). */
async function prefsOf(user: Credentials): Promise<Record<string, unknown>> {
  const { users } = stack.backend.services;
  const found = await users.list({ queries: [Query.equal("email", user.email)] });
  return (await users.getPrefs({ userId: found.users[0]!.$id })) as Record<string, unknown>;
}

/** Switches the admin to `locale` with the keyboard (Tab to the button, Enter) and waits for the page in it. */
async function switchTo(page: Page, locale: "en" | "ar"): Promise<void> {
  const button = switchButton(page, locale === "en" ? "English" : "العربية");
  await button.focus();
  await page.keyboard.press("Enter");
  await expect.poll(() => lang(page)).toBe(locale);
  await ready(page);
}

describe("the admin's language", () => {
  it("switches with the keyboard, is remembered in the account prefs, and survives signing out and in", async () => {
    const user = await createUser(stack, newUser("Salma Switch"));
    const page = await adminPage(stack, user);
    expect(await lang(page)).toBe("en");
    expect(await page.title()).toBe("Dashboard | Admin");
    expect(await switchButton(page, "English").getAttribute("aria-pressed")).toBe("true");
    expect(await switchButton(page, "العربية").getAttribute("lang")).toBe("ar");

    await page.goto("/admin/ventures");
    await ready(page);
    await switchTo(page, "ar");
    // The same page, in Arabic, right-to-left, with an Arabic tab title.
    expect(pathOf(page)).toBe("/admin/ventures");
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    await expect.poll(() => h1(page)).toBe("إدارة المشاريع");
    await expect.poll(() => page.title()).toBe("إدارة المشاريع | الإدارة");
    expect(await switchButton(page, "العربية").getAttribute("aria-pressed")).toBe("true");
    expect((await prefsOf(user)).adminLocale).toBe("ar");

    await page.getByRole("button", { name: "تسجيل الخروج" }).click();
    await page.waitForURL((u) => u.pathname === "/ar/login");

    // Another browser, signing in from the English login page: the admin is Arabic, as the user chose.
    const other = await stack.page();
    await signInThroughPage(other, user, "/en/login");
    expect(pathOf(other)).toBe("/admin");
    expect(await lang(other)).toBe("ar");
    await expect.poll(() => h1(other)).toBe("لوحة التحكم");
    expect(await other.title()).toBe("لوحة التحكم | الإدارة");
    await switchTo(other, "en");
    await expect.poll(() => h1(other)).toBe("Dashboard");
    expect((await prefsOf(user)).adminLocale).toBe("en");
  });

  it("follows the site's language from its Admin link; an explicit switch wins afterwards", async () => {
    const user = await createUser(stack, newUser("Faris Follow"));
    const page = await adminPage(stack, user);
    expect(await lang(page)).toBe("en");
    await page.goto("/ar");
    await ready(page);
    await page.locator(`header a[href="/admin?lang=ar"]:visible`).first().click();
    await page.waitForURL((u) => u.pathname === "/admin");
    await expect.poll(() => lang(page)).toBe("ar");
    await expect.poll(() => h1(page)).toBe("لوحة التحكم");
    // The site's language is not the user's choice: the prefs are left alone.
    expect((await prefsOf(user)).adminLocale).toBeUndefined();

    await switchTo(page, "en");
    await page.goto("/admin/blog");
    await ready(page);
    expect(await lang(page)).toBe("en");
    await expect.poll(() => h1(page)).toBe("Manage Blog");
  });
});

const TEXTS = {
  en: {
    create: "Save",
    nameRequired: "Name is required.",
    slugRule: "Slug must be lowercase letters, digits and single hyphens (e.g. my-venture).",
    slugTaken: "Another item already uses this slug; choose a different one.",
    notImage: "notes.png is not an image. Only JPEG, PNG, GIF or WebP images can be uploaded.",
    noImage: "No image",
    title: "New Venture | Admin",
  },
  ar: {
    create: "حفظ",
    nameRequired: "الاسم مطلوب.",
    slugRule: "يجب أن يتكوّن «المعرّف» من أحرف لاتينية صغيرة وأرقام وشرطات مفردة (مثل my-venture).",
    slugTaken: "عنصر آخر يستخدم هذا المعرّف بالفعل؛ اختر معرّفًا مختلفًا.",
    notImage: "الملف notes.png ليس صورة. لا يمكن رفع إلا صور JPEG أو PNG أو GIF أو WebP.",
    noImage: "لا توجد صورة",
    title: "مشروع جديد | الإدارة",
  },
} as const;

/** The error text a field points to with `aria-describedby`, once it is `aria-invalid`. */
async function fieldError(page: Page, id: string): Promise<string | null> {
  const field = page.locator(`#${id}`);
  if ((await field.getAttribute("aria-invalid")) !== "true") return null;
  const described = await field.getAttribute("aria-describedby");
  return described ? page.locator(`#${described}`).textContent() : null;
}

const editorPages = new Map<"en" | "ar", Page>();
/**
 * The editor's page in the `locale` admin, on `to` (hydrated): signed in on its first use (the Arabic admin
 * from the Arabic login page, as the language switch is not what these tests are about), then reused with no
 * input kept from the test before (`studio:unsaved` in localStorage; leaving a form with input is allowed).
 */
async function editorPage(locale: "en" | "ar", to: string): Promise<Page> {
  let page = editorPages.get(locale);
  if (!page) {
    page = await stack.page({ viewport: DESKTOP, reducedMotion: "reduce" });
    page.on("dialog", (dialog) => void (dialog.type() === "beforeunload" ? dialog.accept() : dialog.dismiss()));
    await signInAs(stack, page, editor, { locale, to });
    editorPages.set(locale, page);
    return page;
  }
  await page.evaluate(() => localStorage.clear());
  await page.goto(to);
  await ready(page);
  return page;
}

/** The editor's page on the new venture form, in `locale`, with every field but those in `values` valid. */
async function newVentureForm(locale: "en" | "ar", values: Record<string, string>): Promise<Page> {
  const page = await editorPage(locale, "/admin/ventures/new");
  expect(await lang(page)).toBe(locale);
  const all = {
    name: "Harbor Ledger",
    slug: `harbor-ledger-${locale}-${Date.now()}`,
    websiteURL: "example.com",
    shortDescription: "Short.",
    caseStudy: "<p>Case.</p>",
    ...values,
  };
  // The name first: it fills the slug, which is then typed over. The case study is a body field: its HTML
  // source is in the visual editor's HTML tab (issue #30).
  for (const [name, value] of Object.entries(all)) {
    const field = name === "caseStudy" ? await htmlSource(page, name) : page.locator(`#field-${name}`);
    await field.fill(value);
  }
  return page;
}

for (const locale of ["en", "ar"] as const) {
  const text = TEXTS[locale];
  describe(`errors where the eye is, in the ${locale === "en" ? "English" : "Arabic"} admin`, () => {
    it("reports a spaces-only name and a bad slug by their fields, in the admin's language, keeping the input", async () => {
      const page = await newVentureForm(locale, { name: "   ", slug: "Bad--Slug" });
      expect(await page.title()).toBe(text.title);
      await page.getByRole("button", { name: text.create }).click();
      await expect.poll(() => fieldError(page, "field-name")).toBe(text.nameRequired);
      expect(await fieldError(page, "field-slug")).toBe(text.slugRule);
      expect(pathOf(page)).toBe("/admin/ventures/new");
      // What was typed stays, the spaces included.
      expect(await page.locator("#field-name").inputValue()).toBe("   ");
      expect(await page.locator("#field-slug").inputValue()).toBe("Bad--Slug");
      expect(await page.locator("#field-websiteURL").inputValue()).toBe("example.com");
      if (locale === "ar")
        await page.screenshot({ path: path.join(SCREENSHOTS, "admin-ar-form-errors.png"), fullPage: true });
    });

    it("puts a taken slug on the slug field", async () => {
      const owner = await createUser(stack, newUser(`Tariq Taken ${locale}`));
      const slug = `taken-${locale}-${Date.now()}`;
      await seedAs(stack, owner, {
        kind: "venture",
        input: {
          name: "Taken",
          slug,
          websiteURL: "https://taken.example",
          shortDescription: "S.",
          caseStudy: "<p>C.</p>",
        },
      });
      const page = await newVentureForm(locale, { slug });
      await page.getByRole("button", { name: text.create }).click();
      await expect.poll(() => fieldError(page, "field-slug")).toBe(text.slugTaken);
      // It is the field's error, not the form's.
      expect(await page.locator("main form [role=alert]").count()).toBe(0);
      expect(await page.locator("#field-name").inputValue()).toBe("Harbor Ledger");
    });

    it("refuses a chosen file that is not an image at once, with no broken preview", async () => {
      const page = await newVentureForm(locale, {});
      const picker = page.locator("#field-logo");
      await picker.setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("just some notes") });
      await expect.poll(() => fieldError(page, "field-logo")).toBe(text.notImage);
      expect(await page.getByRole("alert").filter({ hasText: text.notImage }).count()).toBe(1);
      // The placeholder stays: no preview of a file that is not an image.
      expect(await page.locator("main form img").count()).toBe(0);
      expect(await page.locator("main form").textContent()).toContain(text.noImage);
      // The form is not sent while the file is there.
      await page.getByRole("button", { name: text.create }).click();
      await page.waitForTimeout(300);
      expect(pathOf(page)).toBe("/admin/ventures/new");
    });
  });
}

describe("every admin page", () => {
  const pages = [
    "/admin",
    "/admin/ventures",
    "/admin/blog",
    "/admin/ventures/new",
    "/admin/blog/new",
    "/admin/account",
  ];
  let editPage: string;
  beforeAll(async () => {
    const seeded = await seedAs(stack, editor, {
      kind: "venture",
      input: {
        name: "Axe Venture",
        slug: `axe-venture-${Date.now()}`,
        websiteURL: "https://axe.example",
        shortDescription: "Checked.",
        caseStudy: "<p>Checked.</p>",
      },
    });
    editPage = `/admin/ventures/edit/${seeded.$id}`;
  });

  // Once per page and locale, at the desktop width: the phone layout's own checks are in admin-lists.test.ts
  // and admin.test.ts (no horizontal scroll, menus at 390 px).
  for (const locale of ["en", "ar"] as const) {
    it(`has no serious or critical axe-core violation in ${locale}`, { timeout: 300_000 }, async () => {
      const urls = [...pages, editPage];
      const page = await editorPage(locale, urls[0]!);
      expect(await lang(page)).toBe(locale);
      const serious: string[] = [];
      for (const [i, url] of urls.entries()) {
        if (i > 0) {
          await page.goto(url);
          await ready(page);
        }
        serious.push(...(await axeSerious(page)).map((v) => `${url}: ${v}`));
      }
      expect(serious).toEqual([]);
    });
  }
});
