import { createInterface } from "node:readline/promises";
import type { Command } from "commander";
import type { PlanEntry, PushEvent, PushOptions, PushResult } from "../../lib/publish/push.ts";
import { positiveInteger, withContext } from "../command-kit.ts";
import type { CommandContext } from "../context.ts";
import { EXIT, UsageError, exitCodeFor } from "../exit-codes.ts";
import { DEFAULT_CONTENT_LOCALE } from "../../model/locales.ts";
import { selectionFor } from "../selection.ts";
import { planned, tightenHeap } from "../heap.ts";
import { interruptedLines, onInterrupt, type Progress } from "../interrupt.ts";
import { conflictDetail, emitJson, exportedLine, reportIssues, reportWarnings, stateChange } from "../output.ts";

export interface PushCommandOptions {
  dir: string;
  dryRun?: boolean;
  json?: boolean;
  force?: boolean;
  prune?: boolean;
  yes?: boolean;
  /** Let `--prune` delete more than half of the items pushed from these files (SECURITY C59). */
  allowMassDelete?: boolean;
  concurrency?: number;
  /** Folder for the export written before `--prune` deletes (default: `CommandContext.exportDir`). */
  exportDir?: string;
  /** Files or slugs to push (both language versions of each); empty or absent: the whole folder. */
  items?: string[];
}

/** Declares `studio push` and its flags on `program`. */
export function registerPush(program: Command): void {
  program
    .command("push")
    .description(
      "Validate content/, plan against Appwrite, then create, update (and with --prune delete) items by slug; name files or slugs to push only those.",
    )
    .argument("[items...]", "content files (content/posts/x.md) or slugs (x); both language versions of each")
    .option("--dir <path>", "content folder", "content")
    .option("--dry-run", "print the plan and write nothing")
    .option("--force", "overwrite items edited in Appwrite since the last push (conflicts)")
    .option("--prune", "delete items whose files were removed (asks first; --yes in CI)")
    .option("-y, --yes", "answer yes to the --prune confirmation")
    .option(
      "--allow-mass-delete",
      "let --prune delete more than half of the items pushed from these files (otherwise exit 2, nothing deleted)",
    )
    .option("--concurrency <n>", "writes in flight at once", positiveInteger, 4)
    .option(
      "--export-dir <path>",
      "where --prune first exports what it deletes (default: DATA_DIR/exports, or .studio/exports with APPWRITE_ENDPOINT)",
    )
    .option("--json", "print NDJSON progress events and a final result line")
    .action(async (items: string[], options: PushCommandOptions) =>
      withContext(options.json, (c) => runPush(c, { ...options, items })),
    );
}

/** `post hello-world (ar, posts/hello-world.ar.md)`: an item's version, named with its locale and file. */
export function itemName(r: Pick<PlanEntry, "kind" | "slug" | "locale" | "file">): string {
  const where = [r.locale ?? DEFAULT_CONTENT_LOCALE, ...(r.file ? [r.file] : [])].join(", ");
  return `${r.kind} ${r.slug} (${where})`;
}

/**
 * One plain line per event, for pipes and CI (no spinners, no colours); null for what is not worth a line
 * (the plan itself, and unchanged items: the summary counts them, issue #34).
 */
export function plainLine(event: PushEvent, dryRun: boolean, contentDir = "content"): string | null {
  if (event.type === "validated") {
    return `Read content: ${event.valid} publishable, ${event.invalid} invalid, ${event.drafts} draft(s).`;
  }
  if (event.type === "planned") return null;
  if (event.type === "exported") return exportedLine(event);
  const r = event.result;
  if (r.action === "unchanged" && r.status === "done") return null;
  const what = itemName(r);
  const progress = `[${event.done}/${event.total}]`;
  if (r.status === "failed") return `${progress} failed ${what}: ${r.error}`;
  if (r.action === "conflict" || r.action === "skip")
    return `${progress} ${r.action} ${what}: ${r.reason}${conflictDetail(r, contentDir)}`;
  const changes = r.action === "update" ? ` [${r.changes.join(", ")}]` : "";
  const verb = dryRun ? `would ${r.action}` : PAST[r.action];
  return `${progress} ${verb} ${what}${changes}${stateChange(r)}`;
}

const PAST: Record<string, string> = { create: "created", update: "updated", delete: "deleted" };

/**
 * The closing line of a push; a dry run says what it would do ("would create 2"), not what it did.
 */
export function summaryLine(result: PushResult): string {
  if (result.dryRun) {
    return (
      `Dry run, nothing written: would create ${result.created}, would update ${result.updated}, ` +
      `would delete ${result.deleted}; ${result.unchanged} unchanged, ${result.skipped} skipped, ` +
      `${result.conflicts} conflict(s), ${result.failed} failed.`
    );
  }
  return (
    `${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged, ` +
    `${result.deleted} deleted, ${result.skipped} skipped, ${result.conflicts} conflict(s), ${result.failed} failed.`
  );
}

