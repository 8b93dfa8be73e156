/**
 * Appwrite going away (issue #26 item 10): a request that fails at the connection (refused, reset, closed
 * mid-answer, unknown host) says nothing about the item it carried, and every later request fails the same
 * way. `studio push` and `pull` stop at the first such failure with one `AppwriteUnreachableError` (exit 3,
 * naming the endpoint) instead of a failure per item (before: 260 "fetch failed" lines and exit 5).
 */
import { AbortError, EXIT } from "../errors.ts";

/** The error codes of Node's sockets and undici (fetch) that mean the connection itself failed. */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Whether `error` is a failed connection rather than an answer: `fetch`'s `TypeError` ("fetch failed",
 * "terminated") or an error whose code, or whose cause's code, is one of a socket's (ECONNREFUSED, ECONNRESET,
 * UND_ERR_SOCKET, …). An `AppwriteException` (Appwrite answered) never is.
 */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const cause = (error as { cause?: unknown }).cause;
  if (CONNECTION_CODES.has(codeOf(error) ?? "") || CONNECTION_CODES.has(codeOf(cause) ?? "")) return true;
  return error instanceof TypeError && /^(fetch failed|terminated)$/.test(error.message);
}

/** Why the connection failed, in a few words (`connection refused`, `connection closed`, or the message). */
function reasonOf(error: unknown): string {
  const code = codeOf((error as { cause?: unknown }).cause) ?? codeOf(error);
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  if (code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT") return "connection timed out";
  if (code !== undefined) return `connection closed (${code})`;
  return error instanceof Error ? error.message : String(error);
}

/** Appwrite at `endpoint` stopped answering: exit 3, one message naming it and what was done. */
export class AppwriteUnreachableError extends AbortError {
  override name = "AppwriteUnreachableError";
  readonly endpoint: string;
  /**
   * @param endpoint the Appwrite endpoint (`https://…/v1`), named in the message.
   * @param cause the connection error (`isConnectionError`).
   * @param progress what the command had done when it stopped, e.g. "push stopped after 12 of 40 items".
   */
  constructor(endpoint: string, cause: unknown, progress?: string) {
    super(`Appwrite at ${endpoint} did not answer (${reasonOf(cause)})${progress ? `; ${progress}` : ""}.`, {
      exitCode: EXIT.backend,
      nextSteps:
        "Start Appwrite again (or check APPWRITE_ENDPOINT), then run the same command: what was written is recognized.",
      cause,
    });
    this.endpoint = endpoint;
  }
}

/** `error` as an `AppwriteUnreachableError` for `endpoint` when it is a connection error, else `error` itself. */
export function asUnreachable(endpoint: string, error: unknown, progress?: string): unknown {
  return isConnectionError(error) ? new AppwriteUnreachableError(endpoint, error, progress) : error;
}
