/**
 * Machine-readable output (issue #7 item 6): with `--json`, one JSON object per line (NDJSON), each with a
 * `type`; the last line is the result.
 */
import type { ContentIssue } from "../lib/content/read.ts";
import type { PlanEntry } from "../lib/publish/plan.ts";
import { DEFAULT_CONTENT_LOCALE } from "../model/locales.ts";

/** Writes one NDJSON line. */
export function emitJson(type: string, data: object): void {
  process.stdout.write(`${JSON.stringify({ type, ...data })}\n`);
}

/** Prints validation problems: NDJSON lines with `--json`, else `file: field: message` on stderr. */
export function reportIssues(issues: readonly ContentIssue[], json: boolean | undefined): void {
  if (issues.length === 0) return;
  if (json) {
    for (const issue of issues) emitJson("invalid", issue);
    return;
  }
  console.error("Invalid content (fix these files; nothing of them was written):");
  for (const i of issues) console.error(`  ${i.file}: ${i.field}: ${i.message}`);
}

/** Prints warnings (read, but not as written; or not read at all): NDJSON `warning` lines with `--json`, else on stderr. */
export function reportWarnings(warnings: readonly ContentIssue[] | undefined, json: boolean | undefined): void {
  if (!warnings?.length) return;
  if (json) {
    for (const warning of warnings) emitJson("warning", warning);
    return;
  }
  console.error("Warnings (nothing refused: these files are left out, or published without the parts named):");
  for (const w of warnings) console.error(`  ${w.file}: ${w.field}: ${w.message}`);
}

/** Where the export before deleting went, and how to undo (SECURITY C48). */
export function exportedLine(event: { path: string; documents: number; files: number }): string {
  return (
    `Exported ${event.documents} item(s) and ${event.files} image(s) before deleting them: ${event.path}\n` +
    `  (undo with: studio restore ${event.path})`
  );
}

/**
 * What a push does to an item's visibility, in words (issue #26 item 10, issue #29 item 1), or "":
 * ` (published → draft: unpublishes ar)` for an update that changes the state, ` (publishes en)`,
 * ` (schedules en for 2026-12-01 09:00 Asia/Riyadh)` or ` (keeps en draft)` for a create. Unpublishing a live
 * page is said in the plan, not discovered on the site.
 */
export function stateChange(entry: Pick<PlanEntry, "action" | "state" | "locale">): string {
  const state = entry.state;
  if (!state || (entry.action !== "update" && entry.action !== "create")) return "";
  const locale = entry.locale ?? DEFAULT_CONTENT_LOCALE;
  const words =
    state.to === "published"
      ? `publishes ${locale}`
      : state.to === "scheduled"
        ? `schedules ${locale}${state.at ? ` for ${state.at}` : ""}`
        : state.from === "published" || state.from === "scheduled"
          ? `unpublishes ${locale}`
          : `keeps ${locale} draft`;
  return state.from === null ? ` (${words})` : ` (${state.from} → ${state.to}: ${words})`;
}

/**
 * For a conflict with an Appwrite document: the fields that differ and the command that shows both versions
 * (issue #34), e.g. ` (fields that differ: title, excerpt; see both: studio diff content/posts/x.md)`; "" for
 * other entries. `contentDir` is the `--dir` the file is relative to.
 */
export function conflictDetail(entry: Pick<PlanEntry, "action" | "changes" | "file">, contentDir: string): string {
  if (entry.action !== "conflict" || !entry.file) return "";
  const fields = entry.changes.length ? `fields that differ: ${entry.changes.join(", ")}; ` : "";
  const file = contentDir === "." ? entry.file : `${contentDir.replace(/\/+$/, "")}/${entry.file}`;
  return ` (${fields}see both: studio diff ${file})`;
}