/** The final `--json` line: the counts (issue #7: extends the skeleton's `{created, updated, unchanged, failed}`). */
export function resultJson(result: PushResult) {
  const { created, updated, unchanged, deleted, skipped, conflicts, failed, dryRun } = result;
  // How the files were read (known unchanged by stat or hash, or parsed) and each phase's milliseconds.
  // (issue #33 item 6)
  return {
    created,
    updated,
    unchanged,
    deleted,
    skipped,
    conflicts,
    failed,
    dryRun,
    ...(result.read ? { read: result.read } : {}),
    // Only on request (`STUDIO_PUSH_PHASES=1`, the benchmarks): timings differ at every run.
    ...(result.phases && process.env["STUDIO_PUSH_PHASES"] === "1" ? { phases: result.phases } : {}),
  };
}

/**
 * Confirms deletions before a `--prune` push: a prompt in a terminal; without one, `--yes` is required.
 * @returns false when the user declined.
 * @throws {UsageError} when a confirmation is needed and cannot be asked; {MassDeleteError} when the prune
 *   deletes more than half of the pushed items without `--allow-mass-delete` (asked before prompting).
 */
async function confirmPrune(context: CommandContext, options: PushCommandOptions, base: PushOptions): Promise<boolean> {
  if (!options.prune || options.yes || options.dryRun) return true;
  const { checkMassDelete, push } = await import("../../lib/publish/push.ts");
  const plan = await push(context.services, { ...base, dryRun: true });
  const deletions = plan.items.filter((i) => i.action === "delete");
  if (deletions.length === 0) return true;
  checkMassDelete(deletions.length, plan.tracked, base.allowMassDelete ?? false, base.contentDir);
  if (!context.interactive) {
    throw new UsageError(
      `studio push --prune would delete ${deletions.length} item(s) from Appwrite; pass --yes to confirm (no prompt without a terminal).`,
    );
  }
  for (const d of deletions) console.log(`  delete ${d.kind} ${d.slug}`);
  console.log(`They will first be exported (with their images) to ${base.exportDir}.`);
  const readline = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await readline.question(`Delete these ${deletions.length} item(s) from Appwrite? [y/N] `);
  readline.close();
  return /^y(es)?$/i.test(answer.trim());
}

/**
 * `studio push`: validates `content/`, plans against Appwrite and the lock, and applies (unless `--dry-run`).
 * Output: a live Ink view in a terminal; plain lines otherwise; NDJSON with `--json`.
 * @returns the exit code (see `exit-codes.ts`).
 */
export async function runPush(context: CommandContext, options: PushCommandOptions): Promise<number> {
  tightenHeap();
  const base: PushOptions = {
    contentDir: options.dir,
    lockPath: context.lockPath(options.dir),
    dryRun: options.dryRun,
    force: options.force,
    prune: options.prune,
    allowMassDelete: options.allowMassDelete,
    exportDir: context.exportDir(options.exportDir),
    concurrency: options.concurrency,
    only: await selectionFor(context, options.dir, options.items ?? [], "lock"),
  };
  const { push } = await import("../../lib/publish/push.ts");
  if (!(await confirmPrune(context, options, base))) {
    console.log("Nothing deleted; push cancelled.");
    return EXIT.ok;
  }
  // Ctrl-C says how far the push got (issue #34).
  const progress: Progress = { total: 0, done: {} };
  const track = (event: PushEvent) => {
    if (event.type === "planned") {
      progress.total = event.plan.length;
      planned(event.plan.length); // a large push drops what reading and planning left behind (`heap.ts`)
    }
    if (event.type !== "item") return;
    const r = event.result;
    const key =
      r.status === "failed" ? "failed" : r.action === "unchanged" ? "unchanged" : (PAST[r.action] ?? r.action);
    progress.done[key] = (progress.done[key] ?? 0) + 1;
  };
  const stopWatching = onInterrupt(() => interruptedLines("push", progress));
  let result: PushResult;
  try {
    if (context.interactive) {
      const { renderPush } = await import("../views/push-view.tsx");
      result = await renderPush(
        (onEvent) =>
          push(context.services, {
            ...base,
            onEvent: (event) => {
              track(event);
              onEvent(event);
            },
          }),
        options.dir,
      );
    } else if (options.json) {
      result = await push(context.services, {
        ...base,
        onEvent: (event) => {
          track(event);
          if (event.type === "item") emitJson("item", { ...event.result, done: event.done, total: event.total });
          else if (event.type === "validated" || event.type === "exported") emitJson(event.type, event);
        },
      });
    } else {
      result = await push(context.services, {
        ...base,
        onEvent: (event) => {
          track(event);
          const line = plainLine(event, options.dryRun ?? false, options.dir);
          if (line) console.log(line);
        },
      });
    }
  } finally {
    stopWatching();
  }
  reportWarnings(result.warnings, options.json);
  reportIssues(result.issues, options.json);
  if (options.json) emitJson("result", resultJson(result));
  else if (!context.interactive) console.log(summaryLine(result));
  return exitCodeFor(result);
}
