/**
 * Ctrl-C during a command that writes (issue #34): say what happened before exiting, instead of nothing.
 * The exit code is 130 (128 + SIGINT, the shell's convention for a command stopped by Ctrl-C).
 */

/** The exit code of a command stopped by Ctrl-C or SIGTERM: 128 + the signal's number (POSIX shells). */
export const INTERRUPTED_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * Until the returned function is called, SIGINT and SIGTERM print `report()` (one line per entry) on stderr and
 * end the process with 130 or 143. `report` is called at the signal, so it describes the progress then.
 */
export function onInterrupt(report: () => string[]): () => void {
  const handler = (signal: "SIGINT" | "SIGTERM") => {
    process.stderr.write(`\n${report().join("\n")}\n`);
    process.exit(INTERRUPTED_EXIT[signal]);
  };
  process.once("SIGINT", handler);
  process.once("SIGTERM", handler);
  return () => {
    process.off("SIGINT", handler);
    process.off("SIGTERM", handler);
  };
}

/** Counts of a sync in progress, by what happened to each item. */
export interface Progress {
  total: number;
  done: Record<string, number>;
}

/**
 * What a push or pull stopped by Ctrl-C did: how many of the planned items were handled, by action, and what
 * running it again does. `verb` names the command (`push`, `pull`).
 */
export function interruptedLines(verb: "push" | "pull", progress: Progress): string[] {
  const handled = Object.values(progress.done).reduce((a, b) => a + b, 0);
  const counts = Object.entries(progress.done)
    .filter(([, n]) => n > 0)
    .map(([action, n]) => `${n} ${action}`)
    .join(", ");
  return [
    `studio ${verb} interrupted: ${handled} of ${progress.total || "?"} item(s) handled${counts ? ` (${counts})` : ""}; ` +
      "the rest was not touched.",
    `  Each item is written whole or not at all: run \`studio ${verb}\` again to finish (what was written is seen as unchanged).`,
  ];
}
