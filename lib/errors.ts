/**
 * Errors by who must act (STYLE 5; Shopify cli-kit's `AbortError` / `BugError`): an `AbortError` is a problem
 * the user can fix (its message says what happened and why, `nextSteps` what to do, `exitCode` how `studio`
 * exits); a `BugError` is a defect in this code (exit 70, with how to report it). Error classes of `lib/` and
 * `cli/` extend one of the two, so the CLI reports any of them without knowing the class.
 *
 * Imports nothing: the site imports these classes too (it shows its own messages).
 */

/** Exit codes of `studio` (the README's table). */
export const EXIT = {
  ok: 0,
  /** Some content files are invalid (nothing of them was written; the rest was applied). */
  invalidContent: 1,
  /** Bad flags or arguments, or a confirmation that needs a flag in CI. */
  usage: 2,
  /** Configuration invalid, schema missing, or Appwrite / Gemini unreachable or refusing. */
  backend: 3,
  /** Some items changed in Appwrite since the last push (pull them, or push with --force). */
  conflict: 4,
  /** Appwrite refused some writes; the rest was applied. */
  partialFailure: 5,
  /** A bug in studio (EX_SOFTWARE); the message says how to report it. */
  internal: 70,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface AbortErrorOptions {
  /** What the user should do next (one sentence or two). */
  nextSteps?: string;
  /** How `studio` exits (default 2, usage). */
  exitCode?: ExitCode;
  cause?: unknown;
}

/** A problem the user can fix: the message says what and why, `nextSteps` what to do. */
export class AbortError extends Error {
  override name = "AbortError";
  readonly exitCode: ExitCode;
  readonly nextSteps: string | undefined;
  constructor(message: string, options: AbortErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = options.exitCode ?? EXIT.usage;
    this.nextSteps = options.nextSteps;
  }
}

/** Where bugs in `studio` are reported. */
export const BUG_REPORT_HINT =
  "This is a bug in studio; please report it (an issue in this project's repository) with the command you ran and this output.";

/** A defect in this code (an invariant broken), never the user's doing: exit 70 with how to report it. */
export class BugError extends Error {
  override name = "BugError";
  readonly exitCode = EXIT.internal;
}
