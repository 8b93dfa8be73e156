/**
 * Issue #28 in real Chromium: the owner's Team page in English and Arabic (members with their role, an
 * invitation whose link is shown to copy when no mail can be sent, accepted by the invitee at the site). An item
 * the user may not change, shown read-only with its reason before any typing in both languages, is server HTML:
 * tests/security/roles.test.ts "lets the owner and an invited editor correct a venture pushed from files…".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, newUser, ready, signInAs, type Credentials } from "./admin-helpers.ts";
import { cspReports, startStack, type Stack } from "./helpers.ts";

let stack: Stack;
let owner: Credentials;
beforeAll(async () => {
  stack = await startStack();
  // The first account ever registered is the studio team's owner (named at its first sign-in).
  owner = await createUser(stack, newUser("Olive Owner"));
});
afterAll(async () => {
  await stack?.close();
});

describe("the Team page", () => {
  it("lists the owner, invites an editor with a link to copy, in English and Arabic; the invitee joins", async () => {
    // The page hydrates as served, in both languages: no CSP report reaches the site (a page React had to render
    // again in the browser added a <style> without the nonce; the time zones' offsets differed, issue #27 note).
    const reports = cspReports();
    const page = await stack.page();
    await signInAs(stack, page, owner, { to: "/admin/team?lang=en" });
    expect(await page.locator("h1").textContent()).toBe("Team");
    const me = page.locator(`tr[data-member="${owner.email}"]`);
    expect(await me.textContent()).toContain("Owner");

    const invitee = `invitee-${Date.now()}@example.com`;
    await page.getByLabel("Email").fill(invitee);
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    const link = page.getByRole("textbox", { name: "Invite by e-mail" });
    await expect.poll(() => link.inputValue()).toMatch(/\/en\/join\?/);
    const url = await link.inputValue();
    expect(await page.getByText("No mail can be sent from this site.", { exact: false }).count()).toBe(1);
    expect(await page.locator(`tr[data-member="${invitee}"]`).textContent()).toContain("Editor");

    await page.goto("/admin/team?lang=ar");
    await ready(page);
    expect(await page.locator("h1").textContent()).toBe("الفريق");
    expect(await page.locator(`tr[data-member="${owner.email}"]`).textContent()).toContain("مالك");
    expect(await page.getByRole("heading", { name: "الدعوات المعلّقة" }).count()).toBe(1);
    expect(await reports()).toEqual([]);

    const guest = await stack.page();
    await guest.goto(new URL(url).pathname + new URL(url).search);
    await ready(guest);
    expect(await guest.locator("h1").textContent()).toBe("Join the studio team");
    await guest.getByLabel("Full Name").fill("Ivy Invitee");
    await guest.getByLabel("Password").fill("pass-word-invitee-ok");
    await guest.getByRole("button", { name: "Join the team" }).click();
    await guest.waitForURL(/\/admin$/);
  });
});
