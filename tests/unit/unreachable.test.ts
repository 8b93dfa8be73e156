/**
 * Issue #26 item 10: which failures mean Appwrite is gone (stop the whole command, exit 3) and which are an
 * answer about one item (reported for that item).
 */
import { AppwriteException } from "node-appwrite";
import { describe, expect, it } from "vitest";
import { AppwriteUnreachableError, asUnreachable, isConnectionError } from "../../lib/appwrite/unreachable.ts";

const refused = () =>
  Object.assign(new TypeError("fetch failed"), {
    cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:8787"), { code: "ECONNREFUSED" }),
  });

describe("isConnectionError", () => {
  it("is true for fetch's connection failures, false for Appwrite's answers and other errors", () => {
    expect(isConnectionError(refused())).toBe(true);
    expect(isConnectionError(new TypeError("terminated"))).toBe(true);
    const closed = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
    expect(isConnectionError(Object.assign(new TypeError("fetch failed"), { cause: closed }))).toBe(true);
    expect(isConnectionError(new AppwriteException("Server Error", 500, "general_unknown"))).toBe(false);
    expect(isConnectionError(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isConnectionError("fetch failed")).toBe(false);
  });

  it("becomes one exit-3 error naming the endpoint and the reason", () => {
    const error = asUnreachable("http://127.0.0.1:8787/v1", refused(), "push stopped: 3 item(s) written");
    expect(error).toBeInstanceOf(AppwriteUnreachableError);
    expect((error as AppwriteUnreachableError).exitCode).toBe(3);
    expect((error as Error).message).toBe(
      "Appwrite at http://127.0.0.1:8787/v1 did not answer (connection refused); push stopped: 3 item(s) written.",
    );
    const other = new Error("not a connection");
    expect(asUnreachable("http://x/v1", other)).toBe(other);
  });
});
