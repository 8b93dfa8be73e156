/** Exit codes of `studio` (documented in the README), and how several problems in one run combine. */
import { AbortError, EXIT, type ExitCode } from "../lib/errors.ts";

export { EXIT };

/**
 * The exit code of a sync result when several problems happened in one run: the first of partial failure
 * (5), conflict (4), invalid content (1) that occurred (README "Exit codes": the problem that needs the
 * most care wins; every problem is still printed).
 */
export function exitCodeFor(result: { items: { status: string }[]; conflicts: number; issues: unknown[] }): ExitCode {
  if (result.items.some((i) => i.status === "failed")) return EXIT.partialFailure;
  if (result.conflicts > 0) return EXIT.conflict;
  if (result.issues.length > 0) return EXIT.invalidContent;
  return EXIT.ok;
}

/** An error the user fixes by changing how they call `studio`; `exitCode` says which (default 2). */
export class UsageError extends AbortError {
  override name = "UsageError";
  constructor(message: string, exitCode: ExitCode = EXIT.usage, nextSteps?: string) {
    super(message, { exitCode, nextSteps });
  }
}
