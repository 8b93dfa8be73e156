import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ID, Permission, Query, Role } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileViewUrl, parseFileViewUrl } from "../../lib/appwrite/client.ts";
import { readContent } from "../../lib/content/read.ts";
import { ExportError, readExport } from "../../lib/publish/export.ts";
import { restoreExport } from "../../lib/publish/restore.ts";
import { pull } from "../../lib/publish/pull.ts";
import { push } from "../../lib/publish/push.ts";
import { DATABASE_ID, IMAGES_BUCKET_ID } from "../../model/content.ts";
import { copyFixtureContent, startBackend, type Backend } from "../helpers/stack.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { bodyDigest } from "../../lib/content/read.ts";
import type { LockFile } from "../../lib/publish/lock.ts";
import { bodyHtml } from "../../lib/content/body-html.ts";
import { threadSanitizeStats } from "../../lib/publish/push-bulk.ts";
import { warmSanitizerThread } from "../../lib/html/sanitize-thread.ts";

let backend: Backend;
let contentDir: string;
let options: { contentDir: string; lockPath: string; exportDir: string };

beforeEach(async () => {
  backend = await startBackend();
  contentDir = await copyFixtureContent();
  options = {
    contentDir,
    lockPath: path.join(contentDir, "studio-lock.json"),
    exportDir: path.join(await mkdtemp(path.join(tmpdir(), "studio-exports-")), "exports"),
  };
});
afterEach(async () => backend.close());

async function documents(collectionId: string) {
  const page = await backend.services.databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId,
    queries: [Query.limit(100)],
  });
  return page.documents;
}
async function fileCount() {
  return (await backend.services.storage.listFiles({ bucketId: IMAGES_BUCKET_ID })).total;
}
/** What a document holds, without the timestamps Appwrite sets on every write. */
const stored = ({ $createdAt: _c, $updatedAt: _u, $sequence: _s, ...rest }: Record<string, unknown>) => rest;
const bySlug = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.slug).localeCompare(String(b.slug));
async function findPost(slug: string) {
  return (await documents(CONTENT_MODEL.post.collectionId)).find((p) => p.slug === slug);
}
/** An edit made in the admin: a write to Appwrite that is not a push. */
async function adminEdit(slug: string, data: Record<string, unknown>) {
  const post = (await findPost(slug))!;
  await backend.services.databases.updateDocument({
    databaseId: DATABASE_ID,
    collectionId: CONTENT_MODEL.post.collectionId,
    documentId: post.$id,
    data,
  });
}

