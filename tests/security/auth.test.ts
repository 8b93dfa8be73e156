/**
 * SECURITY.md rows on sessions and sign-in, checked over real HTTP against the site and the embedded server:
 * C1–C7 (cookie flags, size, lifetime, fresh token, logout, no token in URLs, no mutation via GET),
 * C13–C15 (throttling, no user enumeration), C29 (open redirects).
 */
import { ID } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentUser } from "../../server/auth/account.ts";
import { startSiteStack, Visitor, type SiteStack } from "../helpers/site.ts";

let stack: SiteStack;
beforeAll(async () => {
  stack = await startSiteStack();
});
afterAll(async () => stack.close());

const visitor = () => new Visitor(stack.site.url);
let counter = 0;
const email = (prefix: string) => `${prefix}-${++counter}@example.com`;
const PASSWORD = "correct horse battery";
/**
 * An account made through the API, so that tests not about registration do not use up the ten sign-ups an
 * hour that one IP gets (C14): every request here comes from 127.0.0.1.
 */
async function account(prefix: string): Promise<string> {
  const address = email(prefix);
  await stack.backend.services.users.create({ userId: ID.unique(), email: address, password: PASSWORD, name: prefix });
  return address;
}
/** A visitor signed in as a new account. */
async function signedIn(prefix: string): Promise<Visitor> {
  const v = visitor();
  expect((await v.login(await account(prefix))).status).toBe(302);
  return v;
}
/** The Appwrite session secret a visitor's cookie carries (the cookie value is the signed-off secret). */
const secretOf = (v: Visitor) =>
  JSON.parse(Buffer.from(decodeURIComponent(v.cookie.split("=")[1]!), "base64").toString()) as string;

