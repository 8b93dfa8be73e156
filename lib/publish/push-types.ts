/**
 * What `studio push` takes and answers (`push.ts`): its options, the events it reports while it runs, and its
 * result with the summary counts, the phases' times and what was read.
 */
import type { ContentIssue } from "../content/read.ts";
import type { ExportReport } from "./export.ts";
import type { PlanEntry, PushItemResult } from "./plan.ts";
import type { ReadCounts } from "./push-read.ts";
import type { Selection } from "./selection.ts";

/** Summary counts: the final `--json` result of `studio push` (issue #7 item 6). */
export interface PushSummary {
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  /** Drafts, and removed files left in Appwrite without `--prune`. */
  skipped: number;
  conflicts: number;
  /** Invalid files plus writes Appwrite refused. */
  failed: number;
}

export interface PushResult extends PushSummary {
  items: PushItemResult[];
  /** Validation problems; each invalid file counts once in `failed`. */
  issues: ContentIssue[];
  /** What was read but not as written (HTML removed by the sanitizer), and files that were not read. */
  warnings?: ContentIssue[];
  /** Files marked `draft: true`, pushed as drafts (only signed-in users read them, issue #16). */
  drafts: string[];
  dryRun: boolean;
  /** The export written before deleting (with `prune`), or null when nothing was deleted. */
  exported: ExportReport | null;
  /**
   * Items the lock says were pushed (and that are still those documents in Appwrite) before this push: what
   * a prune's deletions are compared with (`MAX_PRUNE_SHARE`).
   */
  tracked: number;
  /**
   * How the content files were read (issue #33 item 6): known unchanged by their stat or by their bytes' hash
   * against the lock (not parsed), or read and validated.
   */
  read?: ReadCounts;
  /** Milliseconds each phase took (issue #33 item 6: where a re-push of 200,000 items spends its time). */
  phases?: PushPhases;
}

/**
 * The phases of a push, in order, in milliseconds: the lock read; the content folder read and validated; the
 * rows listed (`readRemoteForPush`); files read whole for the plan (updates); the plan (and the site's
 * trash, time zone); the writes (with the export before a prune); the orphan images and the lock written.
 */
export interface PushPhases {
  lockRead?: number;
  read?: number;
  list?: number;
  load?: number;
  plan?: number;
  write?: number;
  lockWrite?: number;
}

export type PushEvent =
  | { type: "validated"; valid: number; invalid: number; drafts: number }
  | { type: "planned"; plan: PlanEntry[] }
  | ({ type: "exported" } & ExportReport)
  | { type: "item"; result: PushItemResult; done: number; total: number };

export interface PushOptions {
  /** The content root (folder with `ventures/`, `posts/`, `images/`). */
  contentDir: string;
  /**
   * The lock file recording the last sync (see `lock.ts`, `lockPathFor`). Without it the lock is kept in
   * memory only: fine for one push into an empty project; any existing document that differs is a conflict.
   */
  lockPath?: string;
  /** Plan only: read Appwrite, write nothing (not even the lock). */
  dryRun?: boolean;
  /** Overwrite conflicting items with the files' content. */
  force?: boolean;
  /** Delete items whose files were removed (only those the lock says were pushed, and unedited since). */
  prune?: boolean;
  /**
   * Folder for the export written before anything is deleted (SECURITY C48, `export.ts`); required when the
   * plan deletes anything.
   */
  exportDir?: string;
  /**
   * Let a prune delete more than half (`MAX_PRUNE_SHARE`) of the items pushed from these files; without it
   * such a push throws `MassDeleteError` and deletes nothing (SECURITY C59).
   */
  allowMassDelete?: boolean;
  /** Writes in flight at once (default 4). */
  concurrency?: number;
  /**
   * New items from which bodies are sanitized on the sanitizer thread as well (`push-bulk.ts`; default
   * `OFF_THREAD_FROM`, 500).
   */
  offThreadFrom?: number;
  onEvent?: (event: PushEvent) => void;
  /** Push only these items (`resolveSelection`); the others are neither read into the plan nor written. */
  only?: Selection;
}