describe("studio push", () => {
  it("gives every pushed item, created in bulk or one by one, the studio team's update and delete (decision 0017)", async () => {
    await push(backend.services, options);
    const rows = [
      ...(await documents(CONTENT_MODEL.venture.collectionId)),
      ...(await documents(CONTENT_MODEL.post.collectionId)),
    ];
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) {
      expect(row.$permissions, String(row.slug)).toEqual(
        expect.arrayContaining(['update("team:studio")', 'delete("team:studio")']),
      );
    }
  });

  it("creates every published item on the first run, with HTML bodies and uploaded images", async () => {
    const result = await push(backend.services, options);

    // The draft is pushed too (issue #16), as a document only its editors (the studio team) may read.
    expect(result).toMatchObject({ created: 5, updated: 0, unchanged: 0, failed: 0, skipped: 0, conflicts: 0 });
    expect(result.drafts).toEqual(["posts/work-in-progress.md"]);
    const ventures = await documents(CONTENT_MODEL.venture.collectionId);
    const alpha = ventures.find((v) => v.slug === "alpha-agency")!;
    expect(alpha.caseStudy).toContain("<h2>The Problem</h2>");
    expect([...alpha.$permissions].sort()).toEqual(['delete("team:studio")', 'read("any")', 'update("team:studio")']);
    const file = parseFileViewUrl(String(alpha.logoUrl));
    expect(file?.bucketId).toBe(IMAGES_BUCKET_ID);
    const bytes = await backend.services.storage.getFileView({ bucketId: IMAGES_BUCKET_ID, fileId: file!.fileId });
    expect(Buffer.from(bytes)).toEqual(await readFile(path.join(contentDir, "images/alpha-logo.png")));

    // The image shared by a venture and a post is stored once; the draft is stored but not public.
    expect(await fileCount()).toBe(2);
    const posts = await documents(CONTENT_MODEL.post.collectionId);
    expect(posts.map((p) => p.slug).sort()).toEqual(["hello-world", "second-post", "work-in-progress"]);
    const draft = posts.find((p) => p.slug === "work-in-progress")!;
    expect(draft.status).toBe("draft");
    // Readable by its editors only (decision 0017), never by every signed-in account.
    expect([...draft.$permissions].sort()).toEqual([
      'delete("team:studio")',
      'read("team:studio")',
      'update("team:studio")',
    ]);
    expect((await findPost("hello-world"))?.status).toBe("published");
    expect((await findPost("second-post"))?.publishedDate).toBe("2026-05-02T08:30:00.000+00:00");
  });

  it("sanitizes HTML bodies before storing them", async () => {
    await push(backend.services, options);
    const beta = (await documents(CONTENT_MODEL.venture.collectionId)).find((v) => v.slug === "beta-works")!;
    expect(beta.caseStudy).not.toMatch(/<script|onclick|javascript:/i);
    expect(beta.caseStudy).toContain("<blockquote>Speed matters.</blockquote>");
  });

  it("writes nothing on a second run with nothing changed", async () => {
    await push(backend.services, options);
    const before = await documents(CONTENT_MODEL.venture.collectionId);

    const second = await push(backend.services, options);

    expect(second).toMatchObject({ created: 0, updated: 0, unchanged: 5, failed: 0 });
    expect((await documents(CONTENT_MODEL.venture.collectionId)).map((d) => d.$updatedAt)).toEqual(
      before.map((d) => d.$updatedAt),
    );
    expect(await fileCount()).toBe(2);
  });

  it("records each pushed body's digest in the lock, and still checks the bounds of a body edited since", async () => {
    await push(backend.services, options);
    const lock = JSON.parse(await readFile(options.lockPath, "utf8")) as LockFile;
    const entry = Object.values(lock.projects)[0]!.post["hello-world"]!;
    const file = path.join(contentDir, "posts/hello-world.md");
    const text = await readFile(file, "utf8");
    expect(entry.body).toBe(bodyDigest("markdown", text.slice(text.indexOf("---", 3) + 3).trim()));
    await writeFile(file, `${text}\n${"> ".repeat(40)}too deep\n`);

    const result = await push(backend.services, options);

    expect(result.issues).toContainEqual(expect.objectContaining({ file: "posts/hello-world.md", field: "body" }));
    expect(result).toMatchObject({ updated: 0, failed: 1 });
  });

  it("updates only the fields that changed in a file", async () => {
    await push(backend.services, options);
    const file = path.join(contentDir, "posts/hello-world.md");
    await writeFile(file, (await readFile(file, "utf8")).replace("The first fixture post.", "A new excerpt."));

    const result = await push(backend.services, options);

    expect(result).toMatchObject({ created: 0, updated: 1, unchanged: 4 });
    expect(result.items.find((i) => i.slug === "hello-world")?.changes).toEqual(["excerpt"]);
    expect((await findPost("hello-world"))?.excerpt).toBe("A new excerpt.");
  });

  it("fails an invalid file with its name and field, writes nothing of it, and still pushes the rest", async () => {
    await writeFile(
      path.join(contentDir, "posts/bad-date.md"),
      "---\ntitle: Bad\nexcerpt: x\nauthorName: A\npublishedDate: someday\nfeaturedImage: ../images/hello-cover.png\n---\nBody\n",
    );

    const result = await push(backend.services, options);

    expect(result.failed).toBe(1);
    expect(result.issues).toContainEqual(
      expect.objectContaining({ file: "posts/bad-date.md", field: "publishedDate" }),
    );
    expect(result.created).toBe(5);
    expect(await findPost("bad-date")).toBeUndefined();
  });

  it("with dryRun plans the work and writes nothing, not even the lock", async () => {
    const result = await push(backend.services, { ...options, dryRun: true });

    expect(result).toMatchObject({ created: 5, dryRun: true });
    expect(await documents(CONTENT_MODEL.venture.collectionId)).toEqual([]);
    expect(await fileCount()).toBe(0);
    await expect(readFile(options.lockPath, "utf8")).rejects.toThrow(/ENOENT/);
  });
});

