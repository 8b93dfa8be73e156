/**
 * SECURITY C21 in a real browser: the pages run under their nonce-based Content-Security-Policy with no
 * violation and no hydration error, and client-side navigation (which needs the scripts) works.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "./helpers.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => stack.close());

describe("Content-Security-Policy in Chromium", () => {
  it("reports no violation or hydration error on public pages and the login page", async () => {
    const page = await stack.page();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || /Content Security Policy|hydrat/i.test(message.text()))
        problems.push(`${page.url()}: ${message.text().slice(-2500)}`);
    });
    page.on("pageerror", (error) => problems.push(error.message));

    for (const path of ["/en", "/ar", "/en/services", "/ar/blog", "/en/contact", "/en/login"]) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
    }
    await page.locator("#email").fill("csp@example.com");
    await page
      .getByRole("button", { name: /register|no account/i })
      .first()
      .click();
    await page.goto("/en");
    await page.locator('main a[href="/en/ventures"]').first().click();
    await page.waitForURL("**/en/ventures");

    expect(problems).toEqual([]);
  });
});
