/**
 * How `studio` reports an error that ends a command (STYLE 5): an `AbortError` (the user can fix it) prints
 * its message and what to do, and exits with its code; anything else is a bug: exit 70, the stack, and how to
 * report it. Errors of other libraries are mapped once, here, to one of the two.
 */
import { AbortError, BUG_REPORT_HINT, EXIT, type ExitCode } from "../lib/errors.ts";

/** Maps errors thrown by dependencies (the Appwrite SDK, `fetch`) to `AbortError`; others pass through. */
export async function classify(error: unknown): Promise<unknown> {
  if (error instanceof AbortError) return error;
  const unreachable = error instanceof TypeError && /fetch failed/.test(error.message);
  const { AppwriteException } = await import("node-appwrite");
  if (error instanceof AppwriteException || unreachable) {
    const { describeError } = await import("../lib/publish/push.ts");
    return new AbortError(`Appwrite refused or did not answer: ${describeError(error)}`, {
      exitCode: EXIT.backend,
      nextSteps:
        "Check APPWRITE_ENDPOINT, APPWRITE_PROJECT_ID and APPWRITE_API_KEY (scopes in the README), or unset APPWRITE_ENDPOINT to use the embedded server.",
      cause: error,
    });
  }
  return error;
}

/**
 * The last NDJSON line of a command run with `--json` that ended on an error (README "Output"): a CI job
 * reading stdout sees why it stopped, not just an exit code (issue #34).
 */
export function errorLine(exit: number, message: string, nextSteps?: string): string {
  return `${JSON.stringify({ type: "error", exit, message, ...(nextSteps ? { nextSteps } : {}) })}\n`;
}

/**
 * Prints `error` on stderr (via `print`, one line per call) and returns the exit code. With `json`, also
 * writes `{"type":"error","exit":…,"message":…}` on stdout (`errorLine`).
 */
export async function reportError(
  error: unknown,
  print: (line: unknown) => void = (line) => console.error(line),
  json = false,
): Promise<ExitCode> {
  const classified = await classify(error);
  if (classified instanceof AbortError) {
    print(`studio: ${classified.message}`);
    if (classified.nextSteps) print(`  ${classified.nextSteps}`);
    if (json) process.stdout.write(errorLine(classified.exitCode, classified.message, classified.nextSteps));
    return classified.exitCode;
  }
  const message = classified instanceof Error ? classified.message : String(classified);
  print(`studio: unexpected error: ${message}`);
  print(BUG_REPORT_HINT);
  print(classified);
  if (json) process.stdout.write(errorLine(EXIT.internal, `unexpected error: ${message}`, BUG_REPORT_HINT));
  return EXIT.internal;
}
