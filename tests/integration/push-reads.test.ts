/**
 * What `studio push` reads, and when (issue #33 item 6): a file whose stat matches the lock is not parsed, each
 * file is read again for its write (one edited since the plan is refused, not written), and a re-push of
 * unchanged content does not rewrite the lock (at 200,000 items, tens of MB fsynced for nothing). What a push
 * holds in memory is a figure, printed by `scripts/bench/push-memory.ts` (docs/decisions/0015: figures live in
 * benchmarks): `PUSH_GC=1` prints the heap after a full collection as the items are written.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { push } from "../../lib/publish/push.ts";
import { RACY_MS } from "../../lib/publish/push-source.ts";
import { CONTENT_KINDS, DATABASE_ID } from "../../model/content.ts";
import { startBackend, type Backend } from "../helpers/stack.ts";

let backend: Backend;
beforeEach(async () => {
  backend = await startBackend();
});
afterEach(async () => backend.close());

/** A content folder of `posts` small posts, each in English and Arabic (2 items a post). */
async function bilingualPosts(posts: number): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "push-reads-"));
  await mkdir(path.join(dir, "posts"));
  for (let i = 0; i < posts; i++) {
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

describe("what studio push reads", () => {
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
