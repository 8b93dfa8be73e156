/**
 * `studio status`'s rows (issue #34): every item × locale of a content folder with its translation state
 * (`status.ts`) and its lifecycle (issue #16: draft, scheduled or published, and when), and which rows fail
 * `status --check` and why.
 */
import { dueTimeOf, stateFor, type ItemState } from "../../model/lifecycle.ts";
import type { ContentIssue, ContentItem } from "../content/read.ts";
import { readContent } from "../content/read.ts";
import { versionFile } from "../content/versions.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { fileVersion } from "./files.ts";
import { translationStatus, type TranslationRow, type TranslationState } from "./status.ts";

/** One item × locale as `studio status` prints it. */
export interface StatusRow extends TranslationRow {
  /**
   * Whether some version of the item is public now (`published`, not a draft, not scheduled): before issue
   * #34 a post scheduled in 2027 counted as published.
   */
  published: boolean;
  /** The version's lifecycle (issue #16), or null when the version is missing. */
  lifecycle: ItemState | null;
  /** When a scheduled or published version is (or was) due, as an ISO instant (`…Z`); else null. */
  publishAt: string | null;
}

/** What `status --check` also fails on besides stale and missing versions (`--fail-on`). */
export type FailOn = "unreviewed";

/** A row that fails `status --check`, and why in words. */
export interface FailingRow {
  kind: StatusRow["kind"];
  slug: string;
  locale: StatusRow["locale"];
  state: TranslationState;
  /** The version's file, or the file to create for a missing one (relative to the content folder). */
  file: string;
  reason: string;
}

/** The lifecycle of a file's version at `now` (ms since the epoch), and its due time as an ISO instant. */
export function versionLifecycle(item: ContentItem, now: number): { lifecycle: ItemState; publishAt: string | null } {
  const due = dueTimeOf(item.kind, item.frontMatter as Record<string, unknown>);
  const lifecycle = stateFor(item.draft, due, now);
  const at = due === null ? NaN : new Date(due).getTime();
  return { lifecycle, publishAt: lifecycle !== "draft" && Number.isFinite(at) ? new Date(at).toISOString() : null };
}

/**
 * The status rows of `contentDir` at `now`, the files that could not be read (left out) and the warnings
 * (files not read at all, e.g. a typo'd folder).
 * @throws only for I/O errors other than a missing folder.
 */
export async function statusRows(
  contentDir: string,
  now = Date.now(),
): Promise<{ rows: StatusRow[]; issues: ContentIssue[]; warnings: ContentIssue[] }> {
  const { items, issues, warnings } = await readContent(contentDir);
  const byKey = new Map(items.map((i) => [`${i.kind}\u0000${i.slug}\u0000${i.locale}`, i]));
  const withLifecycle = translationStatus(items.map(fileVersion)).map((row) => {
    const item = byKey.get(`${row.kind}\u0000${row.slug}\u0000${row.locale}`);
    return { ...row, ...(item ? versionLifecycle(item, now) : { lifecycle: null, publishAt: null }) };
  });
  const live = new Set(withLifecycle.filter((r) => r.lifecycle === "published").map((r) => `${r.kind}\u0000${r.slug}`));
  const rows = withLifecycle.map((r) => ({ ...r, published: live.has(`${r.kind}\u0000${r.slug}`) }));
  return { rows, issues, warnings: warnings ?? [] };
}

/**
 * The rows `status --check` fails on: a version that is stale or missing (with `failOn` `unreviewed`, also an
 * unreviewed machine translation) of an item that is public now or scheduled to be (a draft item gates
 * nothing), each with its file and the reason in words.
 */
export function failingRows(rows: readonly StatusRow[], failOn: ReadonlySet<FailOn> = new Set()): FailingRow[] {
  const publicSoon = new Set(
    rows
      .filter((r) => r.lifecycle === "published" || r.lifecycle === "scheduled")
      .map((r) => `${r.kind}\u0000${r.slug}`),
  );
  const anyFile = new Map(rows.filter((r) => r.where).map((r) => [`${r.kind}\u0000${r.slug}`, r.where!]));
  const failing: FailingRow[] = [];
  for (const row of rows) {
    if (!publicSoon.has(`${row.kind}\u0000${row.slug}`)) continue;
    const reason = reasonOf(row, failOn);
    if (!reason) continue;
    const base = anyFile.get(`${row.kind}\u0000${row.slug}`) ?? `${CONTENT_MODEL[row.kind].folder}/${row.slug}.md`;
    const file = row.where ?? versionFile(base, row.locale);
    failing.push({ kind: row.kind, slug: row.slug, locale: row.locale, state: row.state, file, reason });
  }
  return failing;
}

function reasonOf(row: StatusRow, failOn: ReadonlySet<FailOn>): string | null {
  if (row.state === "missing") {
    return `no ${row.locale} version; write it, or draft it with \`studio translate <file> --to ${row.locale}\``;
  }
  if (row.state === "stale") {
    return "its source version changed since it was translated or reviewed; update it, then `studio review` it";
  }
  if (row.state === "unreviewed" && failOn.has("unreviewed")) {
    return "a machine translation nobody reviewed; read it, then `studio review` it";
  }
  return null;
}
