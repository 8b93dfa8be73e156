/**
 * Response compression tuned for a streamed page (issue #33 item 2). `compression`'s defaults cost a browser's
 * request (`Accept-Encoding: br, gzip`) about 2.7× the CPU of an identity one, measured on `/en`:
 *
 * - Brotli's window: the default `BROTLI_PARAM_LGWIN` (22, 4 MiB) allocates buffers of several MiB per
 *   response, mostly garbage collection. A page is under 128 kB, so a 256 kiB window (18) loses nothing: the
 *   output is the same size or smaller (RFC 7932 §9.1: the window only bounds back-reference distance).
 * - The flush after every chunk: React Router's adapter calls `res.flush()` after each of the ~14 chunks React
 *   streams, and each flush ends a compressed block, which costs CPU and makes gzip output ~30 % larger. Here a
 *   flush is deferred to the end of the event-loop turn (`setImmediate`), so the chunks written in one turn
 *   (the shell comes as one burst) go out as one block, while a chunk that waits for data (a Suspense boundary)
 *   is still sent as soon as it is written: streaming semantics are kept.
 * - Levels: Brotli quality 4 (compression's default: ~5 % larger than 5 and cheaper), gzip level 6 (zlib's).
 */
import type { RequestHandler } from "express";
import compression from "compression";
import { constants } from "node:zlib";

/** Brotli window of a page response, as log2 of bytes (18: 256 kiB; a page is under 128 kB). */
export const BROTLI_WINDOW_BITS = 18;
/** Brotli quality (0–11) of a page response. */
export const BROTLI_QUALITY = 4;
/** gzip level (1–9) of a page response. */
export const GZIP_LEVEL = 6;

/** `compression` with the settings above, and `res.flush()` coalesced to once per event-loop turn. */
export function pageCompression(): RequestHandler {
  const compress = compression({
    level: GZIP_LEVEL,
    brotli: {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    },
  });
  return (req, res, next) => {
    compress(req, res, (error?: unknown) => {
      if (error) {
        next(error);
        return;
      }
      coalesceFlushes(res);
      next();
    });
  };
}

/** Replaces `res.flush` (set by `compression`) with one that flushes once at the end of the current turn. */
function coalesceFlushes(res: { flush?: () => void; once(event: "finish" | "close", listener: () => void): unknown }) {
  const flushNow = res.flush;
  if (typeof flushNow !== "function") return;
  let pending: ReturnType<typeof setImmediate> | undefined;
  let done = false;
  const stop = () => {
    done = true;
    if (pending) clearImmediate(pending);
  };
  res.once("finish", stop);
  res.once("close", stop);
  res.flush = () => {
    if (pending || done) return;
    pending = setImmediate(() => {
      pending = undefined;
      if (!done) flushNow.call(res);
    });
  };
}