describe("a first push of many new items (issue #33 item 5)", () => {
  it("sanitizes their bodies on the sanitizer thread too, storing exactly what sanitizing here stores", async () => {
    // Every body holds what the sanitizer must remove, so a body stored unsanitized shows wherever it was done.
    const posts = path.join(contentDir, "posts");
    const count = 50;
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        writeFile(
          path.join(posts, `many-${i}.md`),
          `---\ntitle: Many ${i}\nexcerpt: x\nauthorName: Bench\npublishedDate: 2026-02-01\n---\n` +
            `## Part ${i}\n\nText with **bold** <script>alert(1)</script>` +
            `<img src="https://example.com/a.png" onerror="alert(2)"> <a href="javascript:alert(3)">a</a>\n`,
        ),
      ),
    );
    // The thread ready before the writes (a push of 500 new items or more starts it while reading the files),
    // and a push small enough for a test given the same two lanes.
    await warmSanitizerThread();
    const before = threadSanitizeStats.bodies;
    const result = await push(backend.services, { ...options, offThreadFrom: 1 });
    expect(result.failed).toBe(0);
    expect(result.created).toBeGreaterThan(count);
    expect(threadSanitizeStats.bodies - before, "bodies sanitized on the thread").toBeGreaterThan(0);

    const rows = await backend.services.tablesDB.listRows({
      databaseId: DATABASE_ID,
      tableId: CONTENT_MODEL.post.collectionId,
      queries: [Query.limit(1000)],
    });
    expect(rows.total).toBe(result.created - (await documents(CONTENT_MODEL.venture.collectionId)).length);
    const stored = new Map(rows.rows.map((row) => [row.slug as string, row.content as string]));
    const many = (await readContent(contentDir)).items.filter((item) => item.slug.startsWith("many-"));
    expect(many).toHaveLength(count);
    for (const item of many) {
      expect(stored.get(item.slug), item.slug).toBe(bodyHtml(item));
      expect(stored.get(item.slug), item.slug).not.toMatch(/<script|onerror|javascript:/i);
    }
  });
});

describe("conflicts: an edit in the admin is never silently overwritten", () => {
  it("stops for an item edited in Appwrite since the last push, and overwrites it only with force", async () => {
    await push(backend.services, options);
    await adminEdit("hello-world", { excerpt: "Edited in the admin." });
    const file = path.join(contentDir, "posts/hello-world.md");
    await writeFile(file, (await readFile(file, "utf8")).replace("The first fixture post.", "Edited in the file."));

    const result = await push(backend.services, options);

    expect(result.conflicts).toBe(1);
    const conflict = result.items.find((i) => i.slug === "hello-world")!;
    expect(conflict.action).toBe("conflict");
    expect(conflict.reason).toMatch(/studio pull/);
    expect((await findPost("hello-world"))?.excerpt).toBe("Edited in the admin.");

    const forced = await push(backend.services, { ...options, force: true });
    expect(forced.updated).toBe(1);
    expect((await findPost("hello-world"))?.excerpt).toBe("Edited in the file.");
  });

  it("reports an item deleted in Appwrite since the last push instead of recreating it", async () => {
    await push(backend.services, options);
    const post = (await findPost("hello-world"))!;
    await backend.services.databases.deleteDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      documentId: post.$id,
    });

    const result = await push(backend.services, options);

    expect(result.items.find((i) => i.slug === "hello-world")?.action).toBe("conflict");
    expect(await findPost("hello-world")).toBeUndefined();
  });
});

