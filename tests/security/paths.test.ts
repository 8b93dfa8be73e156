/**
 * SECURITY C63 (issue #26 item 2): paths stay inside the content folder.
 * - A slug is anyone's input (a user writes one through the REST API): `studio pull` refuses one that breaks
 *   the slug rule before any path is built, reports the document skipped and writes nothing anywhere.
 * - A symbolic link under `content/` that leads outside it is refused: an image is never read (so never
 *   published), a content file or folder is never read, and pull never writes through one.
 */
import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ID, Permission, Role } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileViewUrl } from "../../lib/appwrite/client.ts";
import { readContent } from "../../lib/content/read.ts";
import { pull } from "../../lib/publish/pull.ts";
import { push } from "../../lib/publish/push.ts";
import { DATABASE_ID, IMAGES_BUCKET_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { copyFixtureContent, startBackend, type Backend } from "../helpers/stack.ts";

let backend: Backend;
let contentDir: string;
/** A folder beside the content folder: nothing may ever be written into it or read from it. */
let outside: string;
let lockPath: string;

beforeEach(async () => {
  backend = await startBackend();
  contentDir = await copyFixtureContent();
  outside = await mkdtemp(path.join(tmpdir(), "studio-outside-"));
  lockPath = path.join(await mkdtemp(path.join(tmpdir(), "studio-lock-")), "studio-lock.json");
});
afterEach(async () => backend.close());

/** A post written straight into Appwrite (as the admin, or any user through the REST API, could). */
async function createPost(slug: string, extra: Record<string, unknown> = {}) {
  return backend.services.tablesDB.createRow({
    databaseId: DATABASE_ID,
    tableId: CONTENT_MODEL.post.collectionId,
    rowId: ID.unique(),
    data: {
      title: "Planted",
      slug,
      excerpt: "x",
      content: "<p>planted</p>",
      publishedDate: "2026-07-04T00:00:00.000+00:00",
      authorName: "Someone",
      ...extra,
    },
  });
}

/** Every file under `dir`, relative, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => !e.isDirectory())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describe("a remote slug never becomes a path (C63)", () => {
  it("skips a document whose slug climbs out of the content folder, and writes nothing outside it", async () => {
    // Given: `posts/../../<outside>/evil.html` resolves into the folder beside the content folder.
    const evil = `../../${path.basename(outside)}/evil`;
    const planted = await createPost(evil);
    const escape = await createPost("x\u001b]0;owned\u0007\u009b31m");
    const before = await filesUnder(contentDir);

    // When
    const result = await pull(backend.services, { contentDir, lockPath });

    // Then: both are reported skipped, named by document, with the slug shown escaped.
    expect(await filesUnder(outside)).toEqual([]);
    const skipped = result.items.filter((i) => i.action === "skip");
    expect(skipped.map((i) => i.documentId).sort()).toEqual([planted.$id, escape.$id].sort());
    expect(skipped.every((i) => i.file === undefined && /not a valid slug/.test(i.reason ?? ""))).toBe(true);
    expect(skipped.find((i) => i.documentId === planted.$id)?.slug).toBe(JSON.stringify(evil));
    expect(skipped.find((i) => i.documentId === escape.$id)?.slug).toBe('"x\\u001b]0;owned\\u0007\\u{9b}31m"');
    expect(result).toMatchObject({ skipped: 2, failed: 0 });
    // The fixture's own posts were written; nothing named after the planted slugs exists anywhere.
    const after = await filesUnder(contentDir);
    expect(after.filter((f) => !before.includes(f)).every((f) => /^posts\/[a-z0-9-]+\.html$/.test(f))).toBe(true);
    expect(after.some((f) => f.includes("evil"))).toBe(false);

    // A dry run refuses it the same way.
    const dry = await pull(backend.services, { contentDir, lockPath, dryRun: true, force: true });
    expect(dry.items.find((i) => i.documentId === planted.$id)).toMatchObject({ action: "skip" });
    expect(await filesUnder(outside)).toEqual([]);
  });

  it("does not write through a content file that is a link to a file outside", async () => {
    const victim = path.join(outside, "victim.html");
    await writeFile(victim, "precious\n");
    await symlink(victim, path.join(contentDir, "posts", "linked-post.html"));
    await createPost("linked-post");

    // The link is refused when content is read, so pull calls it a conflict; forced, it still writes nothing.
    expect((await readContent(contentDir)).issues).toContainEqual(
      expect.objectContaining({ file: "posts/linked-post.html", message: expect.stringMatching(/symbolic link/) }),
    );
    await pull(backend.services, { contentDir, lockPath });
    const forced = await pull(backend.services, { contentDir, lockPath, force: true });

    expect(await readFile(victim, "utf8")).toBe("precious\n");
    expect(forced.items.find((i) => i.slug === "linked-post")).toMatchObject({
      action: "skip",
      reason: expect.stringMatching(/symbolic link/),
    });
  });

  it("does not download an image into an images/ folder that links outside", async () => {
    const png = await readFile(path.join(contentDir, "images/hello-cover.png"));
    await writeFile(path.join(outside, "hello-cover.png"), png);
    await writeFile(
      path.join(outside, "alpha-logo.png"),
      await readFile(path.join(contentDir, "images/alpha-logo.png")),
    );
    await push(backend.services, { contentDir, lockPath });
    const upload = await backend.services.storage.createFile({
      bucketId: IMAGES_BUCKET_ID,
      fileId: ID.unique(),
      file: InputFile.fromBuffer(Buffer.concat([png, Buffer.from("distinct")]), "new.png"),
      permissions: [Permission.read(Role.any())],
    });
    await createPost("with-image", {
      featuredImageUrl: fileViewUrl(backend.services.target, IMAGES_BUCKET_ID, upload.$id),
    });
    // `images/` now leads to the folder outside.
    const { rm } = await import("node:fs/promises");
    await rm(path.join(contentDir, "images"), { recursive: true });
    await symlink(outside, path.join(contentDir, "images"));

    const result = await pull(backend.services, { contentDir, lockPath, force: true });

    expect(await filesUnder(outside)).toEqual(["alpha-logo.png", "hello-cover.png"]);
    expect(result.images).toEqual([]);
    expect(result.items.find((i) => i.slug === "with-image")).toMatchObject({
      action: "skip",
      reason: expect.stringMatching(/images\/with-image\.png is a symbolic link/),
    });
    await expect(readFile(path.join(contentDir, "posts/with-image.html"))).rejects.toThrow(/ENOENT/);
  });
});

describe("links under content/ that lead outside are refused (C63)", () => {
  it("never publishes an image that is a link to a file outside the content folder", async () => {
    // Given: a real PNG outside, linked from content/images/, used as a venture's logo.
    const secret = path.join(outside, "secret.png");
    await writeFile(secret, await readFile(path.join(contentDir, "images/alpha-logo.png")));
    await writeFile(secret, Buffer.concat([await readFile(secret), Buffer.from("private")]));
    await symlink(secret, path.join(contentDir, "images", "leak.png"));
    await writeFile(
      path.join(contentDir, "ventures", "leaky.md"),
      "---\nname: Leaky\nshortDescription: x\nwebsiteURL: https://leaky.example\nlogo: ../images/leak.png\n---\nBody\n",
    );

    // When
    const content = await readContent(contentDir);
    const result = await push(backend.services, { contentDir, lockPath });

    // Then: the file is refused, saying why; its bytes never reach the bucket.
    const issue = content.issues.find((i) => i.file === "ventures/leaky.md");
    expect(issue).toMatchObject({
      field: "logo",
      message: expect.stringMatching(/symbolic link .* outside the content folder/),
    });
    expect(result.items.some((i) => i.slug === "leaky" && i.status === "done")).toBe(false);
    const files = await backend.services.storage.listFiles({ bucketId: IMAGES_BUCKET_ID });
    for (const file of files.files) {
      const bytes = Buffer.from(
        await backend.services.storage.getFileView({ bucketId: IMAGES_BUCKET_ID, fileId: file.$id }),
      );
      expect(bytes.includes(Buffer.from("private"))).toBe(false);
    }
  });

  it("keeps an image linked to another file inside the content folder", async () => {
    await mkdir(path.join(contentDir, "images", "shared"));
    await writeFile(
      path.join(contentDir, "images", "shared", "logo.png"),
      await readFile(path.join(contentDir, "images/alpha-logo.png")),
    );
    await symlink(path.join(contentDir, "images", "shared", "logo.png"), path.join(contentDir, "images", "inside.png"));
    await writeFile(
      path.join(contentDir, "ventures", "linked.md"),
      "---\nname: Linked\nshortDescription: x\nwebsiteURL: https://linked.example\nlogo: ../images/inside.png\n---\nBody\n",
    );
    const { issues, items } = await readContent(contentDir);
    expect(issues).toEqual([]);
    expect(items.find((i) => i.slug === "linked")?.image).toMatchObject({ mimeType: "image/png" });
  });

  it("reads no content file from a kind folder or file that links outside", async () => {
    const elsewhere = path.join(outside, "posts");
    await mkdir(elsewhere);
    await writeFile(
      path.join(elsewhere, "foreign.md"),
      "---\ntitle: Foreign\nexcerpt: x\nauthorName: A\npublishedDate: 2026-01-01\n---\nBody\n",
    );
    await symlink(path.join(elsewhere, "foreign.md"), path.join(contentDir, "ventures", "foreign.md"));
    const { rm } = await import("node:fs/promises");
    await rm(path.join(contentDir, "posts"), { recursive: true });
    await symlink(elsewhere, path.join(contentDir, "posts"));

    const { items, issues } = await readContent(contentDir);

    expect(items.some((i) => i.kind === "post")).toBe(false);
    expect(issues).toContainEqual(
      expect.objectContaining({ file: "posts/", message: expect.stringMatching(/outside/) }),
    );
    expect(issues).toContainEqual(
      expect.objectContaining({ file: "ventures/foreign.md", message: expect.stringMatching(/outside/) }),
    );
  });
});
