/**
 * The lock written in pieces (issue #33 item 6: a lock of 200,000 entries is ~90 MB of JSON): the same text as
 * `JSON.stringify` of the lock with its keys sorted (so it diffs as before), written atomically (a temporary
 * file renamed over the lock, SECURITY C47), private (mode 0600, SECURITY C73).
 */
import { mkdtemp, readFile, readdir, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lockChunks, readLock, sortKeys, writeLock, type LockFile } from "../../lib/publish/lock.ts";

/** A lock of `n` post entries (unsorted, some fields absent), and an empty kind. */
function lockOf(n: number): LockFile {
  const post: Record<string, unknown> = {};
  for (let i = n - 1; i >= 0; i--) {
    post[i % 2 ? `post-${i}@ar` : `post-${i}`] = {
      updatedAt: "2026-11-27T18:00:00.000+00:00",
      id: `row${i}`,
      hash: "a".repeat(64),
      ...(i % 3 ? { body: "b".repeat(64) } : { body: undefined }),
      ...(i % 5 ? {} : { bodyImages: { z: "/media/z", a: "/media/a" }, image: { url: "https://x/y", sha256: "c" } }),
    };
  }
  return {
    version: 1,
    projects: {
      zeta: { venture: {}, post },
      alpha: { post: {}, venture: { v: { id: "v", updatedAt: "u", hash: "h" } } },
    },
  } as unknown as LockFile;
}

describe("the lock file", () => {
  it("is written in pieces as the text of the sorted lock, atomically and private", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "lock-write-"));
    const file = path.join(dir, "studio-lock.json");
    await writeFile(file, "old");
    const lock = lockOf(1000);

    await writeLock(file, lock);

    const text = await readFile(file, "utf8");
    expect(text).toBe(`${JSON.stringify(sortKeys(lock), null, 2)}\n`);
    // More than one piece: the 1,000 entries are not one string.
    expect([...lockChunks(lock)].length).toBeGreaterThan(1000);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(["studio-lock.json"]); // the temporary file was renamed
    expect(await readLock(file)).toEqual(JSON.parse(text));
  });

  it("leaves the old lock whole when it cannot be written", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "lock-write-"));
    const file = path.join(dir, "studio-lock.json");
    await writeFile(file, "old");
    const circular = lockOf(100) as unknown as { projects: { zeta: { post: Record<string, unknown> } } };
    circular.projects.zeta.post["post-1@ar"] = circular; // JSON.stringify throws on a cycle

    await expect(writeLock(file, circular as unknown as LockFile)).rejects.toThrow();

    expect(await readFile(file, "utf8")).toBe("old");
    expect(await readdir(dir)).toEqual(["studio-lock.json"]);
  });
});
