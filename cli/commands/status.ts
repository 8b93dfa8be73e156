import { Option, type Command } from "commander";
import type { FailOn } from "../../lib/translate/content-status.ts";
import { EXIT } from "../exit-codes.ts";
import { emitJson, reportIssues, reportWarnings } from "../output.ts";

export interface StatusCommandOptions {
  dir: string;
  json?: boolean;
  check?: boolean;
  /** With `check`, also fail on these states (`unreviewed`). */
  failOn?: FailOn[];
  /** The terminal's width for the table (default: stdout's, or 80). */
  columns?: number;
  /** The time the lifecycle is judged at, ms since the epoch (default now; tests pass a fixed one). */
  now?: number;
}

/** Declares `studio status` and its flags on `program`. */
export function registerStatus(program: Command): void {
  program
    .command("status")
    .description(
      "Show every venture and post × locale: translation state (missing, unreviewed, stale, up-to-date) and draft, scheduled or published with the time.",
    )
    .option("--dir <path>", "content folder", "content")
    .option(
      "--json",
      'print NDJSON: {"type":"translation",…} per item and locale, {"type":"failing",…} with --check, then {"type":"result",…}',
    )
    .option(
      "--check",
      "exit 1 when a published or scheduled item is stale or missing in a locale (for CI), naming each",
    )
    .addOption(new Option("--fail-on <state...>", "with --check, also fail on these states").choices(["unreviewed"]))
    .action(async (options: StatusCommandOptions) => {
      process.exitCode = await runStatus(options);
    });
}

/**
 * `studio status`: the translation state and lifecycle of every item × locale in `--dir` (issue #15 item 5,
 * issue #34). Needs no Appwrite. With `--check`, names every version that fails (stale or missing, and
 * unreviewed with `--fail-on unreviewed`, of an item that is published or scheduled) and exits 1; exit 1
 * too when files are invalid.
 */
export async function runStatus(options: StatusCommandOptions): Promise<number> {
  const [{ statusRows, failingRows }, { countStates }, { failingLines, statusLines }] = await Promise.all([
    import("../../lib/translate/content-status.ts"),
    import("../../lib/translate/status.ts"),
    import("../status-table.ts"),
  ]);
  const { rows, issues, warnings } = await statusRows(options.dir, options.now);
  reportWarnings(warnings, options.json);
  reportIssues(issues, options.json);
  const counts = countStates(rows);
  const failing = options.check ? failingRows(rows, new Set(options.failOn ?? [])) : [];
  if (options.json) {
    for (const row of rows) emitJson("translation", row);
    for (const row of failing) emitJson("failing", row);
    emitJson("result", {
      ...counts,
      items: new Set(rows.map((r) => `${r.kind}:${r.slug}`)).size,
      failing: failing.length,
    });
  } else {
    const columns = options.columns ?? (process.stdout.columns || 80);
    for (const line of statusLines(rows, columns)) console.log(line);
    console.log(
      `${counts["up-to-date"]} up-to-date, ${counts.unreviewed} unreviewed, ${counts.stale} stale, ${counts.missing} missing.`,
    );
    if (counts.unreviewed || counts.stale) {
      console.log("Next: review a version, then `studio review <file>` (or set translation.reviewed and sourceHash).");
    }
    if (counts.missing || counts.stale)
      console.log("Draft missing or stale versions with `studio translate <file> --to <locale>`.");
    for (const line of failingLines(failing)) console.error(line);
  }
  if (issues.length > 0) return EXIT.invalidContent;
  return failing.length > 0 ? EXIT.invalidContent : EXIT.ok;
}
