/**
 * Issue #16 item 4 in real Chromium: an edit page lists the item's earlier versions with time and who saved,
 * shows the difference of the text fields from the current version, and restores one; the restore is itself
 * kept as a new version. In English and Arabic.
 */
import { Query } from "node-appwrite";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { adminPage, createUser, newUser, ready, seedAs, signInAs } from "./admin-helpers.ts";
import { startStack, type Stack } from "./helpers.ts";
import { CONTENT_MODEL } from "../../model/model.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const textbox = (page: Page, name: string) => page.getByRole("textbox", { name, exact: true });
const post = { authorName: "Ada", publishedDate: "2026-03-01", content: "<h2>Hi</h2><p>First words.</p>" };

async function stored(slug: string) {
  const page = await stack.backend.services.databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId: CONTENT_MODEL.post.collectionId,
    queries: [Query.equal("slug", slug)],
  });
  return page.documents[0]!;
}

describe("an edit page's history", () => {
  it("lists the earlier versions, shows what changed and restores one, as a new version", async () => {
    const ada = await createUser(stack, newUser("Ada"));
    const created = await seedAs(stack, ada, {
      kind: "post",
      input: { ...post, title: "Version one", slug: "history-in-browser", excerpt: "The first excerpt." },
    });
    const page = await adminPage(stack, ada);
    await page.goto(`/admin/blog/edit/${created.$id}`);
    await ready(page);
    const history = page.locator("[data-history]");
    expect(await history.getByRole("heading", { name: "History" }).isVisible()).toBe(true);
    await expect.poll(() => history.textContent()).toContain("No earlier versions yet.");

    await textbox(page, "Title").fill("Version two");
    await page.getByLabel("Excerpt").fill("The second excerpt.");
    await page.getByRole("button", { name: "Update", exact: true }).click();
    // The save stays on the edit page (issue #29 item 3) and confirms there.
    await expect.poll(() => page.locator("main [data-flash]").count()).toBe(1);
    await page.goto(`/admin/blog/edit/${created.$id}`);
    await ready(page);

    // Listed: the version the save replaced, with its time and who saved it.
    const rows = history.locator("[data-revision]");
    await expect.poll(() => rows.count()).toBe(1);
    const row = rows.first();
    expect(await row.textContent()).toContain("saved by Ada");
    expect(await row.locator("time").getAttribute("dateTime")).toBe(created.$updatedAt);

    // The difference of the text fields: only the changed ones, removed words struck, added ones underlined.
    await row.getByRole("button", { name: "Show changes" }).click();
    const diffs = row.locator("[data-field-diff]");
    expect(await diffs.count()).toBe(2); // title and excerpt; the body is the same
    const title = diffs.filter({ hasText: "Title" });
    expect(await title.locator("del").allTextContents()).toEqual(["one"]);
    expect(await title.locator("ins").allTextContents()).toEqual(["two"]);
    expect(await diffs.filter({ hasText: "Excerpt" }).locator("del").allTextContents()).toEqual(["first"]);

    // Restore asks first (issue #29 item 4); the page loads afresh with the old words, the flash at the top says
    // so, and the version it replaced joins the history.
    await row.getByRole("button", { name: "Restore this version" }).click();
    await page
      .getByRole("dialog", { name: "Restore this version?" })
      .getByRole("button", { name: "Restore", exact: true })
      .click();
    await page.locator('[data-flash="success"]').filter({ hasText: "Restored the English version of" }).waitFor();
    await ready(page);
    expect(await textbox(page, "Title").inputValue()).toBe("Version one");
    expect(await page.getByLabel("Excerpt").inputValue()).toBe("The first excerpt.");
    const doc = await stored("history-in-browser");
    expect(doc).toMatchObject({ title: "Version one", excerpt: "The first excerpt.", updatedBy: "Ada" });
    await expect.poll(() => rows.count()).toBe(2);
    await rows.first().getByRole("button", { name: "Show changes" }).click();
    expect(
      await rows.first().locator("[data-field-diff]").filter({ hasText: "Title" }).locator("del").allTextContents(),
    ).toEqual(["two"]);
  });

  it("speaks Arabic to an Arabic admin", async () => {
    const ada = await createUser(stack, newUser("Ada"));
    const created = await seedAs(stack, ada, {
      kind: "post",
      input: { ...post, title: "Arabic history", slug: "history-arabic", excerpt: "One." },
    });
    const page = await stack.page({ locale: "ar" });
    await signInAs(stack, page, ada, { locale: "ar", to: `/admin/blog/edit/${created.$id}` });
    const history = page.locator("[data-history]");
    expect(await history.getByRole("heading", { name: "السجل" }).isVisible()).toBe(true);
    await expect.poll(() => history.textContent()).toContain("لا توجد نسخ سابقة بعد.");
  });
});
