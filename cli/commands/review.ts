import type { Command } from "commander";
import { EXIT } from "../exit-codes.ts";
import { emitJson } from "../output.ts";

/** Declares `studio review <file>...` on `program`. */
export function registerReview(program: Command): void {
  program
    .command("review")
    .description(
      "Mark translated versions reviewed: translation.reviewed: true and the source's current hash, so status says up-to-date.",
    )
    .argument("<files...>", "translated files (posts/x.ar.md), from the current folder or the content folder")
    .option("--dir <path>", "content folder", "content")
    .option("--json", "print the result as JSON")
    .action(async (files: string[], options: { dir: string; json?: boolean }) => {
      process.exitCode = await runReview(files, options);
    });
}

/**
 * `studio review <file>...`: the front matter edit that marks translations reviewed (`markReviewed`).
 * Needs no Appwrite. Exit 1 (nothing after it written) for a file that is not a valid translated version.
 */
export async function runReview(files: string[], options: { dir: string; json?: boolean }): Promise<number> {
  const { markReviewed } = await import("../../lib/translate/files.ts");
  const marked = await markReviewed(options.dir, files);
  if (options.json) emitJson("result", { reviewed: marked });
  else for (const file of marked) console.log(`reviewed ${file}`);
  return EXIT.ok;
}
