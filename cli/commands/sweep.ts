import { Option, type Command } from "commander";
import type { SweepResult } from "../../lib/publish/sweep.ts";
import { duration, withContext } from "../command-kit.ts";
import type { CommandContext } from "../context.ts";
import { EXIT } from "../exit-codes.ts";
import { emitJson, exportedLine } from "../output.ts";

export interface SweepCommandOptions {
  yes?: boolean;
  json?: boolean;
  /** Grace period in ms (parsed from `--older-than`). */
  olderThanMs: number;
  exportDir?: string;
}

/** The sweep's default grace period (`DEFAULT_SWEEP_GRACE_MS` in `lib/publish/sweep.ts`): 1 hour. */
const DEFAULT_GRACE_MS = 3_600_000;

/** Declares `studio sweep` and its flags on `program`. */
export function registerSweep(program: Command): void {
  program
    .command("sweep")
    .description(
      "List images no venture or post references (older than --older-than); with --yes, export then delete them.",
    )
    .option("-y, --yes", "delete the orphans (default: only list them)")
    .addOption(
      new Option(
        "--older-than <duration>",
        "only files at least this old (grace period): 0, or a number with s, m, h or d",
      )
        .argParser(duration)
        .default(DEFAULT_GRACE_MS, "1h"),
    )
    .option("--export-dir <path>", "where --yes first exports what it deletes (as push --prune)")
    .option("--json", "print NDJSON lines and a final result line")
    .action(async (options: { yes?: boolean; json?: boolean; olderThan: number; exportDir?: string }) =>
      withContext(options.json, (c) => runSweep(c, { ...options, olderThanMs: options.olderThan })),
    );
}

function summary(result: SweepResult): string {
  const { scanned, referenced, young, orphans, deleted, failed } = result;
  const found = `${scanned} file(s): ${referenced} referenced, ${young} unreferenced but too recent, ${orphans.length} orphan(s)`;
  if (result.dryRun) return `${found}. Dry run, nothing deleted${orphans.length ? "; pass --yes to delete them" : ""}.`;
  return `${found}; ${deleted} deleted, ${failed} failed.`;
}

/**
 * `studio sweep`: lists files of the images bucket no venture or post references (older than the grace
 * period); with `--yes`, exports and then deletes them. Never prompts (it runs from cron).
 * @returns 0, or 5 when some deletes failed.
 */
export async function runSweep(context: CommandContext, options: SweepCommandOptions): Promise<number> {
  const { sweepOrphans } = await import("../../lib/publish/sweep.ts");
  const result = await sweepOrphans(context.services, {
    olderThanMs: options.olderThanMs,
    apply: options.yes ?? false,
    exportDir: context.exportDir(options.exportDir),
  });
  if (options.json) {
    if (result.exported) emitJson("exported", result.exported);
    for (const orphan of result.orphans) emitJson("orphan", orphan);
    const { scanned, referenced, young, deleted, failed, dryRun } = result;
    emitJson("result", { scanned, referenced, young, orphans: result.orphans.length, deleted, failed, dryRun });
  } else {
    if (result.exported) console.log(exportedLine(result.exported));
    for (const o of result.orphans) {
      const verb = o.deleted ? "deleted" : o.error ? "failed" : "orphan";
      console.log(
        `${verb} ${o.id} (${o.name}, ${o.sizeBytes} bytes, created ${o.createdAt})${o.error ? `: ${o.error}` : ""}`,
      );
    }
    console.log(summary(result));
  }
  return result.failed > 0 ? EXIT.partialFailure : EXIT.ok;
}
