/** Generated post files for the push benchmarks: `posts/post-<i>.md`, Markdown with front matter. */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Writes `count` posts into `dir/posts` (created when missing), each `post-<i>.md` with a title, excerpt,
 * author, a February 2026 date and a short Markdown body (heading, bold, list, quote): the files
 * `push-bench.ts` pushes.
 */
export async function writePostFiles(dir: string, count: number): Promise<void> {
  await mkdir(path.join(dir, "posts"), { recursive: true });
  for (let i = 0; i < count; i++) {
    const day = String((i % 28) + 1).padStart(2, "0");
    await writeFile(
      path.join(dir, "posts", `post-${i}.md`),
      `---\ntitle: Post ${i}\nexcerpt: Generated post number ${i}.\nauthorName: Bench\npublishedDate: 2026-02-${day}\n---\n` +
        `## Section\n\nParagraph ${i} with **bold** text. Another sentence.\n\n- one\n- two\n\n> A quote.\n`,
    );
  }
}
