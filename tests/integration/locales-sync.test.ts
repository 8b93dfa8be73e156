import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ID, Permission, Role } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../embedded-appwrite/server.ts";
import { createAdminServices } from "../../lib/appwrite/client.ts";
import { withLegacyDatabases, type TestServices } from "../helpers/stack.ts";
import { applyContentSchema } from "../../lib/appwrite/content-schema.ts";
import { applySchema, type AppwriteSchema, type SchemaCollection } from "../../lib/appwrite/setup.ts";
import { pull } from "../../lib/publish/pull.ts";
import { push } from "../../lib/publish/push.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL, placeholderDocument, versionFields } from "../../model/model.ts";
import current from "../../model/appwrite.json" with { type: "json" };

let dataDir: string;
let emulator: RunningEmulator;
let services: TestServices;

/** The schema as it was before language versions: no version columns, one document per slug. */
function schemaBeforeLocales(): AppwriteSchema {
  const schema = structuredClone(current) as AppwriteSchema;
  const content = new Set<string>(Object.values(CONTENT_MODEL).map((k) => k.collectionId));
  const version = new Set(versionFields("post"));
  for (const collection of schema.collections as SchemaCollection[]) {
    if (!content.has(collection.$id)) continue;
    collection.attributes = collection.attributes.filter((a) => !version.has(a.key));
    collection.indexes = collection.indexes.map((i) =>
      i.key === "slug_locale_unique" ? { ...i, key: "slug_unique", attributes: ["slug"], orders: ["ASC"] } : i,
    );
  }
  return schema;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "locales-sync-"));
  emulator = await startEmulator({ dataDir, port: 0 });
  services = withLegacyDatabases(
    createAdminServices({ endpoint: emulator.endpoint, projectId: emulator.projectId, apiKey: emulator.apiKey }),
  );
});
afterAll(async () => {
  await emulator?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const EN = `---
title: Hello
excerpt: A greeting.
authorName: Team
publishedDate: 2026-03-14
---

<h2>Hello</h2>
<p>Hi.</p>
`;
const AR = `---
title: مرحبا
excerpt: تحية.
authorName: الفريق
translation:
  sourceLocale: en
  model: human
  reviewed: true
---

<h2>مرحبا</h2>
<p>أهلًا.</p>
`;

describe("language versions in Appwrite", () => {
  it("studio setup migrates an installation from before locales, idempotently", async () => {
    // Given the old schema and a post stored without a locale
    await applySchema(services, schemaBeforeLocales());
    const old = placeholderDocument("post", { slug: "old-post" });
    for (const key of versionFields("post")) delete old[key];
    await services.databases.createDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      documentId: ID.unique(),
      data: old,
      permissions: [Permission.read(Role.any())],
    });

    // When setup runs, then twice
    const changes = await applyContentSchema(services, current as AppwriteSchema);
    const again = await applyContentSchema(services, current as AppwriteSchema);

    // Then the columns, the index and the locale are there, the old index is gone, and the second run did nothing
    expect(changes).toEqual(
      expect.arrayContaining([
        "created attribute blog_posts.locale",
        "created attribute blog_posts.sourceHash",
        "created index blog_posts.slug_locale_unique",
        "deleted index blog_posts.slug_unique (replaced)",
        'set locale "en" on 1 document(s) of blog_posts',
      ]),
    );
    expect(again).toEqual([]);
    const ids = { databaseId: DATABASE_ID, collectionId: CONTENT_MODEL.post.collectionId };
    const { documents } = await services.databases.listDocuments(ids);
    expect(documents.map((d) => [d.slug, d.locale])).toEqual([["old-post", "en"]]);
    const { indexes } = await services.databases.listIndexes(ids);
    expect(indexes.map((i) => i.key)).toContain("slug_locale_unique");
    expect(indexes.map((i) => i.key)).not.toContain("slug_unique");
  });

  it("pushes each version as its own document and pulls it back into its own file", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "locales-content-"));
    await mkdir(path.join(dir, "posts"));
    await writeFile(path.join(dir, "posts/hello.md"), EN);
    await writeFile(path.join(dir, "posts/hello.ar.md"), AR);
    const lockPath = path.join(dir, "lock.json");

    const first = await push(services, { contentDir: dir, lockPath });
    expect(first).toMatchObject({ created: 2, failed: 0, conflicts: 0 });
    const second = await push(services, { contentDir: dir, lockPath });
    expect(second).toMatchObject({ created: 0, updated: 0, unchanged: 2 });

    const ids = { databaseId: DATABASE_ID, collectionId: CONTENT_MODEL.post.collectionId };
    const { documents } = await services.databases.listDocuments(ids);
    const arabic = documents.find((d) => d.slug === "hello" && d.locale === "ar")!;
    // The untranslated fields come from the English file; provenance is stored as columns
    expect(arabic).toMatchObject({ title: "مرحبا", sourceLocale: "en", translationModel: "human", reviewed: true });
    expect(Date.parse(String(arabic.publishedDate))).toBe(Date.parse("2026-03-14T00:00:00Z"));

    const out = await mkdtemp(path.join(tmpdir(), "locales-pull-"));
    await mkdir(path.join(out, "posts"));
    const pulled = await pull(services, { contentDir: out });
    expect(pulled.items.filter((i) => i.status === "failed" && i.slug === "hello")).toEqual([]);
    const text = await readFile(path.join(out, "posts/hello.ar.html"), "utf8");
    expect(text).toContain("title: مرحبا");
    expect(text).toMatch(/translation:\n {2}sourceLocale: en\n {2}model: human\n {2}reviewed: true/);
    expect(text).not.toContain("publishedDate"); // inherited from the English version
    expect(await readFile(path.join(out, "posts/hello.html"), "utf8")).toContain("title: Hello");
  });
});
