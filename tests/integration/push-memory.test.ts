/**
 * `studio push` holds an item only until it is written (issue #33 item 6: 100,000 posts × 2 languages in
 * < 1 GB): once planned, an item's file, its rendering and its plan are dropped as soon as its result is
 * known, so what the push holds does not grow with the items it has written (the lock's entries and the
 * results aside, which the summary and the lock need). And a re-push of unchanged content does not rewrite
 * the lock (at 200,000 items, tens of MB fsynced for nothing).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { push } from "../../lib/publish/push.ts";
import { RACY_MS } from "../../lib/publish/push-read.ts";
import { CONTENT_KINDS, DATABASE_ID } from "../../model/content.ts";
import { startBackend, type Backend } from "../helpers/stack.ts";

let backend: Backend;
beforeEach(async () => {
  backend = await startBackend();
});
afterEach(async () => backend.close());

/** A content folder of `posts` small posts, each in English and Arabic (2 items a post). */
async function bilingualPosts(posts: number, name = "post", repeat = 12): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "push-memory-"));
  await mkdir(path.join(dir, "posts"));
  for (let i = 0; i < posts; i++) {
    // A longer body than the bench's: what an item holds until it is written shows in the heap.
    const paragraph = `Paragraph ${i} with **bold** text and a [link](https://example.com/${i}). `.repeat(repeat);
    await writeFile(
      path.join(dir, "posts", `${name}-${i}.md`),
      `---\ntitle: Post ${i}\nexcerpt: Number ${i}.\nauthorName: Memory\npublishedDate: 2026-01-01\n---\n## Post ${i}\n\n${paragraph}\n`,
    );
    await writeFile(
      path.join(dir, "posts", `${name}-${i}.ar.md`),
      `---\ntitle: مقالة ${i}\nexcerpt: رقم ${i}.\nauthorName: Memory\n---\n## قسم\n\n${"فقرة فيها نص **عريض** ورابط. ".repeat(repeat)}\n`,
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
    // The heap grows by what a written item leaves (its lock entry and result, and the embedded server's own
    // growth: this process runs it; ~4 kB here) less what is dropped once it is written (its stub, plan and
    // rendering: since round 5 the plan holds a stub, not the parsed file, so less is dropped: 2.7 kB). An item
    // held once written (as before round 4) leaves all of it.
    expect(perItem).toBeLessThan(3500);
  }, 240_000);

  // One folder of 2,000 items pushed, then pushed again unchanged: the two pushes' planned heaps (one first push
  // of 2,000 for both figures; each is a few seconds of CI).
  it("plans from a small record an item, not the parsed file, and re-pushes unchanged files holding per item only its lock entry, its row's identity and its plan entry", async () => {
    await push(backend.services, { contentDir: await bilingualPosts(50) }); // loads what a push runs
    const dir = await bilingualPosts(1000, "big", 48); // 2,000 items, 3.5 kB (en) and 2.5 kB (ar) bodies
    const lockPath = path.join(dir, "studio-lock.json");
    await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100)); // stats trusted from the first push on
    const plannedHeap = async () => {
      const before = heapAfterGc();
      let planned = 0;
      const result = await push(backend.services, {
        contentDir: dir,
        lockPath,
        onEvent: (event) => {
          if (event.type === "planned") planned = heapAfterGc();
        },
      });
      return { result, perItem: (planned - before) / 2000 };
    };

    const first = await plannedHeap();
    expect(first.result.created).toBe(2000);
    // Before round 5 every item was held parsed (body, front matter, images) until written: 5–7 kB an item
    // with these bodies. Now its stub (identity, source hash, a SHA of its bytes; no closure, no lock record,
    // no stats, the state's date dropped once planned) and plan entry: ~2.1 kB an item measured here (this
    // process runs the embedded server too; ~1.3 kB in the push's own process, `push-memory.ts`).
    expect(first.perItem).toBeLessThan(2500);

    const again = await plannedHeap();
    expect(again.result.unchanged).toBe(2000);
    expect(again.result.read!.parsed).toBe(0);
    // The lock's entries (read by this push: ~0.6 kB each), the rows' `$id`/`$updatedAt` (not the whole light
    // rows, ~0.7 kB each before), a plan entry; no stub (a file known by its stat teaches the lock nothing):
    // 1.5–1.8 kB an item measured here (the embedded server runs in this process too). Before, every file was
    // parsed and held as well (5–7 kB an item more with these bodies).
    expect(again.perItem).toBeLessThan(2500);
  }, 240_000);

  it("reads each file again for its write: one edited after the plan is reported, not written; the next push writes it", async () => {
    const dir = await bilingualPosts(3);
    const lockPath = path.join(dir, "studio-lock.json");
    const file = path.join(dir, "posts", "post-1.md");
    const result = await push(backend.services, {
      contentDir: dir,
      lockPath,
      onEvent: (event) => {
        if (event.type === "planned")
          writeFileSync(file, readFileSync(file, "utf8").replace("title: Post 1", "title: Post One"));
      },
    });

    expect(result.created).toBe(5);
    expect(result.failed).toBe(1);
    const refused = result.items.find((i) => i.status === "failed")!;
    expect(refused.file).toBe("posts/post-1.md");
    expect(refused.error).toMatch(
      /edited or removed since the push planned it; nothing was written for it: push again/,
    );
    // The next push writes the file as it is now.
    const again = await push(backend.services, { contentDir: dir, lockPath });
    expect(again.created).toBe(1);
    const posts = { databaseId: DATABASE_ID, tableId: CONTENT_KINDS.post.collectionId };
    const rows = await backend.services.tablesDB.listRows({ ...posts, queries: [] });
    expect(rows.rows.map((r) => r["title"])).toContain("Post One");
  }, 120_000);

  it("does not parse a file whose stat matches the lock; a touched one is hashed, an edited one read", async () => {
    const dir = await bilingualPosts(10);
    const lockPath = path.join(dir, "studio-lock.json");
    // A stat is trusted only once the file is older than RACY_MS (an edit within the clock's tick).
    await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100));
    const first = await push(backend.services, { contentDir: dir, lockPath });
    expect(first.read).toEqual({ byStat: 0, byHash: 0, parsed: 20 });

    const again = await push(backend.services, { contentDir: dir, lockPath });
    expect(again.unchanged).toBe(20);
    expect(again.read).toEqual({ byStat: 20, byHash: 0, parsed: 0 });

    // `touch` (or a `git checkout`): a new mtime, the same bytes: hashed, not parsed; its new stat recorded.
    const touched = path.join(dir, "posts", "post-3.md");
    await utimes(touched, new Date(2020, 0, 1), new Date(2020, 0, 1));
    await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100)); // its ctime is now: wait to trust it
    const afterTouch = await push(backend.services, { contentDir: dir, lockPath });
    expect(afterTouch.read).toEqual({ byStat: 18, byHash: 2, parsed: 0 }); // post-3 and its Arabic version
    expect(afterTouch.unchanged).toBe(20);
    expect((await push(backend.services, { contentDir: dir, lockPath })).read).toEqual({
      byStat: 20,
      byHash: 0,
      parsed: 0,
    });

    // An edit that keeps the size and puts the mtime back is still seen (the ctime changed) and written.
    const edited = path.join(dir, "posts", "post-5.ar.md");
    const { mtime, size } = await stat(edited);
    await writeFile(edited, (await readFile(edited, "utf8")).replace("title: مقالة 5", "title: مقالة 7"));
    await utimes(edited, mtime, mtime);
    expect((await stat(edited)).size).toBe(size);
    const afterEdit = await push(backend.services, { contentDir: dir, lockPath });
    expect(afterEdit.read).toEqual({ byStat: 19, byHash: 0, parsed: 1 });
    expect(afterEdit.updated).toBe(1);
    expect(afterEdit.items.find((i) => i.action === "update")!.file).toBe("posts/post-5.ar.md");
  }, 120_000);

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
