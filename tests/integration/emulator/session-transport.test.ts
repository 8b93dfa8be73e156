import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Account as NodeAccount, Users } from "node-appwrite";
import { Account as WebAccount, Client as WebClient } from "appwrite";
import { projectClient, rejection, startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";

let env: TestEmulator;
const storage = new Map<string, string>();

beforeAll(async () => {
  // The web SDK keeps X-Fallback-Cookies in window.localStorage; Node has neither.
  const localStorage = {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => void storage.set(k, v),
    removeItem: (k: string) => void storage.delete(k),
  };
  Object.assign(globalThis, { window: Object.assign(globalThis, { localStorage }) });
  env = await startTestEmulator(undefined, { sessionDuration: 3600 });
  await new Users(env.admin).create({ userId: "web", email: "web@example.com", password: "password-123" });
});

afterAll(async () => {
  await env.stop();
});

async function login(email: string, password: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${env.emulator.endpoint}/account/sessions/email`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-appwrite-project": env.emulator.projectId, ...headers },
    body: JSON.stringify({ email, password }),
  });
}

describe("session transport", () => {
  it("given a login on 127.0.0.1, then both session cookies carry Appwrite's attributes and X-Fallback-Cookies holds the value", async () => {
    const before = Date.now();
    const response = await login("web@example.com", "password-123");
    expect(response.status).toBe(201);
    const session = (await response.json()) as { expire: string; secret: string };
    const expire = Date.parse(session.expire);
    expect(expire - before).toBeGreaterThanOrEqual(3600_000 - 1000);
    expect(expire - before).toBeLessThanOrEqual(3600_000 + 5000);
    const name = `a_session_${env.emulator.projectId}`;
    const cookies = response.headers.getSetCookie();
    expect(cookies).toHaveLength(2);
    const [main, legacy] = cookies as [string, string];
    expect(main).toMatch(new RegExp(`^${name}=[A-Za-z0-9+/=]+;`));
    expect(main).toContain("; Path=/");
    expect(main).toContain("; HttpOnly");
    expect(main).toContain("; SameSite=None");
    expect(main).not.toContain("Domain=");
    expect(main).toContain(`Expires=${new Date(session.expire).toUTCString()}`);
    expect(legacy.startsWith(`${name}_legacy=`)).toBe(true);
    expect(legacy).not.toContain("SameSite");
    const value = main.slice(name.length + 1, main.indexOf(";"));
    expect(JSON.parse(response.headers.get("x-fallback-cookies") ?? "{}")).toEqual({ [name]: value });
    expect(session.secret).toBe("");

    const viaCookie = await fetch(`${env.emulator.endpoint}/account`, {
      headers: { "x-appwrite-project": env.emulator.projectId, cookie: `${name}=${value}` },
    });
    expect(((await viaCookie.json()) as { $id: string }).$id).toBe("web");
    const viaLegacy = await fetch(`${env.emulator.endpoint}/account`, {
      headers: { "x-appwrite-project": env.emulator.projectId, cookie: `${name}_legacy=${value}` },
    });
    expect(viaLegacy.status).toBe(200);
  });

  it("given the web SDK in Node, when it signs in and out, then localStorage carries the session and is cleared", async () => {
    const client = new WebClient().setEndpoint(env.emulator.endpoint).setProject(env.emulator.projectId);
    const account = new WebAccount(client);
    const session = await account.createEmailPasswordSession({ email: "web@example.com", password: "password-123" });
    expect(session.secret).toBe("");
    expect(storage.get("cookieFallback")).toContain(`a_session_${env.emulator.projectId}`);
    expect((await account.get()).$id).toBe("web");
    await account.deleteSession({ sessionId: "current" });
    expect(storage.get("cookieFallback")).toBe("[]");
    const error: unknown = await account.get().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 401, type: "general_unauthorized_scope" });
  });

  it("given a browser origin, then CORS echoes loopback origins with credentials; a foreign origin's write is 403", async () => {
    const preflight = await fetch(`${env.emulator.endpoint}/account/sessions/email`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:5173", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(preflight.headers.get("access-control-allow-credentials")).toBe("true");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("X-Fallback-Cookies");
    const ok = await login("web@example.com", "password-123", { origin: "http://127.0.0.1:3000" });
    expect(ok.headers.get("access-control-expose-headers")).toBe("X-Appwrite-Session, X-Fallback-Cookies");
    const evil = await login("web@example.com", "password-123", { origin: "https://evil.example" });
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { type: string }).type).toBe("general_unknown_origin");
    expect(evil.headers.get("access-control-allow-origin")).not.toBe("https://evil.example");
  });
});

describe("login abuse limit", () => {
  it("given 10 wrong passwords for one email, then the 11th attempt and even the right password get 429; other emails are unaffected", async () => {
    await new Users(env.admin).create({ userId: "victim", email: "victim@example.com", password: "password-123" });
    await new Users(env.admin).create({
      userId: "bystander",
      email: "bystander@example.com",
      password: "password-123",
    });
    for (let i = 0; i < 10; i++) expect((await login("victim@example.com", "wrong-password")).status).toBe(401);
    const blocked = await login("victim@example.com", "wrong-password");
    expect(blocked.status).toBe(429);
    expect(((await blocked.json()) as { type: string }).type).toBe("general_rate_limit_exceeded");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await login("victim@example.com", "password-123")).status).toBe(429);
    expect((await login("bystander@example.com", "password-123")).status).toBe(201);
    const withKey = await rejection(
      new NodeAccount(env.admin).createEmailPasswordSession({
        email: "victim@example.com",
        password: "wrong-password",
      }),
    );
    expect(withKey.code).toBe(401);
    expect(
      (
        await new NodeAccount(env.admin).createEmailPasswordSession({
          email: "victim@example.com",
          password: "password-123",
        })
      ).userId,
    ).toBe("victim");
  });

  it("given failures then a success, then the counter starts again", async () => {
    await new Users(env.admin).create({
      userId: "forgetful",
      email: "forgetful@example.com",
      password: "password-123",
    });
    for (let i = 0; i < 9; i++) await login("forgetful@example.com", "wrong-password");
    expect((await login("forgetful@example.com", "password-123")).status).toBe(201);
    for (let i = 0; i < 10; i++) expect((await login("forgetful@example.com", "wrong-password")).status).toBe(401);
  });
});

describe("blocked users", () => {
  it("given a user with a session, when blocked by the API key, then requests and logins get 403 user_blocked", async () => {
    const users = new Users(env.admin);
    await users.create({ userId: "blocked", email: "blocked@example.com", password: "password-123" });
    const session = await new NodeAccount(env.admin).createEmailPasswordSession({
      email: "blocked@example.com",
      password: "password-123",
    });
    await users.updateStatus({ userId: "blocked", status: false });
    const request = await rejection(new NodeAccount(projectClient(env).setSession(session.secret)).get());
    expect([request.code, request.type]).toEqual([403, "user_blocked"]);
    const again = await rejection(
      new NodeAccount(env.admin).createEmailPasswordSession({ email: "blocked@example.com", password: "password-123" }),
    );
    expect([again.code, again.type]).toEqual([403, "user_blocked"]);
  });
});
