/**
 * `studio transfer` (issue #32 item 4) between two embedded servers: the source is a site with content in both
 * languages, images, history, submissions, a studio team and a registered owner; the target starts empty and is
 * reached with a key holding exactly the scopes the README lists. Given / when / then.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Account, Client, Query } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { EMBEDDED_SESSION_SECONDS } from "../../embedded-appwrite/embedded.ts";
import { createScopedKey, resolveProject } from "../../embedded-appwrite/project.ts";
import { startEmulator, type RunningEmulator } from "../../embedded-appwrite/server.ts";
import type { AppwriteSchema } from "../../lib/appwrite/setup.ts";
import { push } from "../../lib/publish/push.ts";
import { transferSide, type TransferSide } from "../../lib/transfer/side.ts";
import { transferScope, transferSite } from "../../lib/transfer/transfer.ts";
import { verifyTransfer } from "../../lib/transfer/verify.ts";
import { startSite } from "../../server/serve-site.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { STUDIO_TEAM_ID } from "../../model/team.ts";
import schemaJson from "../../model/appwrite.json" with { type: "json" };
import { ROOT, startBackend, type Backend } from "../helpers/stack.ts";
import { Visitor, markupOf } from "../helpers/site.ts";

const schema = schemaJson as AppwriteSchema;
const OWNER = { email: "owner@studio.example", password: "a long owner passphrase" };

/** The target key's scopes, exactly as the README lists them under "Move to a real Appwrite". */
const README_SCOPES = [
  "databases.read",
  "databases.write",
  "tables.read",
  "tables.write",
  "columns.read",
  "columns.write",
  "indexes.read",
  "indexes.write",
  "rows.read",
  "rows.write",
  "buckets.read",
  "buckets.write",
  "files.read",
  "files.write",
  "users.read",
  "users.write",
  "teams.read",
  "teams.write",
];

let source: Backend;
let targetDir: string;
let target: RunningEmulator;
let from: TransferSide;
let to: TransferSide;

/** Serves the site against `appwrite`, runs `visit` and stops it (one site at a time: it reads APPWRITE_*). */
async function withSite<T>(
  appwrite: { endpoint: string; projectId: string; apiKey: string },
  visit: (url: string) => Promise<T>,
) {
  process.env.APPWRITE_ENDPOINT = appwrite.endpoint;
  process.env.APPWRITE_PROJECT_ID = appwrite.projectId;
  process.env.APPWRITE_API_KEY = appwrite.apiKey;
  const site = await startSite({ root: ROOT, port: 0 });
  try {
    return await visit(site.url);
  } finally {
    await site.close();
  }
}

const PAGES = ["/en", "/ar", "/en/blog", "/ar/blog", "/en/ventures", "/ar/ventures"];

async function pagesOf(url: string): Promise<string[]> {
  const pages: string[] = [];
  for (const pathname of PAGES) {
    const html = markupOf(await (await fetch(url + pathname)).text());
    pages.push(
      html
        .replaceAll(url, "ORIGIN")
        .replace(/ nonce="[^"]*"/g, "")
        .replace(/<style[\s\S]*?<\/style>/g, ""),
    );
  }
  return pages;
}

/** Everything the source holds, as `verifyTransfer` reads it (to prove the source is never changed). */
async function snapshot(side: TransferSide): Promise<string> {
  const rows: unknown[] = [];
  for (const { databaseId, tableId } of transferScope(schema).tables) {
    rows.push((await side.services.tablesDB.listRows({ databaseId, tableId, queries: [Query.limit(500)] })).rows);
  }
  const users = (await side.services.users.list()).users;
  const files = (await side.services.storage.listFiles({ bucketId: "images" })).files;
  const members = (await side.teams.listMemberships({ teamId: STUDIO_TEAM_ID })).memberships.map((m) => [
    m.userId,
    m.roles,
  ]);
  return JSON.stringify({ rows, users, files, members });
}

