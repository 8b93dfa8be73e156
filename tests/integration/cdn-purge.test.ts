/**
 * Issue #32 item 3: the CDN purge hook. Every write of the one writer (publish, unpublish, schedule, the
 * scheduler's promotion, delete) POSTs the item's and its list's surrogate keys to `CDN_PURGE_URL`, after
 * the write, best effort: an unreachable or refusing hook is logged and the write still succeeds.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Query, type Models } from "node-appwrite";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { flushPurges } from "../../lib/publish/purge.ts";
import { promoteDue } from "../../lib/publish/schedule.ts";
import { deleteItemDocument, updateItemDocument } from "../../lib/publish/writer.ts";
import { push } from "../../lib/publish/push.ts";
import { ROOT, startBackend, type Backend } from "../helpers/stack.ts";
import path from "node:path";

let backend: Backend;
let hook: Server;
let hookUrl: string;
let status = 200;
const received: { keys: string[]; authorization: string | undefined }[] = [];

beforeAll(async () => {
  backend = await startBackend();
  await push(backend.services, { contentDir: path.join(ROOT, "content") });
  hook = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push({ keys: (JSON.parse(body) as { keys: string[] }).keys, authorization: req.headers.authorization });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/purge`;
});
afterEach(() => {
  delete process.env.CDN_PURGE_URL;
  delete process.env.CDN_PURGE_TOKEN;
  received.length = 0;
  status = 200;
  vi.restoreAllMocks();
});
afterAll(async () => {
  await new Promise<void>((resolve) => (hook ? hook.close(() => resolve()) : resolve()));
  await backend?.close();
});

async function rowOf(kind: "post" | "venture", slug: string, locale = "en"): Promise<Models.DefaultRow> {
  const page = await backend.services.tablesDB.listRows({
    databaseId: DATABASE_ID,
    tableId: CONTENT_MODEL[kind].collectionId,
    queries: [Query.equal("slug", slug), Query.equal("locale", locale)],
  });
  return page.rows[0]!;
}

/** The keys the hook received since the last reset, after the writer's batch went out. */
async function purged(): Promise<string[]> {
  await flushPurges();
  return received.flatMap((r) => r.keys);
}

describe("CDN_PURGE_URL", () => {
  it("gets the item's and its list's keys on unpublish, schedule, promotion and delete, with the token", async () => {
    process.env.CDN_PURGE_URL = hookUrl;
    process.env.CDN_PURGE_TOKEN = "a-token-of-sixteen-chars";
    const { tablesDB } = backend.services;
    const post = await rowOf("post", "join-learn-build-earn");

    await updateItemDocument(tablesDB, post.$id, {
      kind: "post",
      data: {},
      lifecycle: { state: "draft", publishAt: null },
      permissions: post.$permissions,
    });
    expect(await purged()).toEqual(["post:join-learn-build-earn", "list:post"]);
    expect(received[0]!.authorization).toBe("Bearer a-token-of-sixteen-chars");
    received.length = 0;

    const due = new Date(Date.now() - 1000).toISOString();
    const draft = await rowOf("post", "join-learn-build-earn");
    await updateItemDocument(tablesDB, post.$id, {
      kind: "post",
      data: {},
      lifecycle: { state: "scheduled", publishAt: due },
      permissions: draft.$permissions,
    });
    expect(await purged()).toEqual(["post:join-learn-build-earn", "list:post"]);
    received.length = 0;

    expect((await promoteDue(backend.services)).promoted).toBe(1);
    expect(await purged()).toEqual(["post:join-learn-build-earn", "list:post"]);
    received.length = 0;

    const venture = await rowOf("venture", "tender-forge", "ar");
    await deleteItemDocument(tablesDB, "venture", venture.$id);
    expect(await purged()).toEqual(["venture:tender-forge", "list:venture"]);
  });

  it("purges the old and the new slug when a save renames an item", async () => {
    process.env.CDN_PURGE_URL = hookUrl;
    const post = await rowOf("post", "what-is-a-micro-service-agency", "ar");
    await updateItemDocument(backend.services.tablesDB, post.$id, { kind: "post", data: { slug: "renamed-post" } });
    expect(await purged()).toEqual(["post:what-is-a-micro-service-agency", "post:renamed-post", "list:post"]);
  });

  it("never stands in the writer's way: a refusing or unreachable hook is logged and the write is kept", async () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const post = await rowOf("post", "shared-services-the-back-office-you-do-not-build");
    status = 500;
    process.env.CDN_PURGE_URL = hookUrl;
    await updateItemDocument(backend.services.tablesDB, post.$id, { kind: "post", data: { title: "Refused purge" } });
    await flushPurges();
    process.env.CDN_PURGE_URL = "http://127.0.0.1:9/nothing-listens-here";
    await updateItemDocument(backend.services.tablesDB, post.$id, { kind: "post", data: { title: "Lost purge" } });
    await flushPurges();
    expect((await rowOf("post", post.slug as string)).title).toBe("Lost purge");
    expect(lines.join("")).toMatch(/CDN purge refused \(500\) for post:shared-services/);
    expect(lines.join("")).toMatch(/CDN purge failed \(.+\) for post:shared-services/);
  });

  it("calls nothing when CDN_PURGE_URL is unset", async () => {
    const post = await rowOf("post", "the-business-service-network-explained");
    await updateItemDocument(backend.services.tablesDB, post.$id, { kind: "post", data: { title: "No hook" } });
    expect(await purged()).toEqual([]);
  });
});