describe("prune", () => {
  it("leaves an item whose file was removed unless pruning, then deletes it and its now unused image", async () => {
    await push(backend.services, options);
    await rm(path.join(contentDir, "posts/hello-world.md"));

    const kept = await push(backend.services, options);
    expect(kept.items.find((i) => i.slug === "hello-world")).toMatchObject({ action: "skip" });
    expect(await findPost("hello-world")).toBeDefined();

    const pruned = await push(backend.services, { ...options, prune: true });
    expect(pruned.deleted).toBe(1);
    expect(await findPost("hello-world")).toBeUndefined();
    expect(await fileCount()).toBe(1); // hello-cover.png was used by that post only
  });

  it("never deletes an item created in the admin, or one edited there since the last push", async () => {
    await push(backend.services, options);
    await backend.services.databases.createDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      documentId: ID.unique(),
      data: {
        title: "Admin post",
        slug: "admin-post",
        excerpt: "x",
        content: "<p>x</p>",
        publishedDate: "2026-01-01T00:00:00.000+00:00",
        authorName: "Admin",
      },
    });
    await rm(path.join(contentDir, "posts/second-post.md"));
    await adminEdit("second-post", { title: "Retitled in the admin" });

    const result = await push(backend.services, { ...options, prune: true });

    expect(result.deleted).toBe(0);
    expect(result.items.find((i) => i.slug === "second-post")?.action).toBe("conflict");
    expect(await findPost("admin-post")).toBeDefined();
    expect(await findPost("second-post")).toBeDefined();
  });
});

describe("backup before prune (C48)", () => {
  it("exports every document and image it deletes first, and restoring the export brings them back", async () => {
    await push(backend.services, options);
    const postsBefore = (await documents(CONTENT_MODEL.post.collectionId)).map(stored).sort(bySlug);
    const cover = await readFile(path.join(contentDir, "images/hello-cover.png"));
    await rm(path.join(contentDir, "posts/hello-world.md"));
    await rm(path.join(contentDir, "posts/second-post.md"));

    const pruned = await push(backend.services, { ...options, prune: true });

    expect(pruned.deleted).toBe(2);
    expect((await documents(CONTENT_MODEL.post.collectionId)).map((d) => d.slug)).toEqual(["work-in-progress"]);
    expect(await fileCount()).toBe(1); // hello-cover.png went with its post; alpha-logo.png is the venture's too
    expect(await readdir(options.exportDir)).toEqual([path.basename(pruned.exported!.path)]);
    expect(path.basename(pruned.exported!.path)).toMatch(/^prune-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.json$/);
    const exported = await readExport(pruned.exported!.path);
    expect(exported.documents.map((d) => d.data.slug).sort()).toEqual(["hello-world", "second-post"]);
    expect(exported.files).toHaveLength(2);

    const restored = await restoreExport(backend.services, exported);

    expect(restored).toMatchObject({ restored: { documents: 2, files: 1 }, existing: 1, conflicts: 0, failed: 0 });
    expect((await documents(CONTENT_MODEL.post.collectionId)).map(stored).sort(bySlug)).toEqual(postsBefore);
    expect(await fileCount()).toBe(2);
    const hello = (await findPost("hello-world"))!;
    const file = parseFileViewUrl(String(hello.featuredImageUrl))!;
    const bytes = await backend.services.storage.getFileView({ bucketId: IMAGES_BUCKET_ID, fileId: file.fileId });
    expect(Buffer.from(bytes)).toEqual(cover);
    // Restored items are not in the lock: a later push neither deletes nor recreates them.
    expect(await push(backend.services, { ...options, prune: true })).toMatchObject({ deleted: 0, created: 0 });
    expect(await documents(CONTENT_MODEL.post.collectionId)).toHaveLength(3); // and the draft;
  });

  it("deletes nothing, and writes nothing else, when the export cannot be written", async () => {
    await push(backend.services, options);
    const lockBefore = await readFile(options.lockPath, "utf8");
    await rm(path.join(contentDir, "posts/hello-world.md"));
    const file = path.join(contentDir, "posts/second-post.md");
    await writeFile(file, (await readFile(file, "utf8")).replace("Shares the logo", "Now shares the logo"));
    const notAFolder = path.join(contentDir, "ventures/alpha-agency.md", "exports");

    const error = await push(backend.services, { ...options, prune: true, exportDir: notAFolder }).catch((e) => e);

    expect(error).toBeInstanceOf(ExportError);
    expect((error as Error).message).toMatch(/Could not write the export to .*nothing was deleted.*--export-dir/);
    expect(await findPost("hello-world")).toBeDefined();
    expect((await findPost("second-post"))?.excerpt).toBe("Shares the logo image of the venture.");
    expect(await fileCount()).toBe(2);
    expect(await readFile(options.lockPath, "utf8")).toBe(lockBefore);
  });
});