beforeAll(async () => {
  source = await startBackend();
  const pushed = await push(source.services, { contentDir: path.join(ROOT, "content") });
  expect(pushed.failed).toBe(0);
  const sourceTarget = {
    endpoint: source.emulator.endpoint,
    projectId: source.emulator.projectId,
    apiKey: source.emulator.apiKey,
  };
  from = transferSide("source", sourceTarget);
  await withSite(sourceTarget, async (url) => {
    expect((await new Visitor(url).register(OWNER.email, OWNER.password)).status).toBe(302);
    const contact = await fetch(`${url}/ar/contact`, {
      method: "POST",
      body: new URLSearchParams({ name: "سامي", email: "sami@example.com", message: "مرحبا" }),
      redirect: "manual",
    });
    expect(contact.status).toBe(200);
  });
  const owner = (await from.services.users.list({ queries: [Query.equal("email", OWNER.email)] })).users[0]!;
  await from.teams.create({ teamId: STUDIO_TEAM_ID, name: "Studio" }).catch(() => undefined);
  const members = await from.teams.listMemberships({ teamId: STUDIO_TEAM_ID });
  if (!members.memberships.some((m) => m.userId === owner.$id)) {
    await from.teams.createMembership({ teamId: STUDIO_TEAM_ID, roles: ["owner"], userId: owner.$id });
  }

  targetDir = await mkdtemp(path.join(tmpdir(), "studio-transfer-target-"));
  resolveProject(targetDir, undefined, undefined, "venture-studio");
  const scopedKey = createScopedKey(targetDir, "studio transfer", README_SCOPES);
  target = await startEmulator({ dataDir: targetDir, port: 0, sessionDuration: EMBEDDED_SESSION_SECONDS });
  to = transferSide("target", { endpoint: target.endpoint, projectId: target.projectId, apiKey: scopedKey });
}, 120_000);

afterAll(async () => {
  await target?.close();
  await rm(targetDir, { recursive: true, force: true });
  await source?.close();
});

