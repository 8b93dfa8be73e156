import type { Command } from "commander";
import type { TranslationRow } from "../../lib/translate/status.ts";
import { EXIT } from "../exit-codes.ts";
import { emitJson, reportIssues } from "../output.ts";

export interface StatusCommandOptions {
  dir: string;
  json?: boolean;
  check?: boolean;
}

/** Declares `studio status` and its flags on `program`. */
export function registerStatus(program: Command): void {
  program
    .command("status")
    .description(
      "Show every venture and post × locale with its translation state: missing, unreviewed, stale or up-to-date.",
    )
    .option("--dir <path>", "content folder", "content")
    .option("--json", 'print NDJSON: {"type":"translation",…} per item and locale, then {"type":"result",…}')
    .option("--check", "exit 1 when a published item is stale or missing in a locale (for CI)")
    .action(async (options: StatusCommandOptions) => {
      process.exitCode = await runStatus(options);
    });
}

/** Whether `row` fails `--check`: a published item with a stale or missing version. */
function failsCheck(row: TranslationRow): boolean {
  return row.published && (row.state === "stale" || row.state === "missing");
}

/**
 * `studio status`: the translation state of every item × locale in `--dir` (issue #15 item 5). Needs no
 * Appwrite. Exit 1 with `--check` when a published item is `stale` or `missing`, or when files are invalid.
 */
export async function runStatus(options: StatusCommandOptions): Promise<number> {
  const [{ contentStatus }, { countStates }] = await Promise.all([
    import("../../lib/translate/files.ts"),
    import("../../lib/translate/status.ts"),
  ]);
  const { rows, issues } = await contentStatus(options.dir);
  reportIssues(issues, options.json);
  const counts = countStates(rows);
  const failing = rows.filter(failsCheck);
  if (options.json) {
    for (const row of rows) emitJson("translation", row);
    emitJson("result", {
      ...counts,
      items: new Set(rows.map((r) => `${r.kind}:${r.slug}`)).size,
      failing: failing.length,
    });
  } else {
    const width = Math.max(4, ...rows.map((r) => `${r.kind} ${r.slug}`.length));
    const locales = [...new Set(rows.map((r) => r.locale))];
    console.log(`${"item".padEnd(width)}  ${locales.map((l) => l.padEnd(11)).join("  ")}`);
    for (let i = 0; i < rows.length; i += locales.length) {
      const item = rows.slice(i, i + locales.length);
      const name = `${item[0]!.kind} ${item[0]!.slug}`;
      console.log(`${name.padEnd(width)}  ${item.map((r) => r.state.padEnd(11)).join("  ")}`.trimEnd());
    }
    console.log(
      `${counts["up-to-date"]} up-to-date, ${counts.unreviewed} unreviewed, ${counts.stale} stale, ${counts.missing} missing.`,
    );
    if (counts.unreviewed || counts.stale) {
      console.log("Next: review a version, then `studio review <file>` (or set translation.reviewed and sourceHash).");
    }
    if (counts.missing || counts.stale)
      console.log("Draft missing or stale versions with `studio translate <file> --to <locale>`.");
  }
  if (issues.length > 0) return EXIT.invalidContent;
  return options.check && failing.length > 0 ? EXIT.invalidContent : EXIT.ok;
}
