import type { IncomingMessage } from "node:http";
import { AppwriteError } from "../errors.ts";

/** Largest JSON body accepted, in bytes. */
export const MAX_JSON_BODY = 10 * 1024 * 1024;

/**
 * Read a JSON request body (any content type other than multipart is treated as JSON).
 * Returns `{}` for an empty body. Throws 400 `general_bad_request` for a body over
 * `MAX_JSON_BODY` bytes, invalid JSON, or a JSON value that is not an object.
 */
export async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_JSON_BODY) {
      throw new AppwriteError("general_bad_request", "Request body is too large.");
    }
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
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
