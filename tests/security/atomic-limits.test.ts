/**
 * SECURITY C64 (issue #26 item 3) over real HTTP: a limit decides atomically, so a burst of concurrent
 * requests gets no more than the limit through one site process (login per e-mail, sign-ups per IP and per
 * IPv6 /64, visitor forms per IP); and the limit log is swept until no expired row is left. The AI limit's
 * burst is in `ai-limit.test.ts` (it needs the fake Gemini). Counts only: how many got through, never times.
 *
 * A second site on the same build trusts `X-Forwarded-For` (as behind one proxy), so each test can be its own
 * client IP; both share the server build's one limit lock, as one process does.
 */
import { createHash } from "node:crypto";
import { Query, TablesDB } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID, LIMITS } from "../../model/content.ts";
import { SERVICE_MODEL, SUBMISSION_MODEL } from "../../model/model.ts";
import { AppwriteEventLog } from "../../server/limits/event-log.ts";
import { startSite, type RunningSite } from "../../server/serve-site.ts";
import { ROOT } from "../helpers/fixtures.ts";
import { startSiteStack, Visitor, type Reply, type SiteStack } from "../helpers/site.ts";

let stack: SiteStack;
let proxied: RunningSite;
beforeAll(async () => {
  stack = await startSiteStack();
  proxied = await startSite({ root: ROOT, port: 0, trustProxy: true, pageCache: false });
});
afterAll(async () => {
  await proxied?.close();
  await stack?.close();
});

const PASSWORD = "correct horse battery";
/** Each test's time limit: dozens of concurrent logins (each a password hash in the emulator) on a shared machine. */
const HEAVY_MS = 120_000;
let counter = 0;
async function account(prefix: string): Promise<string> {
  const email = `${prefix}-${++counter}@example.com`;
  await stack.backend.services.users.create({ userId: `u${Date.now()}${counter}`, email, password: PASSWORD });
  return email;
}

const login = (email: string, password: string, ip: string): Promise<Reply> =>
  new Visitor(proxied.url).request("/en/login", {
    method: "POST",
    headers: { "X-Forwarded-For": ip },
    form: { intent: "login", email, password, redirectTo: "/admin" },
  });

/** Events of `key` in the site's limit log (keys are stored as SHA-256 hex). */
async function eventsOf(key: string): Promise<number> {
  const { total } = await new TablesDB(stack.backend.services.client).listRows({
    databaseId: DATABASE_ID,
    tableId: SERVICE_MODEL.limitEvent.collectionId,
    queries: [Query.equal("key", createHash("sha256").update(key).digest("hex")), Query.limit(1)],
  });
  return total;
}

const countOf = (replies: Reply[], status: number) => replies.filter((r) => r.status === status).length;

describe("atomic limits (C64)", () => {
  it(
    "checks at most 10 of 40 concurrent wrong passwords for one e-mail, and refuses the rest with 429",
    async () => {
      const email = await account("burst");
      const replies = await Promise.all(
        Array.from({ length: 40 }, () => login(email, "wrong password!", "203.0.113.40")),
      );
      expect(countOf(replies, 401)).toBeLessThanOrEqual(10);
      expect(countOf(replies, 429)).toBeGreaterThanOrEqual(30);
      expect(countOf(replies, 401) + countOf(replies, 429)).toBe(40);
      // The e-mail is locked now, the right password included.
      expect((await login(email, PASSWORD, "203.0.113.41")).status).toBe(429);
    },
    HEAVY_MS,
  );

  it(
    "refuses the right password sent while 29 wrong ones are checked, once 10 are counted",
    async () => {
      const email = await account("mixed");
      const wrong = Promise.all(Array.from({ length: 29 }, () => login(email, "wrong password!", "203.0.113.42")));
      // Sent once the burst has taken the e-mail's ten places (counted in the log as soon as they are let through).
      while ((await eventsOf(`login-email:${email}`)) < 10) await new Promise((resolve) => setTimeout(resolve, 5));
      const right = await login(email, PASSWORD, "203.0.113.42");
      const replies = await wrong;
      expect(right.status).toBe(429);
      expect(countOf(replies, 401)).toBeLessThanOrEqual(10);
      expect(countOf(replies, 429)).toBeGreaterThanOrEqual(19);
    },
    HEAVY_MS,
  );

  it(
    "makes at most 10 of 29 concurrent sign-ups from one IP, and from one IPv6 /64",
    async () => {
      const signUp = (ip: string, n: number) =>
        new Visitor(proxied.url).request("/en/login", {
          method: "POST",
          headers: { "X-Forwarded-For": ip },
          form: { intent: "register", name: "x", email: `signup-${ip}-${n}@example.com`, password: PASSWORD },
        });
      for (const ipOf of [() => "203.0.113.43", (n: number) => `2001:db8:26:3::${n.toString(16)}`]) {
        const replies = await Promise.all(Array.from({ length: 29 }, (_, n) => signUp(ipOf(n), n)));
        expect(countOf(replies, 302)).toBeLessThanOrEqual(10);
        expect(countOf(replies, 429)).toBeGreaterThanOrEqual(19);
      }
    },
    HEAVY_MS,
  );

  it(
    "stores at most 5 of 40 contact messages posted together from one IP",
    async () => {
      const email = "burst-form@example.com";
      const replies = await Promise.all(
        Array.from({ length: 40 }, () =>
          new Visitor(proxied.url).request("/en/contact", {
            method: "POST",
            headers: { "X-Forwarded-For": "203.0.113.44" },
            form: { name: "Spammer", email, message: "x".repeat(LIMITS.message) },
          }),
        ),
      );
      expect(countOf(replies, 200)).toBeLessThanOrEqual(5);
      expect(countOf(replies, 429)).toBeGreaterThanOrEqual(35);
      const stored = await stack.backend.services.databases.listDocuments({
        databaseId: DATABASE_ID,
        collectionId: SUBMISSION_MODEL.contactMessage.collectionId,
        queries: [Query.equal("email", email), Query.limit(100)],
      });
      expect(stored.total).toBeLessThanOrEqual(5);
    },
    HEAVY_MS,
  );
});

describe("the limit log's sweep (C64)", () => {
  it(
    "deletes every expired event, however many a burst left, and keeps the live ones",
    async () => {
      const log = new AppwriteEventLog(stack.backend.services);
      const now = Date.now();
      const hourAgo = now - 3_600_000;
      await Promise.all(Array.from({ length: 250 }, (_, i) => log.add(`sweep-test:${i % 7}`, hourAgo, 60_000)));
      await log.add("sweep-test:live", now, 3_600_000);

      expect(await log.sweepExpired(now)).toBeGreaterThanOrEqual(250);

      const tables = new TablesDB(stack.backend.services.client);
      const left = await tables.listRows({
        databaseId: DATABASE_ID,
        tableId: SERVICE_MODEL.limitEvent.collectionId,
        queries: [Query.lessThan("expiresAt", new Date(now).toISOString()), Query.limit(1)],
      });
      expect(left.total).toBe(0);
      expect(await log.recent("sweep-test:live", 3_600_000, now, 10)).toHaveLength(1);
    },
    HEAVY_MS,
  );
});