describe("session cookie (C1–C4)", () => {
  it("is HttpOnly, SameSite=Lax, Path=/, without Domain, at most 30 days, and under 4 KB", async () => {
    const v = visitor();
    const reply = await v.register(email("cookie"));

    expect(reply.status).toBe(302);
    const header = reply.headers.get("set-cookie")!;
    expect(header).toMatch(/^studio_session=/); // plain name on http; `__Host-` + Secure on https (README)
    expect(header).toMatch(/; HttpOnly/i);
    expect(header).toMatch(/; SameSite=Lax/i);
    expect(header).toMatch(/; Path=\//i);
    expect(header).not.toMatch(/; Domain=/i);
    const maxAge = Number(/Max-Age=(\d+)/i.exec(header)?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(2_592_000);
    expect(v.cookie.length).toBeLessThanOrEqual(4096);
  });

  it("keeps Appwrite's session no longer than the cookie policy (C3)", async () => {
    const v = await signedIn("lifetime");
    const user = (await currentUser(stack.backend.emulator, secretOf(v)))!;
    const { sessions } = await stack.backend.services.users.listSessions({ userId: user.id });
    const seconds = (Date.parse(sessions[0]!.expire) - Date.now()) / 1000;
    expect(seconds).toBeLessThanOrEqual(2_592_000);
  });

  it("gives a fresh token on every login (C4)", async () => {
    const address = await account("fresh");
    const first = visitor();
    await first.login(address);
    const second = visitor();
    await second.login(address);
    expect(second.cookie).not.toBe("");
    expect(second.cookie).not.toBe(first.cookie);
  });
});

describe("logout and tokens (C5–C7)", () => {
  it("invalidates the session server-side: the old cookie no longer opens /admin, nor Appwrite", async () => {
    const v = await signedIn("logout");
    const oldCookie = v.cookie;
    const secret = secretOf(v);
    expect((await v.request("/admin")).status).toBe(200);

    const out = await v.request("/admin/logout", { method: "POST", form: {} });
    expect(out.status).toBe(302);
    expect(out.location).toBe("/en/login");
    expect(out.headers.get("set-cookie")).toMatch(/Max-Age=0/);

    const replay = await visitor().request("/admin", { headers: { Cookie: oldCookie } });
    expect(replay.status).toBe(302);
    expect(replay.location).toMatch(/^\/en\/login/);
    expect(await currentUser(stack.backend.emulator, secret)).toBeNull();
  });

  it("never puts the session secret in a redirect or a page (C6)", async () => {
    const v = visitor();
    const reply = await v.login(await account("secret"));
    const secret = secretOf(v);
    expect(reply.location).not.toContain(secret);
    for (const path of ["/admin", "/admin/ventures", "/admin/account", "/en"]) {
      expect((await v.request(path)).text).not.toContain(secret);
    }
  });

  it("does not sign out or delete on GET (C7)", async () => {
    const v = await signedIn("get");
    expect((await v.request("/admin/logout")).status).toBe(302);
    expect((await v.request("/admin")).status).toBe(200);
  });
});

describe("the password change", () => {
  it("tells a mismatch in the admin's language, keeping the password as it was", async () => {
    const address = await account("mismatch");
    const v = visitor();
    expect((await v.login(address)).status).toBe(302);
    const reply = await v.request("/admin/account", {
      method: "POST",
      headers: { Cookie: `${v.cookie}; locale=ar` },
      form: {
        intent: "password",
        currentPassword: PASSWORD,
        newPassword: "a brand new one",
        confirmPassword: "another one",
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.text).toMatch(/role="status"[^>]*>كلمتا المرور الجديدتان غير متطابقتين\.</);
    expect((await visitor().login(address)).status).toBe(302);
  });
});

describe("login throttling (C13, C14) and no user enumeration (C15)", () => {
  it("answers an unknown e-mail exactly like a wrong password (the timing is tests/timing/enumeration.test.ts)", async () => {
    const address = await account("enum");
    const alert = (html: string) => /role="alert"[^>]*>([^<]*)</.exec(html)?.[1];
    const wrong = await visitor().login(address, "wrong password!");
    const unknown = await visitor().login(email("nobody"), "wrong password!");
    expect(unknown.status).toBe(wrong.status);
    expect(alert(unknown.text)).toBe("Authentication failed. Please check your credentials.");
    expect(alert(unknown.text)).toBe(alert(wrong.text));
  });

  it("answers 401 to ten wrong passwords, then 429 with Retry-After, even to the right password", async () => {
    const address = await account("throttle");
    for (let i = 0; i < 10; i++) expect((await visitor().login(address, "wrong password!")).status).toBe(401);

    const blocked = await visitor().login(address, "wrong password!");
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await visitor().login(address)).status).toBe(429);

    // Another e-mail is not locked out by the attack on this one (C52).
    const other = await account("bystander");
    expect((await visitor().login(other)).status).toBe(302);
  });

  it("limits sign-ups to ten an hour per client IP, ignoring a spoofed X-Forwarded-For", async () => {
    // The cookie test registered one account from this IP already; count what is left of the ten.
    let status = 302;
    let attempts = 0;
    while (status !== 429 && attempts < 12) {
      status = (
        await visitor().request("/en/login", {
          method: "POST",
          headers: { "X-Forwarded-For": `10.0.0.${attempts}` },
          form: { intent: "register", name: "x", email: email("signup"), password: PASSWORD, redirectTo: "/admin" },
        })
      ).status;
      attempts++;
    }
    expect(status).toBe(429);
  });
});

describe("open redirects (C29)", () => {
  it.each([
    "https://evil.example",
    "//evil.example",
    "/\\evil.example",
    "\\/\\/evil.example",
    "%2F%2Fevil.example",
    "javascript:alert(1)",
    "/%09/evil.example",
    "/admin//evil.example",
  ])("sends %s to /admin after login", async (target) => {
    const address = await account("redirect");
    const reply = await visitor().login(address, undefined, target);
    expect(reply.location).toBe("/admin");
  });

  it("sends a signed-out visitor of an admin page to the login page with that page to come back to", async () => {
    for (const path of ["/admin", "/admin/ventures", "/admin/blog/new"]) {
      const reply = await visitor().request(path);
      expect(reply.status, path).toBe(302);
      expect(reply.location, path).toBe(`/en/login?redirectTo=${encodeURIComponent(path)}`);
    }
  });

  it("keeps a same-origin admin path with its query", async () => {
    const address = await account("keep");
    expect((await visitor().login(address, undefined, "/admin/ventures?x=1")).location).toBe("/admin/ventures?x=1");
  });
});
