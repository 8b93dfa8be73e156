/**
 * Issue #26 item 10: nothing is lost through `studio push` and `pull`.
 * - Two files declaring one slug and locale (a copy that kept the slug): both are reported, nothing of that
 *   slug is written or pruned, and the live item keeps what it had (before, the file that sorted first
 *   overwrote it and the genuine file was the one reported invalid).
 * - An item the schedule published is not an edit made in Appwrite: the next push of a local edit updates it
 *   (no conflict, exit 0), and pull leaves the author's `.md` alone (before: exit 4, and pull rewrote it as
 *   `.html`).
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Query } from "node-appwrite";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { exitCodeFor } from "../../cli/exit-codes.ts";
import { pull } from "../../lib/publish/pull.ts";
import { push } from "../../lib/publish/push.ts";
import { promoteDue } from "../../lib/publish/schedule.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { copyFixtureContent, startBackend, type Backend } from "../helpers/stack.ts";
import { CONTENT_MODEL } from "../../model/model.ts";

let backend: Backend;
let contentDir: string;
let options: { contentDir: string; lockPath: string; exportDir: string };

beforeEach(async () => {
  backend = await startBackend();
  contentDir = await copyFixtureContent();
  options = {
    contentDir,
    lockPath: path.join(contentDir, "studio-lock.json"),
    exportDir: path.join(contentDir, ".exports"),
  };
});
afterEach(async () => {
  vi.useRealTimers();
  await backend.close();
});

async function post(slug: string) {
  const page = await backend.services.databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId: CONTENT_MODEL.post.collectionId,
    queries: [Query.equal("slug", slug)],
  });
  return page.documents;
}

describe("two files with one slug", () => {
  it("reports both, writes and prunes nothing of that slug, and exits 1", async () => {
    expect((await push(backend.services, options)).failed).toBe(0);
    const [live] = await post("second-post");
    // A copy that kept the slug, sorting before the genuine file, with other words.
    const genuine = await readFile(path.join(contentDir, "posts/second-post.md"), "utf8");
    await writeFile(
      path.join(contentDir, "posts/a-copy.md"),
      genuine.replace("title: Second Post", "slug: second-post\ntitle: Copied Over"),
    );
    // The genuine file edited too: neither is written while the two claim one slug.
    await writeFile(path.join(contentDir, "posts/second-post.md"), genuine.replace("Text.", "Edited text."));

    const result = await push(backend.services, { ...options, prune: true, allowMassDelete: true });
    const named = result.issues.filter((i) => i.field === "slug").map((i) => i.file);
    expect(named.sort()).toEqual(["posts/a-copy.md", "posts/second-post.md"]);
    expect(result.issues.find((i) => i.file === "posts/a-copy.md")!.message).toContain("posts/second-post.md");
    expect(result.items.filter((i) => i.slug === "second-post")).toEqual([]);
    expect(result.deleted).toBe(0);
    expect(exitCodeFor(result)).toBe(1);
    expect(await post("second-post"), "the live post is untouched").toEqual([live]);

    // Pull writes nothing over either file while the slug is claimed twice.
    await backend.services.databases.updateDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      documentId: live!.$id,
      data: { title: "Edited in the admin" },
    });
    const pulled = await pull(backend.services, options);
    const outcome = pulled.items.find((i) => i.slug === "second-post")!;
    expect(outcome.action).toBe("conflict");
    expect(await readFile(path.join(contentDir, "posts/a-copy.md"), "utf8")).toContain("Copied Over");
    expect(await readFile(path.join(contentDir, "posts/second-post.md"), "utf8")).toContain("Edited text.");
  });
});

describe("an item the schedule published", () => {
  it("is not an edit: a local edit pushes without conflict, and pull keeps the .md", async () => {
    // Dated in the future at the push: scheduled, private.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"));
    await writeFile(
      path.join(contentDir, "posts/later.md"),
      "---\ntitle: Later\nexcerpt: Goes live by itself.\nauthorName: A\npublishedDate: 2030-06-01T09:00:00Z\n---\nFirst words.\n",
    );
    expect((await push(backend.services, options)).failed).toBe(0);
    expect((await post("later"))[0]!.status).toBe("scheduled");

    // Its time comes: the site's scheduler publishes it (a write to Appwrite, new $updatedAt).
    vi.setSystemTime(new Date("2030-06-02T00:00:00Z"));
    expect((await promoteDue(backend.services)).promoted).toBe(1);
    const promoted = (await post("later"))[0]!;
    expect(promoted.status).toBe("published");

    // Pull: nothing to bring back, the author's Markdown file stays as it is.
    const pulled = await pull(backend.services, options);
    expect(pulled.items.find((i) => i.slug === "later")).toMatchObject({ action: "unchanged", file: "posts/later.md" });
    expect((await readdir(path.join(contentDir, "posts"))).filter((n) => n.startsWith("later"))).toEqual(["later.md"]);

    // A local edit, then push: an update, not a conflict; the post stays published.
    const file = path.join(contentDir, "posts/later.md");
    await writeFile(file, (await readFile(file, "utf8")).replace("First words.", "Second words."));
    const result = await push(backend.services, options);
    expect(result.items.find((i) => i.slug === "later")).toMatchObject({ action: "update", status: "done" });
    expect(result.conflicts).toBe(0);
    expect(exitCodeFor(result)).toBe(0);
    const updated = (await post("later"))[0]!;
    expect(updated.status).toBe("published");
    expect(String(updated.content)).toContain("Second words.");
  });

  it("still stops for an edit made in Appwrite after the schedule published it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"));
    await writeFile(
      path.join(contentDir, "posts/later.md"),
      "---\ntitle: Later\nexcerpt: Goes live by itself.\nauthorName: A\npublishedDate: 2030-06-01T09:00:00Z\n---\nFirst words.\n",
    );
    await push(backend.services, options);
    vi.setSystemTime(new Date("2030-06-02T00:00:00Z"));
    await promoteDue(backend.services);
    const promoted = (await post("later"))[0]!;
    await backend.services.databases.updateDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      documentId: promoted.$id,
      data: { title: "Renamed in the admin" },
    });
    const file = path.join(contentDir, "posts/later.md");
    await writeFile(file, (await readFile(file, "utf8")).replace("First words.", "Second words."));
    const result = await push(backend.services, options);
    expect(result.items.find((i) => i.slug === "later")).toMatchObject({ action: "conflict" });
    expect(exitCodeFor(result)).toBe(4);
  });
});
