/**
 * Issue #29 items 6–8 in real Chromium, with the fake Gemini: AI never overwrites silently (Generate and
 * Translate into written fields ask, naming them and a person's review, and Undo puts them back), AI drafting
 * fills the tab you are on (an Arabic topic in the Arabic admin drafts the Arabic version), every word in the
 * admin's language (AI failures, content-rule and glossary violations with their Latin values isolated, the
 * image picker's own button, date inputs), the Arabic admin's lists show Arabic titles linking to `/ar/…`, and
 * an Arabic-first editor creates an Arabic-only item at 390 px: the refused save opens the Arabic tab, focuses
 * its first invalid field and sums up at the top; the item is then listed and shown at `/ar/…`.
 */
import { Permission, Query, Role } from "node-appwrite";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { translationHash } from "../../lib/translate/hash.ts";
import { startFakeGemini, type FakeGemini } from "../helpers/fake-gemini.ts";
import { createUser, newUser, ready, seedAs, signInAs, type Credentials } from "./admin-helpers.ts";
import { DESKTOP, PHONE, startStack, type Stack } from "./helpers.ts";

let stack: Stack;
let gemini: FakeGemini;
beforeAll(async () => {
  gemini = await startFakeGemini();
  process.env.GEMINI_API_KEY = "test-key";
  process.env.GEMINI_BASE_URL = gemini.baseUrl;
  stack = await startStack();
});
afterAll(async () => {
  delete process.env.GEMINI_API_KEY;
  delete process.env.GEMINI_BASE_URL;
  await stack?.close();
  await gemini?.close();
});

const FSI = "\u2068";
const PDI = "\u2069";
const POSTS = CONTENT_MODEL.post.collectionId;
const value = (page: Page, id: string) => page.locator(`[id="${id}"]`).inputValue();
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? "");

async function versions(slug: string) {
  const page = await stack.backend.services.databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId: POSTS,
    queries: [Query.equal("slug", slug)],
  });
  return page.documents;
}

describe("in the English admin", () => {
  it("asks before Generate replaces typed fields, naming them; Undo puts them back; unmet rules are listed", async () => {
    const page = await stack.page();
    await signInAs(stack, page, await createUser(stack, newUser("Gina Generate")), { to: "/admin/blog/new" });
    await page.locator("#field-title").fill("My own title");
    await page.locator("#field-excerpt").fill("My own excerpt.");
    expect(await value(page, "field-slug")).toBe("my-own-title");
    await page.getByRole("textbox", { name: "Blog Post Topic" }).fill("small agencies");
    expect(await page.getByText("Drafts the English version: the tab you are on.").count()).toBe(1);
    // No list and no quote, twice (the repair too): the rules stay unmet.
    gemini.script({
      json: {
        title: "Drafted title",
        slug: "drafted-title",
        excerpt: "Drafted excerpt.",
        content: "<h2>A</h2><p>One.</p>",
      },
    });
    await page.getByRole("button", { name: "Generate Content" }).click();
    const dialog = page.getByRole("dialog", { name: "Replace what is in these fields?" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      "The AI draft will replace what the English version's fields say now: Title, Slug, and Excerpt.",
    );
    // Nothing changed while it asks.
    expect(await value(page, "field-title")).toBe("My own title");
    await dialog.getByRole("button", { name: "Replace" }).click();
    await expect.poll(() => value(page, "field-title")).toBe("Drafted title");
    expect(await value(page, "field-excerpt")).toBe("Drafted excerpt.");
    const status = page.getByRole("status").filter({ hasText: "The AI filled" });
    expect(await status.textContent()).toContain("The AI filled: Title, Excerpt, and Content.");
    const rules = page.locator('section[aria-labelledby^="ai-"] li');
    expect(await rules.allTextContents()).toEqual([
      "Add at least one bulleted list.",
      "Add at least one quote (blockquote).",
    ]);

    await status.getByRole("button", { name: "Undo" }).click();
    await expect.poll(() => value(page, "field-title")).toBe("My own title");
    expect(await value(page, "field-excerpt")).toBe("My own excerpt.");
    expect(await value(page, "field-slug")).toBe("my-own-title");
    expect(await page.getByRole("status").filter({ hasText: "Undone" }).count()).toBe(1);
    // Once: the Undo button is gone (the body editor's toolbar has an Undo of its own).
    expect(await page.getByRole("status").getByRole("button", { name: "Undo" }).count()).toBe(0);

    // Asked again, Cancel leaves the fields as they are.
    await page.getByRole("button", { name: "Generate Content" }).click();
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await value(page, "field-title")).toBe("My own title");
  });
});

