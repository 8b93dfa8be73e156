/**
 * Several site processes on one Appwrite (issue #18 item 4; README "Running several site processes"): two
 * real site processes (each with its own page cache, realtime feed and memory) in front of one embedded
 * server. A write through either, or through `studio push`, shows on both within 2 s; the login, sign-up,
 * form and AI limits count across both (their events live in Appwrite's `limit_events`); a session made on
 * one works on the other.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { push } from "../../lib/publish/push.ts";
import { startSiteProcess, type SiteProcess } from "../../scripts/dev/processes.ts";
import { startFakeGemini, type FakeGemini } from "../helpers/fake-gemini.ts";
import { Visitor } from "../helpers/site.ts";
import { ROOT, startBackend, type Backend } from "../helpers/stack.ts";

let backend: Backend;
let gemini: FakeGemini;
let sites: SiteProcess[] = [];
let contentDir: string;
/** Accounts this file signed up from 127.0.0.1 (the sign-up limit counts them all). */
let signedUp = 0;
const register = async (v: Visitor, email: string) => {
  const reply = await v.register(email);
  if (reply.status === 302) signedUp++;
  return reply;
};

beforeAll(async () => {
  [backend, gemini] = await Promise.all([startBackend(), startFakeGemini()]);
  contentDir = await mkdtemp(path.join(tmpdir(), "two-sites-content-"));
  await cp(path.join(ROOT, "content"), contentDir, { recursive: true });
  const pushed = await push(backend.services, { contentDir, lockPath: path.join(contentDir, ".lock.json") });
  expect(pushed.failed).toBe(0);
  const target = backend.emulator;
  const env = { GEMINI_API_KEY: "test-key", GEMINI_BASE_URL: gemini.baseUrl };
  sites = await Promise.all([startSiteProcess(target, env), startSiteProcess(target, env)]);
  gemini.script({
    json: {
      title: "Two Sites",
      slug: "two-sites",
      excerpt: "Shared limits.",
      content: "<h2>Focus</h2><p>One job.</p><ul><li>a</li></ul><blockquote>Small is fast.</blockquote>",
    },
  });
}, 180_000);

afterAll(async () => {
  await Promise.all(sites.map((s) => s.stop()));
  await Promise.all([backend?.close(), gemini?.close(), rm(contentDir, { recursive: true, force: true })]);
});

/** Polls `pathname` on `site` until its HTML contains `text`; resolves with the ms it took. */
async function seenWithin(site: SiteProcess, pathname: string, text: string, limitMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const html = await (await fetch(site.url + pathname)).text();
    if (html.includes(text)) return Date.now() - started;
    if (Date.now() - started > limitMs)
      throw new Error(`${site.url}${pathname} did not show "${text}" in ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("two site processes on one Appwrite", () => {
  it("shows a studio push and an admin write on both within 2 s, with their page caches on", async () => {
    const [a, b] = sites as [SiteProcess, SiteProcess];
    // Both caches hold the list first.
    for (const site of sites) await fetch(site.url + "/en/ventures");

    const file = path.join(contentDir, "ventures", "clinic-ledger.md");
    await writeFile(file, (await readFile(file, "utf8")).replace(/^name: .*$/m, "name: Clinic Ledger Two"));
    const repushed = await push(backend.services, { contentDir, lockPath: path.join(contentDir, ".lock.json") });
    expect(repushed).toMatchObject({ failed: 0, updated: 1 });
    const pushSeen = await Promise.all(sites.map((s) => seenWithin(s, "/en/ventures", "Clinic Ledger Two", 2000)));
    expect(Math.max(...pushSeen)).toBeLessThan(2000);

    const editor = new Visitor(a.url);
    expect((await register(editor, "two-sites-editor@example.com")).status).toBe(302);
    const created = await editor.request("/admin/ventures/new", {
      method: "POST",
      form: {
        intent: "publish", // issue #29: only an explicit publish makes a save public
        name: "Harbor Desk",
        slug: "harbor-desk",
        websiteURL: "https://harbor.example",
        shortDescription: "Front desks for small ports.",
        caseStudy: "<h2>The Problem</h2><p>a</p><h2>Our Solution</h2><p>b</p><h2>The Market Opportunity</h2><p>c</p>",
      },
    });
    expect(created.status).toBe(302);
    for (const site of [a, b]) expect(await seenWithin(site, "/en/ventures", "Harbor Desk", 2000)).toBeLessThan(2000);
  });

  it("keeps a session made on one process valid on the other", async () => {
    const [a, b] = sites as [SiteProcess, SiteProcess];
    const onA = new Visitor(a.url);
    expect((await register(onA, "two-sites-session@example.com")).status).toBe(302);
    const onB = new Visitor(b.url);
    onB.cookie = onA.cookie;
    const admin = await onB.request("/admin");
    expect(admin.status).toBe(200);
    expect(admin.text).toContain("Dashboard");
  });

  it("counts the form limit across processes: 5 a minute per IP in all", async () => {
    const [a, b] = sites as [SiteProcess, SiteProcess];
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const site = i % 2 ? b : a;
      const reply = await new Visitor(site.url).request("/en/contact", {
        method: "POST",
        form: { name: "Lina", email: "lina@example.com", message: `Hello ${i}` },
      });
      statuses.push(reply.status);
    }
    expect(statuses.slice(0, 5).every((s) => s === 200)).toBe(true);
    expect(statuses[5]).toBe(429);
  });

  it("counts failed logins across processes: the 11th try for an e-mail is refused on either", async () => {
    const [a, b] = sites as [SiteProcess, SiteProcess];
    expect((await register(new Visitor(a.url), "two-sites-login@example.com")).status).toBe(302);
    for (let i = 0; i < 10; i++) {
      const site = i % 2 ? b : a;
      const reply = await new Visitor(site.url).login("two-sites-login@example.com", "wrong password here");
      expect(reply.status, `failure ${i + 1}`).toBe(401);
    }
    for (const site of [a, b]) {
      const blocked = await new Visitor(site.url).login("two-sites-login@example.com");
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(800);
    }
  });

  it("counts sign-ups per IP across processes: 10 an hour in all", async () => {
    const [a, b] = sites as [SiteProcess, SiteProcess];
    // Earlier tests of this file signed up some accounts from this IP: all count.
    const before = signedUp;
    let refused: number | null = null;
    for (let i = 0; refused === null && i < 12; i++) {
      const site = i % 2 ? b : a;
      const reply = await register(new Visitor(site.url), `two-sites-signup-${i}@example.com`);
      if (reply.status === 429) refused = i;
      else expect(reply.status).toBe(302);
    }
    expect(before).toBeGreaterThan(0);
    expect(signedUp).toBe(10);
    expect(refused).toBe(10 - before);
  });

  it("counts a user's AI calls across processes: 20 an hour in all", async () => {
    const [a, b] = sites as [SiteProcess, SiteProcess];
    const onA = new Visitor(a.url);
    // A fresh IP would be needed for another sign-up: sign in with the session test's account instead.
    expect((await onA.login("two-sites-session@example.com")).status).toBe(302);
    const onB = new Visitor(b.url);
    onB.cookie = onA.cookie;
    const draft = (v: Visitor) =>
      v.request("/admin/ai/draft", { method: "POST", form: { kind: "post", topic: "two sites" } });
    for (let i = 0; i < 20; i++) expect((await draft(i % 2 ? onB : onA)).status, `draft ${i + 1}`).toBe(200);
    expect((await draft(onA)).status).toBe(429);
    expect((await draft(onB)).status).toBe(429);
    expect(gemini.requests).toHaveLength(20);
  });
});
