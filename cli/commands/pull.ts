import type { Command } from "commander";
import { withContext } from "../command-kit.ts";
import type { CommandContext } from "../context.ts";
import { EXIT } from "../exit-codes.ts";
import { interruptedLines, onInterrupt, type Progress } from "../interrupt.ts";
import { emitJson } from "../output.ts";
import { selectionFor } from "../selection.ts";

/** Declares `studio pull` and its flags on `program`. */
export function registerPull(program: Command): void {
  program
    .command("pull")
    .description(
      "Write items edited or created in Appwrite (the admin) back into content/ files, images included; name files or slugs to pull only those.",
    )
    .argument("[items...]", "content files (content/posts/x.md) or slugs (x); both language versions of each")
    .option("--dir <path>", "content folder", "content")
    .option("--dry-run", "print what would be written and write nothing")
    .option("--force", "overwrite files edited locally since the last sync")
    .option("--json", "print NDJSON events and a final result line")
    .action(async (items: string[], options: PullCommandOptions) =>
      withContext(options.json, (c) => runPull(c, { ...options, items })),
    );
}

export interface PullCommandOptions {
  dir: string;
  json?: boolean;
  force?: boolean;
  dryRun?: boolean;
  /** Files or slugs to pull (both language versions of each); empty or absent: everything. */
  items?: string[];
}

/**
 * `studio pull`: writes ventures and posts edited or created in Appwrite back into `content/`.
 * @returns 0, 4 when some items conflict, 5 when some failed.
 */
export async function runPull(context: CommandContext, options: PullCommandOptions): Promise<number> {
  const { pull } = await import("../../lib/publish/pull.ts");
  const only = await selectionFor(context, options.dir, options.items ?? [], "appwrite");
  const progress: Progress = { total: 0, done: {} };
  const stopWatching = onInterrupt(() => interruptedLines("pull", progress));
  const result = await pull(context.services, {
    only,
    contentDir: options.dir,
    lockPath: context.lockPath(options.dir),
    force: options.force,
    dryRun: options.dryRun,
    onEvent: (item) => {
      const key = item.status === "failed" ? "failed" : item.action === "write" ? "written" : item.action;
      progress.done[key] = (progress.done[key] ?? 0) + 1;
      if (options.json) return emitJson("item", item);
      if (item.action === "unchanged") return;
      const detail = item.error ?? item.reason;
      const verb =
        item.status === "failed" ? "failed" : options.dryRun && item.action === "write" ? "would write" : item.action;
      const where = item.file ?? `document ${item.documentId}`;
      const diff = item.action === "conflict" && item.file ? `; see both: studio diff ${options.dir}/${item.file}` : "";
      console.log(`${verb} ${item.kind} ${item.slug} (${where})${detail ? `: ${detail}` : ""}${diff}`);
    },
  }).finally(stopWatching);
  const { written, unchanged, skipped, conflicts, failed, images, dryRun } = result;
  if (options.json) emitJson("result", { written, unchanged, skipped, conflicts, failed, images, dryRun });
  else {
    console.log(
      `${dryRun ? "Dry run, nothing written: " : ""}${written} written, ${unchanged} unchanged, ${skipped} skipped, ` +
        `${conflicts} conflict(s), ${failed} failed; ${images.length} image(s) downloaded.`,
    );
  }
  if (failed > 0) return EXIT.partialFailure;
  return conflicts > 0 ? EXIT.conflict : EXIT.ok;
}
