/** Generated post files for the push benchmarks: `posts/post-<i>.md`, Markdown with front matter. */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Writes `count` posts into `dir/posts` (created when missing), each `post-<i>.md` with a title, excerpt,
 * author, a February 2026 date and a short Markdown body (heading, bold, list, quote): the files
 * `push-bench.ts` pushes. With `arabic`, each also gets its Arabic version `post-<i>.ar.md` (2 items a post,
 * issue #33 item 6). Written 100 files at a time.
 */
export async function writePostFiles(dir: string, count: number, arabic = false): Promise<void> {
  await mkdir(path.join(dir, "posts"), { recursive: true });
  const write = (i: number) => {
    const day = String((i % 28) + 1).padStart(2, "0");
    return Promise.all([
      writeFile(
        path.join(dir, "posts", `post-${i}.md`),
        `---\ntitle: Post ${i}\nexcerpt: Generated post number ${i}.\nauthorName: Bench\npublishedDate: 2026-02-${day}\n---\n` +
          `## Section\n\nParagraph ${i} with **bold** text. Another sentence.\n\n- one\n- two\n\n> A quote.\n`,
      ),
      arabic
        ? writeFile(
            path.join(dir, "posts", `post-${i}.ar.md`),
            `---\ntitle: مقالة ${i}\nexcerpt: مقالة مولدة رقم ${i}.\nauthorName: Bench\n---\n## قسم\n\nفقرة ${i} فيها نص **عريض**.\n`,
          )
        : undefined,
    ]);
  };
  for (let i = 0; i < count; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, k) => write(i + k)));
  }
}
