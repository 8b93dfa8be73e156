import type { ServerResponse } from "node:http";
import { createReadStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import type { Reply } from "./router.ts";

/**
 * Serialise `value` as JSON, writing `bigint` values as bare JSON integers (Appwrite sends
 * int64 values such as an integer attribute's default `min`/`max` that way; REFERENCE §1).
 */
export function toJson(value: unknown): string {
  // Most bodies hold no bigint: plain `JSON.stringify` is several times faster than with a replacer,
  // and throws a TypeError on a bigint, which sends those bodies down the slow path.
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
  const marker = "\u0000bigint:";
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? `${marker}${v.toString()}` : v));
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, "$1");
}

/** Write `reply` to `res`; every response carries `X-Content-Type-Options: nosniff`. */
export async function send(res: ServerResponse, reply: Reply): Promise<void> {
  // JSON replies pass every header to `writeHead` at once: with no header set before, Node takes them as they
  // are instead of storing each through `setHeader` first (issue #33 item 4).
  if ("json" in reply) {
    const body = toJson(reply.json);
    if (reply.headers) {
      res.setHeader("X-Content-Type-Options", "nosniff");
      for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
    }
    res.writeHead(reply.status, {
      "X-Content-Type-Options": "nosniff",
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(body),
    });
    res.end(body);
    return;
  }
  if ("jsonBytes" in reply) {
    res.writeHead(reply.status, {
      "X-Content-Type-Options": "nosniff",
      "Content-Type": "application/json",
      "Content-Length": reply.jsonBytes.length,
    });
    res.end(reply.jsonBytes);
    return;
  }
  res.setHeader("X-Content-Type-Options", "nosniff");
  if ("text" in reply) {
    res.writeHead(reply.status, {
      "Content-Type": "text/plain; charset=UTF-8",
      "Content-Length": Buffer.byteLength(reply.text),
    });
    res.end(reply.text);
    return;
  }
  if ("empty" in reply) {
    res.writeHead(reply.status);
    res.end();
    return;
  }
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  if ("buffer" in reply) {
    res.writeHead(reply.status, { "Content-Length": reply.buffer.length });
    res.end(reply.buffer);
    return;
  }
  res.writeHead(reply.status, { "Content-Length": reply.size });
  if (reply.size === 0) {
    res.end();
    return;
  }
  const start = reply.start ?? 0;
  try {
    await pipeline(createReadStream(reply.file, { start, end: start + reply.size - 1 }), res);
  } catch (error) {
    // The client went away mid-download; there is nobody left to answer.
    if ((error as { code?: string }).code !== "ERR_STREAM_PREMATURE_CLOSE") throw error;
  }
}
