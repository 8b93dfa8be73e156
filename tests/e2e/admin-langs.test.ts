/**
 * Issue #15 item 6 in real Chromium: the venture and post forms edit both language versions in tabs English |
 * العربية (a WAI-ARIA tab list: arrow keys in the reading direction, Arabic fields right-to-left in either
 * admin language), "Translate with AI" is off with the admin's sentence without a Gemini key, and saving the
 * Arabic version reviewed records the English one's hash, so an English edit makes it stale. The lists' badges
 * and `?translation=` filters for what these saves store are server HTML: tests/integration/admin-lists.test.ts
 * "the translation states in the admin's lists".
 */
import { Query } from "node-appwrite";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { translationHash } from "../../lib/translate/hash.ts";
import { startFakeGemini, type FakeGemini } from "../helpers/fake-gemini.ts";
import { createUser, htmlSource, newUser, ready, seedAs, signInAs } from "./admin-helpers.ts";
import { startStack, type Stack } from "./helpers.ts";
import { CONTENT_MODEL } from "../../model/model.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

async function versions(collectionId: string, slug: string) {
  const page = await stack.backend.services.databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId,
    queries: [Query.equal("slug", slug)],
  });
  return page.documents;
}

/** The admin's flash message (a save stays on the edit page and says so there), without bidi isolates. */
const saidSaved = async (page: Page) =>
  ((await page.locator("main [role=status][aria-live=polite]").first().textContent()) ?? "").replace(
    /[\u2066-\u2069]/g,
    "",
  );

const focused = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? "");

describe("the post form in the English admin", () => {
  it("edits both versions in tabs; saving the Arabic one reviewed makes it up to date, an English edit stale", async () => {
    const ada = await createUser(stack, newUser("Ada"));
    const page = await stack.page();
    await signInAs(stack, page, ada, { to: "/admin/blog/new" });

    const tabs = page.getByRole("tablist", { name: "Language versions" });
    const english = tabs.getByRole("tab", { name: "English" });
    const arabic = tabs.getByRole("tab", { name: "العربية" });
    expect(await english.getAttribute("aria-selected")).toBe("true");
    expect(await arabic.getAttribute("tabindex")).toBe("-1");
    const enPanel = page.getByRole("tabpanel", { name: "English" });
    await enPanel.getByRole("textbox", { name: "Title", exact: true }).fill("Two languages e2e");
    await enPanel.getByRole("textbox", { name: "Excerpt", exact: true }).fill("Both versions.");
    await enPanel.getByRole("textbox", { name: "Author Name", exact: true }).fill("Ada");
    await (await htmlSource(enPanel, "content")).fill("<h2>Hello</h2><p>World.</p>");
    expect(await enPanel.getByRole("textbox", { name: "Title", exact: true }).getAttribute("dir")).toBe("auto");
    // The slug is shared and filled from the English title.
    expect(await page.getByRole("textbox", { name: "Slug", exact: true }).inputValue()).toBe("two-languages-e2e");

    // Keyboard: ArrowRight moves to the next tab in a left-to-right admin, Home back to the first.
    await english.focus();
    await page.keyboard.press("ArrowRight");
    expect(await arabic.getAttribute("aria-selected")).toBe("true");
    expect(await focused(page)).toBe("العربية");
    expect(await enPanel.isHidden()).toBe(true);
    // The hidden panel's fields are posted as they are, unseen.
    expect(await page.locator('input[type=hidden][name="title"]').inputValue()).toBe("Two languages e2e");
    const arPanel = page.getByRole("tabpanel", { name: "العربية" });
    const arTitle = arPanel.getByRole("textbox", { name: "Title (العربية)" });
    expect(await arTitle.getAttribute("dir")).toBe("rtl");
    // The Arabic body: right to left in the visual editor, its HTML source left to right (issue #30 item 2).
    expect(await arPanel.getByRole("textbox", { name: "Content (HTML) (العربية)" }).getAttribute("dir")).toBe("rtl");
    expect(await (await htmlSource(arPanel, "ar.content")).getAttribute("dir")).toBe("ltr");
    expect(await arPanel.textContent()).toContain("This item has no Arabic version yet.");
    // No Gemini key in this stack: the button is off, with the sentence the AI assistant shows.
    const translate = arPanel.getByRole("button", { name: "Translate with AI" });
    expect(await translate.isDisabled()).toBe(true);
    expect(await arPanel.textContent()).toContain("AI drafting isn't set up on this site yet.");
    await arTitle.fill("لغتان");
    await arPanel.getByRole("textbox", { name: "Excerpt (العربية)" }).fill("النسختان.");
    await arPanel.getByRole("textbox", { name: "Author Name (العربية)" }).fill("آدا");
    await (await htmlSource(arPanel, "ar.content")).fill("<h2>مرحبًا</h2><p>عالم.</p>");
    await page.keyboard.press("Home");
    await arabic.focus();
    await page.keyboard.press("Home");
    expect(await english.getAttribute("aria-selected")).toBe("true");

    // Issue #29: publishing asks first, in a dialog naming the versions.

    await page.getByRole("button", { name: "Publish…" }).click();

    await page.locator("dialog[open]").getByRole("button", { name: "Publish", exact: true }).click();
    // Saving stays in the editor (issue #29 item 3): a new item lands on its own edit page.
    await page.waitForURL((u) => u.pathname.startsWith("/admin/blog/edit/"));
    const stored = await versions(CONTENT_MODEL.post.collectionId, "two-languages-e2e");
    const en = stored.find((d) => d.locale === "en")!;
    const ar = stored.find((d) => d.locale === "ar")!;
    expect(ar).toMatchObject({ title: "لغتان", sourceLocale: "en", reviewed: false, publishedDate: en.publishedDate });
    expect(en.sourceLocale ?? null).toBeNull();
    // Typed but not reviewed: the Arabic version is "unreviewed" (its list badge: the io test above).
    expect(ar.sourceHash).toBe(translationHash("post", en));

    // Saving it reviewed, on the edit page the publish landed on, records the English version's hash: up to date.
    await ready(page);
    await page.getByRole("tab", { name: "العربية" }).click();
    await page.getByRole("checkbox", { name: /^Reviewed/ }).check();
    await page.getByRole("button", { name: "Update", exact: true }).click();
    await expect.poll(() => saidSaved(page)).toBe("Saved “Two languages e2e”.");
    const reviewed = (await versions(CONTENT_MODEL.post.collectionId, "two-languages-e2e")).find(
      (d) => d.locale === "ar",
    )!;
    expect(reviewed.reviewed).toBe(true);
    expect(reviewed.sourceHash).toBe(translationHash("post", en));

    // An English edit makes the Arabic version stale: its recorded hash is no longer the English one's, and
    // the form says so after the save.
    await page.getByRole("tab", { name: "English" }).click();
    await page.getByRole("textbox", { name: "Excerpt", exact: true }).fill("Both versions, changed.");
    // The first save's message is still shown: wait for this save's answer.
    const saved = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/admin/blog/edit/"));
    await page.getByRole("button", { name: "Update", exact: true }).click();
    await saved;
    await expect.poll(() => saidSaved(page)).toBe("Saved “Two languages e2e”.");
    const edited = (await versions(CONTENT_MODEL.post.collectionId, "two-languages-e2e")).find(
      (d) => d.locale === "en",
    )!;
    expect(edited.excerpt).toBe("Both versions, changed.");
    expect(translationHash("post", edited)).not.toBe(reviewed.sourceHash);
    await page.getByRole("tab", { name: "العربية" }).click();
    await expect
      .poll(() => page.getByRole("tabpanel", { name: "العربية" }).textContent())
      .toContain("The English version changed since this one was translated or reviewed.");
  });
});