describe("in the Arabic admin", () => {
  let omar: Credentials;
  let page: Page;
  // Signed in from /ar/login, straight onto a new post (the language switch itself: admin-lang.test.ts).
  beforeAll(async () => {
    omar = await createUser(stack, newUser("Omar Arabic"));
    page = await stack.page();
    await signInAs(stack, page, omar, { locale: "ar", to: "/admin/blog/new" });
  });

  it("drafts Arabic into the Arabic tab; failures and rules in Arabic, values isolated; its own file button", async () => {
    // On the new post form beforeAll opened.
    expect(new URL(page.url()).pathname).toBe("/admin/blog/new");
    expect(await page.locator("html").getAttribute("lang")).toBe("ar");
    // A new item starts in the admin's language.
    const arabicTab = page.getByRole("tab", { name: "العربية" });
    expect(await arabicTab.getAttribute("aria-selected")).toBe("true");
    await page.getByRole("textbox", { name: "موضوع المقال" }).fill("وكالات الخدمات المصغّرة");

    gemini.script({ status: 500, error: "overloaded" });
    await page.getByRole("button", { name: "توليد المحتوى" }).click();
    const failure = page.getByRole("alert").filter({ hasText: "تعذّر" });
    await expect
      .poll(() => failure.textContent())
      .toBe("تعذّر توليد المحتوى. قد يكون النموذج غير متاح. يرجى المحاولة لاحقًا.");

    gemini.script({
      json: { title: "دليل الوكالات", slug: "agencies-guide", excerpt: "ملخص.", content: "<h1>عنوان</h1><p>نص.</p>" },
    });
    await page.getByRole("button", { name: "توليد المحتوى" }).click();
    // Empty fields: filled without asking, into the Arabic version (the route's, in the Arabic admin).
    await expect.poll(() => value(page, "field-title")).toBe("دليل الوكالات");
    expect(await page.locator('input[type=hidden][name="en.title"]').inputValue()).toBe("");
    expect(JSON.stringify(gemini.requests.at(-1)?.body)).toContain("Modern Standard Arabic");
    const rules = await page.locator('section[aria-labelledby^="ai-"] li').allTextContents();
    expect(rules).toEqual([
      `يستخدم ${FSI}h1${PDI}؛ استخدم عناوين h2 وh3 فقط.`,
      "أضف قائمة نقطية واحدة على الأقل.",
      "أضف اقتباسًا واحدًا على الأقل (blockquote).",
    ]);

    // The image picker's button and its "no file" in the admin's language; the real input still takes a file.
    expect(await page.locator("label[data-file-button]").textContent()).toBe("اختيار صورة");
    const chosen = page.locator('[id$="-chosen"]');
    expect(await chosen.textContent()).toBe("لم يُختر ملف");
    await page
      .locator("input[type=file]")
      .setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("notes") });
    await expect.poll(() => chosen.textContent()).toBe("notes.png");
    await page.locator("input[type=file]").setInputFiles([]);
    await expect.poll(() => chosen.textContent()).toBe("لم يُختر ملف");
    // A date input takes the page's language and says the day in its words.
    // Each of them: the post's date and the publish time's (issue #29 item 2).
    const dates = await page.locator("input[type=date]").all();
    expect(dates.length).toBe(2);
    for (const date of dates) expect(await date.getAttribute("lang")).toBe("ar");
    expect(await page.locator("[data-date-shown]").textContent()).toMatch(/^التاريخ: /);
  });

  it("lists Arabic titles linking to /ar; Translate over a reviewed version asks, says so, and Undo restores it", async () => {
    const slug = `studio-notes-${Date.now()}`;
    const en = await seedAs(stack, omar, {
      kind: "post",
      input: {
        title: "Studio notes e2e",
        slug,
        authorName: "Omar",
        publishedDate: "2026-02-01",
        excerpt: "Notes from the venture studio.",
        content: "<p>How a venture studio works.</p>",
      },
    });
    const fields = Object.fromEntries(Object.entries(en).filter(([k]) => !k.startsWith("$")));
    await stack.backend.services.databases.createDocument({
      databaseId: DATABASE_ID,
      collectionId: POSTS,
      documentId: "unique()",
      data: {
        ...fields,
        locale: "ar",
        title: "ملاحظات الاستوديو",
        excerpt: "ملاحظات من استوديو المشاريع.",
        authorName: "عمر",
        content: "<p>كيف يعمل استوديو المشاريع.</p>",
        sourceLocale: "en",
        reviewed: true,
        translationModel: "human",
        sourceHash: translationHash("post", en),
      },
      permissions: en.$permissions.length ? en.$permissions : [Permission.read(Role.any())],
    });

    await page.goto("/admin/blog");
    await ready(page);
    const row = page.getByRole("row").filter({ hasText: "ملاحظات الاستوديو" });
    await row.waitFor();
    expect(await row.textContent()).not.toContain("Studio notes e2e");
    expect(await row.getByRole("link", { name: "عرض في الموقع" }).getAttribute("href")).toBe(`/ar/blog/${slug}`);

    await page.goto(`/admin/blog/edit/${en.$id}`);
    await ready(page);
    // The glossary's "venture studio" comes back without its pair: a violation, its terms isolated.
    gemini.script({
      json: { title: "ملاحظات جديدة", excerpt: "ملاحظات.", authorName: "عمر", content: "<p>كيف يعمل الاستوديو.</p>" },
    });
    await page
      .getByRole("tabpanel", { name: "English" })
      .getByRole("button", { name: "الترجمة بالذكاء الاصطناعي" })
      .click();
    const dialog = page.getByRole("dialog", { name: "استبدال ما في هذه الحقول؟" });
    await dialog.waitFor();
    const asked = await dialog.textContent();
    expect(asked).toContain("راجع شخصٌ هذه الترجمة العربية");
    expect(asked).toContain("العنوان");
    const arTitle = page.locator('[id="field-ar.title"]');
    expect(await arTitle.inputValue()).toBe("ملاحظات الاستوديو");
    await dialog.getByRole("button", { name: "استبدال" }).click();
    await expect.poll(() => arTitle.inputValue()).toBe("ملاحظات جديدة");
    const violations = await page.getByRole("status").filter({ hasText: "المسرد" }).locator("li").allTextContents();
    expect(
      violations.some((v) => v.includes(`«${FSI}venture studio${PDI}» بصيغة «${FSI}استوديو المشاريع${PDI}»`)),
    ).toBe(true);
    const reviewed = page.getByRole("checkbox", { name: /^مراجَعة/ });
    expect(await reviewed.isChecked()).toBe(false);

    // The AI's Undo, in its status (the body editor's toolbar has an Undo of its own).
    await page.getByRole("status").getByRole("button", { name: "تراجع" }).click();
    await expect.poll(() => arTitle.inputValue()).toBe("ملاحظات الاستوديو");
    expect(await reviewed.isChecked()).toBe(true);
  });

  it("creates an Arabic-only item at 390 px: errors open the Arabic tab and focus; listed and shown at /ar", async () => {
    await page.setViewportSize(PHONE);
    // The first test's typing is kept as unsaved input of a new post: this one starts afresh.
    await page.evaluate(() => localStorage.clear());
    await page.goto("/admin/blog/new");
    await ready(page);
    gemini.script({
      json: {
        title: "مقال بالعربية فقط",
        slug: "arabic-only",
        excerpt: "ملخص عربي.",
        content: "<h2>مرحبا</h2><p>نص.</p><ul><li>بند</li></ul><blockquote>اقتباس</blockquote>",
      },
    });
    await page.getByRole("textbox", { name: "موضوع المقال" }).fill("مقال عربي");
    await page.getByRole("button", { name: "توليد المحتوى" }).click();
    await expect.poll(() => value(page, "field-title")).toBe("مقال بالعربية فقط");
    const slug = `arabic-only-${Date.now()}`;
    await page.locator("#field-slug").fill(slug);
    await page.locator("#field-excerpt").fill("");
    // The editor looks at the English tab, empty, and saves: the error is the Arabic version's.
    await page.getByRole("tab", { name: "English" }).click();
    await page.getByRole("button", { name: "حفظ", exact: true }).click();
    const arabicTab = page.getByRole("tab", { name: "العربية" });
    await expect.poll(() => arabicTab.getAttribute("aria-selected")).toBe("true");
    await expect.poll(() => focusedId(page)).toBe("field-excerpt");
    const summary = page.locator("[data-error-summary]");
    expect(await summary.getAttribute("role")).toBe("alert");
    expect(await summary.textContent()).toContain("لم يُحفظ: صحّح الحقول أدناه.");
    expect(await summary.textContent()).toContain("في النسخة العربية:");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await page.locator("#field-excerpt").fill("ملخص عربي.");
    // Published through the Publish… dialog (issue #29): the new post lands on its own edit page.
    await page.getByRole("button", { name: "نشر…", exact: true }).click();
    await page.locator("dialog[open]").getByRole("button", { name: "نشر", exact: true }).click();
    await page.waitForURL((u) => u.pathname.startsWith("/admin/blog/edit/"));
    await page.goto("/admin/blog");
    await ready(page);
    const stored = await versions(slug);
    expect(stored.map((d) => [d.locale, d.title, d.sourceLocale ?? null])).toEqual([["ar", "مقال بالعربية فقط", null]]);
    const link = page
      .getByRole("row")
      .filter({ hasText: "مقال بالعربية فقط" })
      .getByRole("link", { name: "عرض في الموقع" });
    expect(await link.getAttribute("href")).toBe(`/ar/blog/${slug}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await link.click();
    await page.waitForURL((u) => u.pathname === `/ar/blog/${slug}`);
    expect(await page.locator("h1").first().textContent()).toBe("مقال بالعربية فقط");
    await page.setViewportSize(DESKTOP);
  });
});
