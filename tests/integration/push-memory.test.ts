/**
 * `studio push` holds an item only until it is written (issue #33 item 6: 100,000 posts × 2 languages in
 * < 1 GB): once planned, an item's file, its rendering and its plan are dropped as soon as its result is
 * known, so what the push holds does not grow with the items it has written (the lock's entries and the
 * results aside, which the summary and the lock need). And a re-push of unchanged content does not rewrite
 * the lock (at 200,000 items, tens of MB fsynced for nothing).
 */
import { mkdir, mkdtemp, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { push } from "../../lib/publish/push.ts";
import { startBackend, type Backend } from "../helpers/stack.ts";

let backend: Backend;
beforeEach(async () => {
  backend = await startBackend();
});
afterEach(async () => backend.close());

/** A content folder of `posts` small posts, each in English and Arabic (2 items a post). */
async function bilingualPosts(posts: number): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "push-memory-"));
  await mkdir(path.join(dir, "posts"));
  for (let i = 0; i < posts; i++) {
    // A longer body than the bench's: what an item holds until it is written shows in the heap.
    const paragraph = `Paragraph ${i} with **bold** text and a [link](https://example.com/${i}). `.repeat(12);
    await writeFile(
      path.join(dir, "posts", `post-${i}.md`),
      `---\ntitle: Post ${i}\nexcerpt: Number ${i}.\nauthorName: Memory\npublishedDate: 2026-01-01\n---\n## Post ${i}\n\n${paragraph}\n`,
    );
    await writeFile(
      path.join(dir, "posts", `post-${i}.ar.md`),
      `---\ntitle: مقالة ${i}\nexcerpt: رقم ${i}.\nauthorName: Memory\n---\n## قسم\n\n${"فقرة فيها نص **عريض** ورابط. ".repeat(12)}\n`,
    );
  }
  return dir;
}

/** The heap in use after a full garbage collection (V8's `gc`, exposed for this test), in bytes. */
function heapAfterGc(): number {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
  return process.memoryUsage().heapUsed;
}

describe("studio push at scale", () => {
  it("holds what it has written no longer: the heap does not grow with the items written", async () => {
    const dir = await bilingualPosts(750); // 1,500 items: written 100 a request
    const heap: Record<number, number> = {};
    let total = 0;
    const result = await push(backend.services, {
      contentDir: dir,
      lockPath: path.join(dir, "studio-lock.json"),
      onEvent: (event) => {
        if (event.type !== "item") return;
        total = event.total;
        // After the first batches (modules loaded, code compiled), and with the last item written.
        if (event.done === 300 || event.done === event.total) heap[event.done] = heapAfterGc();
      },
    });

    expect(result.created).toBe(1500);
    const perItem = (heap[total]! - heap[300]!) / (total - 300);
    // Before: each written item stayed held with its file, body, front matter and plan (3.3 kB an item here,
    // this process also runs the embedded server); now its lock entry and its result remain (1.4 kB).
    expect(perItem).toBeLessThan(2000);
  }, 240_000);

  it("does not rewrite the lock when nothing changed", async () => {
    const dir = await bilingualPosts(20);
    const lockPath = path.join(dir, "studio-lock.json");
    await push(backend.services, { contentDir: dir, lockPath });
    const before = await stat(lockPath);

    const again = await push(backend.services, { contentDir: dir, lockPath });

    expect(again.unchanged).toBe(40);
    const after = await stat(lockPath);
    // write-file-atomic renames a new file over it: a rewrite is another inode.
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
  }, 120_000);
});
