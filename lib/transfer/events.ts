/** What a transfer reports while it runs (issue #32 item 4: "shows progress"), shared by its phases. */

/** One phase's outcome for one scope (a table, a bucket, the users, a team): what was, or would be, written. */
export interface PhaseCounts {
  phase: "schema" | "users" | "teams" | "files" | "rows";
  /** The table, bucket or team; absent for phases with one scope. */
  scope?: string;
  create: number;
  update: number;
  unchanged: number;
}

/** Callbacks a transfer calls; all optional. */
export interface TransferEvents {
  /** After each page: `done` of `total` records of `scope` looked at. */
  onProgress?(event: { phase: PhaseCounts["phase"]; scope: string; done: number; total: number }): void;
  /** When a scope is finished. */
  onPhase?(counts: PhaseCounts): void;
  /** Something the operator should know that is not a failure (what is not moved, and why). */
  onNote?(message: string): void;
}

/** How a phase runs: planning only (`dryRun`: count, write nothing) or writing. */
export interface PhaseOptions {
  dryRun: boolean;
  events: TransferEvents;
}

/** Fresh counts for `phase`/`scope`. */
export function countsFor(phase: PhaseCounts["phase"], scope?: string): PhaseCounts {
  return { phase, ...(scope === undefined ? {} : { scope }), create: 0, update: 0, unchanged: 0 };
}
