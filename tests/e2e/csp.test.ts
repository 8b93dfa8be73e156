/**
 * SECURITY C21 in a real browser: the pages run under their nonce-based Content-Security-Policy with no
 * violation and no hydration error, and client-side navigation (which needs the scripts) works; every public
 * page in both languages is watched the same way by tests/e2e/pages.test.ts's axe loop, so this file adds what
 * that loop does not do: the login page, a form's client-side rules and a client navigation. C22: a real
 * violation reaches `/csp-report` past the site's mutation guard and is logged.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cspReports, hydrated, startStack, type Stack } from "./helpers.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => stack.close());

describe("Content-Security-Policy in Chromium", () => {
  it("reports no violation or hydration error on the login page, a form's client-side check and a client navigation", async () => {
    const page = await stack.page();
    const problems: string[] = [];
    // Some violations (a blocked eval that the script catches) reach only the report endpoint's log.
    const reports = cspReports(1000);
    page.on("console", (message) => {
      if (message.type() === "error" || /Content Security Policy|hydrat/i.test(message.text()))
        problems.push(`${page.url()}: ${message.text().slice(-2500)}`);
    });
    page.on("pageerror", (error) => problems.push(error.message));

    // The community form's client-side rules (zod) run under the CSP too.
    await page.goto("/ar/community");
    await hydrated(page);
    await page.locator("form").getByLabel("البريد الإلكتروني").fill("not-an-address");
    await page.getByRole("button", { name: "أرسل الطلب" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("يرجى تعبئة جميع الحقول بشكل صحيح.");
    await page.goto("/en/login");
    await page.waitForLoadState("networkidle");
    await page.locator("#email").fill("csp@example.com");
    await page
      .getByRole("button", { name: /register|no account/i })
      .first()
      .click();
    await page.goto("/en");
    await page.locator('main a[href="/en/ventures"]').first().click();
    await page.waitForURL("**/en/ventures");

    expect([...problems, ...(await reports())]).toEqual([]);
  });
});

describe("CSP reports in Chromium (C22)", () => {
  it("sends a blocked image's report to /csp-report, which logs it", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const page = await stack.page();
      await page.goto("/en");
      // Another origin than the page's: img-src allows 'self', data:, blob: and https: only. Never fetched.
      await page.evaluate(() => {
        const image = document.createElement("img");
        image.src = "http://127.0.0.2:9/blocked.png";
        document.body.append(image);
      });
      const logged = () => warn.mock.calls.map((call) => String(call[0]));
      await expect
        .poll(logged, { timeout: 10_000 })
        .toContain(
          `[csp] CSP violation (enforce): img-src blocked http://127.0.0.2:9/blocked.png on ${stack.site.url}/en`,
        );
    } finally {
      warn.mockRestore();
    }
  });
});
