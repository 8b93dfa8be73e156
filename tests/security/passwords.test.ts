/**
 * SECURITY C12 (ASVS v5 6.2.4): a password from the common-password list is refused wherever a password is
 * set, registration on the login page and the admin account page's password change, with a friendly message
 * in the page's language; nothing is created or changed.
 */
import { AppwriteException } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMON_PASSWORD_MESSAGE, register } from "../../server/auth/account.ts";
import { commonPasswordCount } from "../../server/auth/common-passwords.ts";
import type { AdminServices } from "../../lib/appwrite/client.ts";
import en from "../../web/i18n/locales/en.json";
import ar from "../../web/i18n/locales/ar.json";
import { startSiteStack, Visitor, type SiteStack } from "../helpers/site.ts";

let stack: SiteStack;
beforeAll(async () => {
  stack = await startSiteStack();
});
afterAll(async () => stack.close());

const GOOD = "correct horse battery";
/** React escapes `'` and `"` in text; the messages have neither, but keep the check honest. */
const inHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const usersWith = async (email: string) =>
  (await stack.backend.services.users.list({ search: email })).users.filter((u) => u.email === email).length;

describe("common passwords (C12)", () => {
  it("knows at least the top 3000 that fit the 8-character minimum", async () => {
    expect(await commonPasswordCount()).toBeGreaterThanOrEqual(3000);
  });

  it.each([
    ["en", "12345678"],
    ["en", "baseball"],
    ["en", "Password1"], // letter case does not make a listed password safe
    ["ar", "qwerty123"],
    ["ar", "iloveyou"],
  ] as const)("refuses registration on /%s/login with %s, saying why", async (locale, password) => {
    const email = `common-${locale}-${password.toLowerCase()}@example.com`;
    const reply = await new Visitor(stack.site.url).request(`/${locale}/login`, {
      method: "POST",
      form: { intent: "register", name: "Common", email, password, redirectTo: "/admin" },
    });

    expect(reply.status).toBe(400);
    expect(reply.headers.get("set-cookie") ?? "").not.toMatch(/studio_session=[^;]/);
    expect(reply.text).toContain(inHtml((locale === "ar" ? ar : en).auth.commonPassword));
    expect(await usersWith(email)).toBe(0);
  });

  it("still registers with a password that is not on the list", async () => {
    const v = new Visitor(stack.site.url);
    expect((await v.register("uncommon@example.com", GOOD)).status).toBe(302);
    expect(await usersWith("uncommon@example.com")).toBe(1);
  });

  it("refuses a common new password on the account page and keeps the old one", async () => {
    const v = new Visitor(stack.site.url);
    expect((await v.register("changer@example.com", GOOD)).status).toBe(302);

    const change = (newPassword: string) =>
      v.request("/admin/account.data", {
        method: "POST",
        form: { intent: "password", currentPassword: GOOD, newPassword, confirmPassword: newPassword },
      });
    const refused = await change("sunshine1");
    expect(refused.status).toBe(200);
    expect(refused.text).toContain("commonPassword");
    expect(refused.text).not.toContain("passwordUpdated");

    const other = new Visitor(stack.site.url);
    expect((await other.login("changer@example.com", "sunshine1")).status).toBe(401);
    expect((await other.login("changer@example.com", GOOD)).status).toBe(302);

    // A success goes back to the account page with its message as the admin's flash (issue #17 item 3).
    const accepted = await change("a much less common phrase");
    expect(accepted.text).toContain("/admin/account");
    expect(accepted.headers.get("set-cookie") ?? "").toMatch(/admin_flash=[^;]/);
    expect((await new Visitor(stack.site.url).login("changer@example.com", "a much less common phrase")).status).toBe(
      302,
    );
  });

  it("gives the same message when Appwrite's own dictionary (passwordDictionary) refuses the password", async () => {
    // Appwrite's validator description, as a real project with the setting on answers (400).
    const appwrite = {
      users: {
        create: () => {
          throw new AppwriteException(
            "Invalid `password` param: Password must be between 8 and 265 characters long, and should not be one of the commonly used password.",
            400,
            "general_argument_invalid",
          );
        },
      },
    } as unknown as AdminServices;
    await expect(
      register(appwrite, { name: "A", email: "a@example.com", password: GOOD }, { openRegistration: true }),
    ).rejects.toThrow(COMMON_PASSWORD_MESSAGE);
  });
});