describe("the venture form in the Arabic admin", () => {
  it("shows the tabs right-to-left (ArrowLeft moves forward), Arabic fields rtl, and a missing version", async () => {
    const user = await createUser(stack, newUser("Omar"));
    const seeded = await seedAs(stack, user, {
      kind: "venture",
      input: {
        name: "Only English e2e",
        slug: "only-english-e2e",
        websiteURL: "https://only-english.example",
        shortDescription: "No Arabic yet.",
        caseStudy: "<p>English only.</p>",
      },
    });
    // Its row's "missing" badge and the filter in Arabic: tests/integration/admin-lists.test.ts.
    const page = await stack.page();
    await signInAs(stack, page, user, { locale: "ar", to: `/admin/ventures/edit/${seeded.$id}` });
    expect(await page.locator("html").getAttribute("lang")).toBe("ar");
    const tabs = page.getByRole("tablist", { name: "نسخ اللغات" });
    const english = tabs.getByRole("tab", { name: "English" });
    const arabic = tabs.getByRole("tab", { name: "العربية" });
    expect(await english.getAttribute("aria-selected")).toBe("true");
    const enName = page.getByRole("tabpanel", { name: "English" }).getByRole("textbox", { name: "الاسم", exact: true });
    expect(await enName.inputValue()).toBe("Only English e2e");
    expect(await enName.getAttribute("dir")).toBe("auto");
    // Right-to-left: the next tab is to the left.
    await english.focus();
    await page.keyboard.press("ArrowLeft");
    expect(await arabic.getAttribute("aria-selected")).toBe("true");
    expect(await focused(page)).toBe("العربية");
    await page.keyboard.press("ArrowRight");
    expect(await english.getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("End");
    const arPanel = page.getByRole("tabpanel", { name: "العربية" });
    const arName = arPanel.getByRole("textbox", { name: "الاسم (العربية)" });
    expect(await arName.getAttribute("dir")).toBe("rtl");
    expect(await arPanel.getByRole("textbox", { name: "وصف مختصر (العربية)" }).getAttribute("dir")).toBe("rtl");
    expect(await arPanel.getByRole("button", { name: "الترجمة بالذكاء الاصطناعي" }).isDisabled()).toBe(true);

    await arName.fill("إنجليزي فقط");
    await arPanel.getByRole("textbox", { name: "وصف مختصر (العربية)" }).fill("لا نسخة عربية بعد.");
    await (await htmlSource(arPanel, "ar.caseStudy")).fill("<p>بالعربية.</p>");
    await arPanel.getByRole("checkbox").check();
    await page.getByRole("button", { name: "تحديث", exact: true }).click();
    await expect.poll(() => saidSaved(page)).toBe("تم حفظ «Only English e2e».");
    const stored = await versions(CONTENT_MODEL.venture.collectionId, "only-english-e2e");
    const ar = stored.find((d) => d.locale === "ar")!;
    const en = stored.find((d) => d.locale !== "ar")!;
    // The shared fields are the English version's; reviewed against the English version as it is: up to date.
    expect(ar).toMatchObject({ name: "إنجليزي فقط", websiteURL: en.websiteURL, logoUrl: en.logoUrl, reviewed: true });
    expect(ar.sourceHash).toBe(translationHash("venture", en));
  });
});

describe("Translate with AI (Gemini is a local fake)", () => {
  let gemini: FakeGemini;
  beforeAll(async () => {
    gemini = await startFakeGemini();
    process.env.GEMINI_API_KEY = "test-key";
    process.env.GEMINI_BASE_URL = gemini.baseUrl;
  });
  afterAll(async () => {
    delete process.env.GEMINI_API_KEY;
    delete process.env.GEMINI_BASE_URL;
    await gemini?.close();
  });

  it("drafts the Arabic version from the English one on the server, saved unreviewed with its provenance", async () => {
    const user = await createUser(stack, newUser("Tariq"));
    const page = await stack.page();
    await signInAs(stack, page, user, { to: "/admin/ventures/new" });
    const enPanel = page.getByRole("tabpanel", { name: "English" });
    await enPanel.getByRole("textbox", { name: "Name", exact: true }).fill("Ledger Loop e2e");
    await enPanel.getByRole("textbox", { name: "Short Description", exact: true }).fill("Bookkeeping for clinics.");
    await (await htmlSource(enPanel, "caseStudy")).fill("<h2>Problem</h2><p>Books lag.</p>");
    await page.getByRole("textbox", { name: "Website URL" }).fill("https://ledger-loop.example");
    gemini.script({
      json: {
        name: "حلقة الدفاتر",
        shortDescription: "مسك الدفاتر للعيادات.",
        caseStudy: "<h2>المشكلة</h2><p>تتأخر الدفاتر.</p>",
      },
    });
    await enPanel.getByRole("button", { name: "Translate with AI" }).click();
    const arPanel = page.getByRole("tabpanel", { name: "العربية" });
    await expect.poll(() => arPanel.getByRole("textbox", { name: "Name (العربية)" }).inputValue()).toBe("حلقة الدفاتر");
    expect(await page.getByRole("tab", { name: "العربية" }).getAttribute("aria-selected")).toBe("true");
    expect(await page.getByRole("status").filter({ hasText: "Drafted by" }).textContent()).toContain(
      "gemini-2.5-flash",
    );
    // The translated fields only, never the slug.
    const asked = JSON.stringify(gemini.requests.at(-1)?.body);
    expect(asked).toContain("Bookkeeping for clinics.");
    expect(asked).not.toContain("ledger-loop-e2e");

    // Issue #29: publishing asks first, in a dialog naming the versions.

    await page.getByRole("button", { name: "Publish…" }).click();

    await page.locator("dialog[open]").getByRole("button", { name: "Publish", exact: true }).click();
    await page.waitForURL((u) => u.pathname.startsWith("/admin/ventures/edit/"));
    const stored = await versions(CONTENT_MODEL.venture.collectionId, "ledger-loop-e2e");
    const en = stored.find((d) => d.locale === "en")!;
    const ar = stored.find((d) => d.locale === "ar")!;
    expect(ar).toMatchObject({
      caseStudy: "<h2>المشكلة</h2><p>تتأخر الدفاتر.</p>",
      sourceLocale: "en",
      translationModel: "gemini-2.5-flash",
      reviewed: false,
      sourceHash: translationHash("venture", en),
      websiteURL: "https://ledger-loop.example",
    });
  });
});
