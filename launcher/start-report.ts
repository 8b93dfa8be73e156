/**
 * What `npm start` prints (issue #34): what a person needs (where the site is, where the data lives, what was
 * pushed and what needs them), not build details; those go to a log file, or to the terminal with
 * `npm start -- --verbose`.
 */
import type { ContentIssue } from "../lib/content/read.ts";
import type { PushResult } from "../lib/publish/push.ts";

/** Whether `npm start` was asked for build details (`npm start -- --verbose`). */
export function isVerbose(argv: readonly string[] = process.argv): boolean {
  return argv.includes("--verbose");
}

/** Where the build's output goes without `--verbose`, relative to the project folder (git-ignored). */
export const BUILD_LOG = ".studio/build.log";

/** What `npm start` pushed, in one line, then one line per item that needs a person. */
export function pushedLines(
  result: Pick<PushResult, "created" | "updated" | "unchanged" | "conflicts" | "failed" | "items" | "issues">,
): string[] {
  const parts = [`${result.created} created`, `${result.updated} updated`, `${result.unchanged} unchanged`];
  if (result.conflicts) parts.push(`${result.conflicts} conflict(s)`);
  if (result.failed) parts.push(`${result.failed} failed`);
  const lines = [`Pushed content/: ${parts.join(", ")}.`];
  for (const item of result.items.filter((i) => i.action === "conflict")) {
    lines.push(`  ! ${item.file ?? `${item.kind} ${item.slug}`}: ${item.reason}`);
  }
  for (const item of result.items.filter((i) => i.status === "failed")) lines.push(`  ✗ ${item.file}: ${item.error}`);
  for (const issue of result.issues as ContentIssue[])
    lines.push(`  ✗ ${issue.file}: ${issue.field}: ${issue.message} (not published)`);
  return lines;
}

/** The closing lines: the site's address in each language, where the data lives, how to stop. */
export function readyLines(options: { url: string; data: string; processes: number }): string[] {
  const processes = options.processes > 1 ? ` (${options.processes} site processes)` : "";
  return [
    `Site ready: ${options.url}  (English ${options.url}/en, Arabic ${options.url}/ar)${processes}`,
    `Data: ${options.data}`,
    "Press Ctrl-C to stop.",
  ];
}
