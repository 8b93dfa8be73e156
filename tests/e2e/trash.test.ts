/**
 * The trash (issue #29 item 9) in real Chromium, in English on a desktop and in Arabic (right to left) on a
 * 390 px phone: the delete dialog says both versions and their history move to the trash for 30 days; the
 * Trash page (linked from the navigation and the lists) lists the item with its kind, who deleted it and the
 * days left; Restore brings it back as a draft; the owner's "Delete forever" confirms, then removes it; no page
 * scrolls sideways on the phone.
 */
import { Teams } from "node-appwrite";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STUDIO_TEAM_ID } from "../../model/team.ts";
import { createUser, newUser, ready, sessionPages, type Credentials } from "./admin-helpers.ts";
import { PHONE, startStack, type Stack } from "./helpers.ts";

let stack: Stack;
let owner: Credentials;

beforeAll(async () => {
  stack = await startStack();
  owner = await createUser(stack, newUser("Olive Owner"));
  const { users, client } = stack.backend.services;
  const ownerId = (await users.list({ search: owner.email })).users.find((u) => u.email === owner.email)!.$id;
  // The schema step may have made the team, and the first sign-in its owner, already (issue #28): 409 is fine.
  const unlessThere = (error: { code?: number }) => {
    if (error.code !== 409) throw error;
  };
  const teams = new Teams(client);
  await teams.create({ teamId: STUDIO_TEAM_ID, name: "Studio" }).catch(unlessThere);
  await teams.createMembership({ teamId: STUDIO_TEAM_ID, roles: ["owner"], userId: ownerId }).catch(unlessThere);
}, 180_000);
afterAll(async () => {
  await stack?.close();
});

/** A page of the owner's on the dashboard in `locale` (one sign-in for the file). */
const signedIn = sessionPages(
  () => stack,
  () => owner,
);

/** Whether the page scrolls sideways (its document wider than the window). */
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/** Opens the delete dialog of the list row holding `name` and returns the dialog. */
async function openDelete(page: Page, name: string, deleteLabel: string, title: string) {
  const row = page.locator("tr").filter({ hasText: name });
  await row.first().waitFor();
  await row.first().getByRole("button", { name: deleteLabel, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: title });
  await expect.poll(() => dialog.isVisible()).toBe(true);
  return dialog;
}

describe("the trash", () => {
  it("in English on a desktop: says what goes, lists it, and restores it as a draft", async () => {
    const page = await signedIn("en");
    await page.goto("/admin/ventures");
    await ready(page);
    const dialog = await openDelete(page, "Clinic Ledger", "Delete", "Confirm Deletion");
    expect(await dialog.textContent()).toContain(
      "Both versions (English, العربية) and their history move to the trash for 30 days.",
    );
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await expect.poll(() => page.locator("tr").filter({ hasText: "Clinic Ledger" }).count()).toBe(0);
    const flash = page.locator("[data-flash]");
    await expect
      .poll(async () => (await flash.textContent())?.replace(/[\u2068\u2069]/g, ""))
      .toContain("Moved “Clinic Ledger” to the trash.");

    await page.getByRole("navigation").getByRole("link", { name: "Trash" }).click();
    await page.waitForURL((u) => u.pathname === "/admin/trash");
    await ready(page);
    const row = page.locator("tr").filter({ hasText: "Clinic Ledger" });
    await row.waitFor(); // under load the list may come after the URL has changed
    const cells = await row.locator("td").allTextContents();
    expect(cells.slice(0, 2)).toEqual(["Clinic Ledger", "Venture"]);
    expect(cells[2]).toContain("العربية");
    expect(cells[3]).toBe("Olive Owner");
    expect(cells[5]).toBe("30");

    await row.getByRole("button", { name: "Restore" }).click();
    const status = page.getByRole("status").filter({ hasText: "Restored" });
    await expect.poll(() => status.textContent()).toContain("Restored “Clinic Ledger” as a draft.");
    await expect.poll(() => row.count()).toBe(0);
    await status.getByRole("link", { name: "Open it" }).click();
    await page.waitForURL((u) => u.pathname.startsWith("/admin/ventures/edit/"));
    await page.goto("/admin/ventures?state=draft");
    await expect.poll(() => page.locator("tr").filter({ hasText: "Clinic Ledger" }).count()).toBe(1);
  });

  it("in Arabic on a 390 px phone: says what goes, and the owner deletes it forever after confirming", async () => {
    const page = await signedIn("ar", PHONE);
    await page.goto("/admin/ventures");
    await ready(page);
    expect(await overflows(page)).toBe(false); // the list's Trash link fits the phone too
    const dialog = await openDelete(page, "Signal Roster", "حذف", "تأكيد الحذف");
    expect(await dialog.textContent()).toContain(
      "تنتقل النسختان (English، العربية) وسجلّهما إلى سلة المهملات لمدة 30 يومًا.",
    );
    await dialog.getByRole("button", { name: "حذف", exact: true }).click();
    await expect.poll(() => page.locator("tr").filter({ hasText: "Signal Roster" }).count()).toBe(0);

    // The list links to the trash.
    await page.getByRole("main").getByRole("link", { name: "سلة المهملات" }).click();
    await page.waitForURL((u) => u.pathname === "/admin/trash");
    await ready(page);
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    const row = page.locator("tr").filter({ hasText: "Signal Roster" });
    expect(await row.textContent()).toContain("مشروع");
    expect(await overflows(page)).toBe(false);

    await row.getByRole("button", { name: "حذف نهائي" }).click();
    const confirm = page.getByRole("dialog", { name: "حذف نهائي؟" });
    await expect.poll(() => confirm.isVisible()).toBe(true);
    expect(await confirm.textContent()).toContain("لا يمكن التراجع عن ذلك.");
    expect(await overflows(page)).toBe(false);
    await confirm.getByRole("button", { name: "حذف نهائي" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "نهائيًا" }).count()).toBe(1);
    await expect.poll(() => row.count()).toBe(0);
    await page.getByText("سلة المهملات فارغة.").waitFor();
  });
});