describe("studio transfer", () => {
  it("plans with counts on a dry run and writes nothing on either side", async () => {
    const before = await snapshot(from);
    const report = await transferSite(from, to, schema, { dryRun: true });
    const posts = report.phases.find((p) => p.phase === "rows" && p.scope === "blog_posts")!;
    const { total } = await from.services.tablesDB.listRows({ databaseId: DATABASE_ID, tableId: "blog_posts" });
    expect(posts).toMatchObject({ create: total, update: 0, unchanged: 0 });
    const users = await from.services.users.list();
    expect(users.users.map((u) => u.email)).toContain(OWNER.email);
    expect(report.phases.find((p) => p.phase === "users")).toMatchObject({ create: users.total, update: 0 });
    expect(report.differences).toBeUndefined();
    await expect(to.services.tablesDB.getTable({ databaseId: DATABASE_ID, tableId: "blog_posts" })).rejects.toThrow();
    expect((await to.services.users.list()).total).toBe(0);
    expect(await snapshot(from)).toBe(before);
  });

  it("resumes after an interruption, then verifies both sides the same; the source is unchanged", async () => {
    const before = await snapshot(from);
    let pages = 0;
    const interrupted = transferSite(from, to, schema, {
      events: {
        onProgress: (event) => {
          if (event.phase === "rows" && ++pages === 2)
            throw new Error("interrupted (as by Ctrl-C or a lost connection)");
        },
      },
    });
    await expect(interrupted).rejects.toThrow(/interrupted/);
    const partly = await verifyTransfer(from, to, transferScope(schema));
    expect(partly.length).toBeGreaterThan(0);

    const report = await transferSite(from, to, schema);
    expect(report.differences).toEqual([]);
    const created = report.phases.filter((p) => p.phase === "rows").reduce((n, p) => n + p.create, 0);
    const unchanged = report.phases.filter((p) => p.phase === "rows").reduce((n, p) => n + p.unchanged, 0);
    expect(unchanged).toBeGreaterThan(0); // what the first run wrote is not written again
    expect(created).toBeGreaterThan(0);
    expect(await snapshot(from)).toBe(before);
  }, 120_000);

  it("writes nothing on a second run (idempotent)", async () => {
    const report = await transferSite(from, to, schema);
    for (const phase of report.phases) expect(phase, JSON.stringify(phase)).toMatchObject({ create: 0, update: 0 });
    expect(report.differences).toEqual([]);
  });

  it("leaves a target that serves the same pages, where the owner signs in with the same password", async () => {
    const sourcePages = await withSite(from.services.target, pagesOf);
    const full = { endpoint: target.endpoint, projectId: target.projectId, apiKey: target.apiKey };
    await withSite(full, async (url) => {
      expect(await pagesOf(url)).toEqual(sourcePages);
      const visitor = new Visitor(url);
      expect((await visitor.login(OWNER.email, "a wrong passphrase")).status).not.toBe(302);
      const signedIn = await visitor.login(OWNER.email, OWNER.password);
      expect(signedIn.status).toBe(302);
      expect((await visitor.request("/admin")).status).toBe(200);
    });
    const session = await new Account(
      new Client().setEndpoint(target.endpoint).setProject(target.projectId),
    ).createEmailPasswordSession({ email: OWNER.email, password: OWNER.password });
    expect(session.userId).toBe(
      (await from.services.users.list({ queries: [Query.equal("email", OWNER.email)] })).users[0]!.$id,
    );
    const members = await to.teams.listMemberships({ teamId: STUDIO_TEAM_ID });
    expect(members.memberships.map((m) => [m.userEmail, m.roles, m.confirm])).toEqual([[OWNER.email, ["owner"], true]]);
    const messages = await to.services.tablesDB.listRows({ databaseId: DATABASE_ID, tableId: "contact_messages" });
    expect(messages.rows.map((r) => r["message"])).toEqual(["مرحبا"]);
  }, 120_000);

  it("names a record that differs on the target", async () => {
    const { rows } = await to.services.tablesDB.listRows({
      databaseId: DATABASE_ID,
      tableId: "ventures",
      queries: [Query.limit(1)],
    });
    await to.services.tablesDB.updateRow({
      databaseId: DATABASE_ID,
      tableId: "ventures",
      rowId: rows[0]!.$id,
      data: { name: "Changed on the target" },
    });
    const report = await transferSite(from, to, schema, { verifyOnly: true });
    expect(report.differences).toEqual([
      { scope: "rows:ventures", id: rows[0]!.$id, problem: "different on the target" },
    ]);
    const mended = await transferSite(from, to, schema);
    expect(mended.differences).toEqual([]);
  });

  it("as a command: names what is missing, a key's missing scope, and every difference (exit 5)", async () => {
    const { runTransfer } = await import("../../cli/commands/transfer.ts");
    const context = { services: from.services } as unknown as Parameters<typeof runTransfer>[0];
    const saved = { ...process.env };
    const lines: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    try {
      delete process.env.TARGET_APPWRITE_API_KEY;
      await expect(
        runTransfer(context, { toEndpoint: target.endpoint, toProject: target.projectId }),
      ).rejects.toMatchObject({
        exitCode: 3,
        message: expect.stringContaining("TARGET_APPWRITE_API_KEY"),
      });

      const narrow = createScopedKey(
        targetDir,
        "no rows.read",
        README_SCOPES.filter((s) => s !== "rows.read"),
      );
      await target.close();
      target = await startEmulator({ dataDir: targetDir, port: 0, sessionDuration: EMBEDDED_SESSION_SECONDS });
      process.env.TARGET_APPWRITE_API_KEY = narrow;
      const flags = { toEndpoint: target.endpoint, toProject: target.projectId };
      await expect(runTransfer(context, flags)).rejects.toMatchObject({
        exitCode: 3,
        message: expect.stringMatching(/missing scopes \(\["rows.read","documents.read"\]\)/),
      });

      process.env.TARGET_APPWRITE_API_KEY = target.apiKey;
      const full = transferSide("target", {
        endpoint: target.endpoint,
        projectId: target.projectId,
        apiKey: target.apiKey,
      });
      const { rows } = await full.services.tablesDB.listRows({
        databaseId: DATABASE_ID,
        tableId: "blog_posts",
        queries: [Query.limit(1)],
      });
      await full.services.tablesDB.deleteRow({ databaseId: DATABASE_ID, tableId: "blog_posts", rowId: rows[0]!.$id });
      expect(await runTransfer(context, { ...flags, verifyOnly: true })).toBe(5);
      expect(lines).toContain(`differs: rows:blog_posts ${rows[0]!.$id}: missing on the target`);
      expect(await runTransfer(context, flags)).toBe(0);
      expect(lines.at(-1)).toBe("Verified: the target holds what the source holds.");
    } finally {
      log.mockRestore();
      process.env = saved;
    }
  });
});
