/**
 * `studio push` killed midway (issue #9, SECURITY C44/C47): a push of 60 posts with images is killed with
 * SIGKILL after some documents exist; running it again exits 0 with exactly one document per slug, no
 * duplicate files, and no file that no document references.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Query } from "node-appwrite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseFileViewUrl } from "../../lib/appwrite/client.ts";
import { DATABASE_ID, IMAGES_BUCKET_ID } from "../../model/content.ts";
import { appwriteEnv, FIXTURE_CONTENT, ROOT, startBackend, type Backend } from "../helpers/stack.ts";
import { CONTENT_MODEL } from "../../model/model.ts";

const POSTS = 60;
let backend: Backend;
beforeEach(async () => {
  backend = await startBackend();
});
afterEach(async () => backend.close());

/** A content folder of `POSTS` posts, each with its own image (a PNG with distinct bytes after IEND). */
async function manyPosts(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "studio-many-"));
  await mkdir(path.join(dir, "posts"), { recursive: true });
  await mkdir(path.join(dir, "images"), { recursive: true });
  const png = await readFile(path.join(FIXTURE_CONTENT, "images/hello-cover.png"));
  for (let i = 0; i < POSTS; i++) {
    await writeFile(path.join(dir, "images", `cover-${i}.png`), Buffer.concat([png, Buffer.from(`post ${i}`)]));
    await writeFile(
      path.join(dir, "posts", `post-${i}.md`),
      `---\ntitle: Post ${i}\nexcerpt: Number ${i}.\nauthorName: Load Test\npublishedDate: 2026-01-01\n` +
        `featuredImage: ../images/cover-${i}.png\n---\n## Post ${i}\n\nText.\n`,
    );
  }
  return dir;
}

/**
 * Spawns `studio push --json`; with `killAfter`, sends SIGKILL once that many items were reported.
 * @returns the exit code (null when killed) and the signal.
 */
function studioPush(
  dir: string,
  killAfter?: number,
): Promise<{ code: number | null; signal: string | null; items: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, "cli/bin.js"), "push", "--dir", dir, "--json"], {
      cwd: ROOT,
      env: appwriteEnv(backend.emulator),
      stdio: ["ignore", "pipe", "inherit"],
    });
    let items = 0;
    let buffered = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      items += lines.filter((l) => l.includes('"type":"item"')).length;
      if (killAfter !== undefined && items >= killAfter) child.kill("SIGKILL");
    });
    child.on("exit", (code, signal) => resolve({ code, signal, items }));
  });
}

async function allPosts() {
  const page = await backend.services.databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId: CONTENT_MODEL.post.collectionId,
    queries: [Query.limit(1000)],
  });
  return page.documents;
}
async function allFiles() {
  return (await backend.services.storage.listFiles({ bucketId: IMAGES_BUCKET_ID, queries: [Query.limit(1000)] })).files;
}

describe("studio push killed midway", () => {
  it("converges on the next run: one document per slug, no duplicate or orphan files", async () => {
    const dir = await manyPosts();

    const killed = await studioPush(dir, 10);

    expect(killed.signal).toBe("SIGKILL");
    const partial = await allPosts();
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(POSTS); // really midway

    const rerun = await studioPush(dir);

    expect(rerun.code).toBe(0);
    const posts = await allPosts();
    const slugs = posts.map((p) => String(p.slug));
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(slugs.sort()).toEqual(Array.from({ length: POSTS }, (_, i) => `post-${i}`).sort());
    const files = await allFiles();
    expect(new Set(files.map((f) => f.signature)).size).toBe(files.length); // no two files with the same bytes
    const referenced = new Set(posts.map((p) => parseFileViewUrl(String(p.featuredImageUrl))?.fileId));
    expect(files.filter((f) => !referenced.has(f.$id)).map((f) => f.name)).toEqual([]); // no orphans
    expect(files).toHaveLength(POSTS);

    // The lock now describes everything: a third run writes nothing.
    const third = await studioPush(dir);
    expect(third.code).toBe(0);
    expect((await allPosts()).map((p) => p.$updatedAt).sort()).toEqual(posts.map((p) => p.$updatedAt).sort());
  }, 150_000); // three pushes of many posts as child processes: slow on a loaded machine (98 s at load 25)
});