describe("studio pull", () => {
  it("brings admin edits and admin-created items into files, and push → pull → push changes nothing", async () => {
    await push(backend.services, options);
    await adminEdit("hello-world", { excerpt: "Edited in the admin.", content: "<h2>New</h2><p>Rewritten.</p>" });
    const upload = await backend.services.storage.createFile({
      bucketId: IMAGES_BUCKET_ID,
      fileId: ID.unique(),
      file: InputFile.fromBuffer(await readFile(path.join(contentDir, "images/alpha-logo.png")), "cover.png"),
      permissions: [Permission.read(Role.any())],
    });
    await backend.services.databases.createDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      documentId: ID.unique(),
      data: {
        title: "Written in the admin",
        slug: "written-in-the-admin",
        excerpt: "New here.",
        content: "<h2>Hi</h2><p>From the admin.</p>",
        publishedDate: "2026-07-04T00:00:00.000+00:00",
        authorName: "Admin",
        featuredImageUrl: fileViewUrl(backend.services.target, IMAGES_BUCKET_ID, upload.$id),
      },
    });

    const pulled = await pull(backend.services, options);

    expect(pulled).toMatchObject({ written: 2, conflicts: 0, failed: 0 });
    // A Markdown file stays Markdown when its new body can be (issue #30 item 5).
    const hello = await readFile(path.join(contentDir, "posts/hello-world.md"), "utf8");
    expect(hello).toContain("excerpt: Edited in the admin.");
    expect(hello).toContain("---\n\n## New\n\nRewritten.\n");
    await expect(readFile(path.join(contentDir, "posts/hello-world.html"))).rejects.toThrow(/ENOENT/);
    const created = await readFile(path.join(contentDir, "posts/written-in-the-admin.html"), "utf8");
    // The admin's image has the same bytes as a local image: the file references it instead of a copy.
    expect(created).toContain("featuredImage: ../images/alpha-logo.png");
    expect((await readContent(contentDir)).issues).toEqual([]);

    const again = await push(backend.services, options);
    expect(again).toMatchObject({ created: 0, updated: 0, conflicts: 0, failed: 0, unchanged: 6 });
    expect(await pull(backend.services, options)).toMatchObject({ written: 0, unchanged: 6 });
  });

  it("downloads an image it does not have, and keeps a file edited on both sides unless forced", async () => {
    await push(backend.services, options);
    // A PNG no local file has: bytes after IEND are ignored by decoders but change the content hash.
    const distinct = Buffer.concat([
      await readFile(path.join(contentDir, "images/hello-cover.png")),
      Buffer.from("trailer"),
    ]);
    const upload = await backend.services.storage.createFile({
      bucketId: IMAGES_BUCKET_ID,
      fileId: ID.unique(),
      file: InputFile.fromBuffer(distinct, "new.png"),
    });
    await adminEdit("second-post", {
      featuredImageUrl: fileViewUrl(backend.services.target, IMAGES_BUCKET_ID, upload.$id),
    });
    const file = path.join(contentDir, "posts/hello-world.md");
    await writeFile(file, (await readFile(file, "utf8")).replace("The first fixture post.", "Local edit."));
    await adminEdit("hello-world", { excerpt: "Remote edit." });

    const result = await pull(backend.services, options);

    expect(result.images).toEqual(["images/second-post.png"]);
    expect(await readFile(path.join(contentDir, "images/second-post.png"))).toEqual(distinct);
    expect(result.items.find((i) => i.slug === "hello-world")?.action).toBe("conflict");
    expect(await readFile(file, "utf8")).toContain("Local edit.");

    const forced = await pull(backend.services, { ...options, force: true });
    expect(forced.items.find((i) => i.slug === "hello-world")?.action).toBe("write");
    expect(await push(backend.services, options)).toMatchObject({ created: 0, updated: 0, conflicts: 0 });
  });
});
