import type { IncomingMessage } from "node:http";
import { AppwriteError } from "../errors.ts";

/** Largest JSON body accepted, in bytes. */
export const MAX_JSON_BODY = 10 * 1024 * 1024;

/**
 * Read a JSON request body (any content type other than multipart is treated as JSON).
 * Returns `{}` for an empty body. Throws 400 `general_bad_request` for a body over
 * `MAX_JSON_BODY` bytes (the connection is closed, as a stream torn down mid-body is), invalid JSON, or a JSON
 * value that is not an object; rejects with the stream's error when the client goes away mid-body.
 * Reads with `data`/`end` listeners: an async iterator over the request cost a `createRow` several promises and
 * an end-of-stream watcher (issue #33 item 4).
 */
export function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    req.on("data", (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > MAX_JSON_BODY) {
        fail(new AppwriteError("general_bad_request", "Request body is too large."));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.once("end", () => {
      if (settled) return;
      settled = true;
      try {
        resolve(parseJsonBody(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
    req.once("error", fail);
    req.once("close", () => fail(new Error("The request was closed before its body ended.")));
  });
}

function parseJsonBody(bytes: Buffer): Record<string, unknown> {
  const text = bytes.toString("utf8").trim();
  if (text === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppwriteError("general_bad_request", "Invalid JSON body.");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new AppwriteError("general_bad_request", "The request body must be a JSON object.");
  }
  return value as Record<string, unknown>;
}
