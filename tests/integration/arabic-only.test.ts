/**
 * Issue #29 item 8: an item may exist in Arabic only (an Arabic-first editor saves only the Arabic version).
 * `studio` copes with one: such a document, as the admin writes it (locale `ar`, no source), is pulled into its
 * own `.ar` file carrying the shared fields itself (there is no English version to inherit them from), and
 * that file pushes back as the same Arabic-only item.
 */
import { mkdir, mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ID, Permission, Role } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../embedded-appwrite/server.ts";
import { createAdminServices } from "../../lib/appwrite/client.ts";
import { withLegacyDatabases, type TestServices } from "../helpers/stack.ts";
import { applyContentSchema } from "../../lib/appwrite/content-schema.ts";
import type { AppwriteSchema } from "../../lib/appwrite/setup.ts";
import { pull } from "../../lib/publish/pull.ts";
import { push } from "../../lib/publish/push.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL, placeholderDocument } from "../../model/model.ts";
import current from "../../model/appwrite.json" with { type: "json" };

let dataDir: string;
let emulator: RunningEmulator;
let services: TestServices;
const dirs: string[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "arabic-only-"));
  emulator = await startEmulator({ dataDir, port: 0 });
  services = withLegacyDatabases(
    createAdminServices({ endpoint: emulator.endpoint, projectId: emulator.projectId, apiKey: emulator.apiKey }),
  );
  await applyContentSchema(services, current as AppwriteSchema);
});
afterAll(async () => {
  await emulator?.close();
  for (const dir of [dataDir, ...dirs]) await rm(dir, { recursive: true, force: true });
});

async function tempDir(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), name));
  dirs.push(dir);
  await mkdir(path.join(dir, "posts"));
  await mkdir(path.join(dir, "ventures"));
  return dir;
}

describe("an Arabic-only item in studio", () => {
  it("is pulled into its .ar file with the shared fields, and pushes back as the same item", async () => {
    const ids = { databaseId: DATABASE_ID, collectionId: CONTENT_MODEL.post.collectionId };
    await services.databases.createDocument({
      ...ids,
      documentId: ID.unique(),
      data: placeholderDocument("post", {
        slug: "arabic-only-post",
        locale: "ar",
        sourceLocale: null,
        title: "مقال بالعربية فقط",
        excerpt: "لا نسخة إنجليزية.",
        authorName: "سارة",
        content: "<h2>مرحبا</h2><p>نص عربي.</p>",
        publishedDate: "2026-03-14T00:00:00.000+00:00",
      }),
      permissions: [Permission.read(Role.any())],
    });

    const out = await tempDir("arabic-only-pull-");
    const pulled = await pull(services, { contentDir: out });
    expect(pulled.items.filter((i) => i.status === "failed")).toEqual([]);
    const files = await readdir(path.join(out, "posts"));
    expect(files).toEqual(["arabic-only-post.ar.html"]);
    const text = await readFile(path.join(out, "posts/arabic-only-post.ar.html"), "utf8");
    expect(text).toContain("title: مقال بالعربية فقط");
    expect(text).toContain("publishedDate: 2026-03-14");
    expect(text).not.toContain("translation:");

    // Pushed from that folder into an empty site, it is the same Arabic-only item.
    const { documents: before } = await services.databases.listDocuments(ids);
    for (const doc of before) await services.databases.deleteDocument({ ...ids, documentId: doc.$id });
    const pushed = await push(services, { contentDir: out, lockPath: path.join(out, "lock.json") });
    expect(pushed).toMatchObject({ created: 1, failed: 0 });
    const { documents } = await services.databases.listDocuments(ids);
    expect(documents.map((d) => [d.slug, d.locale, d.title, d.sourceLocale ?? null])).toEqual([
      ["arabic-only-post", "ar", "مقال بالعربية فقط", null],
    ]);
  });
});
