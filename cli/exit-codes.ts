/** Exit codes of `studio` (documented in the README). */
export const EXIT = {
  ok: 0,
  /** Some content files are invalid (nothing of them was written; the rest was applied). */
  invalidContent: 1,
  /** Bad flags or arguments, or a confirmation that needs a flag in CI. */
  usage: 2,
  /** Configuration invalid, schema missing, or Appwrite unreachable / refusing the key. */
  backend: 3,
  /** Some items changed in Appwrite since the last push (pull them, or push with --force). */
  conflict: 4,
  /** Appwrite refused some writes; the rest was applied. */
  partialFailure: 5,
  /** A bug in studio (EX_SOFTWARE); the message says how to report it. */
  internal: 70,
} as const;

/** The exit code of a sync result: the worst of partial failure, conflict, invalid content. */
export function exitCodeFor(result: { items: { status: string }[]; conflicts: number; issues: unknown[] }): number {
  if (result.items.some((i) => i.status === "failed")) return EXIT.partialFailure;
  if (result.conflicts > 0) return EXIT.conflict;
  if (result.issues.length > 0) return EXIT.invalidContent;
  return EXIT.ok;
}

/** An error the user fixes by changing how they call `studio`; `exitCode` says which. */
export class UsageError extends Error {
  override name = "UsageError";
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
  }
}
