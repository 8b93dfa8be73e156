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
 * - The writes: React streams its page in 4 kB views and the adapter writes each one (~25 for `/en`), and each
 *   write into a zlib stream is a separate job on libuv's pool. Measured on `/en` (101 kB): Brotli of 4 kB
 *   writes costs ~1.8× the CPU of one write, gzip ~1.5×. So a compressed response's writes of one turn are
 *   gathered and passed on as one (at most `GATHER_BYTES` held), with the flush. An uncompressed one is
 *   written through: Node's HTTP already corks one turn's writes into one `writev`.
 * - Levels: Brotli quality 4 (compression's default: ~5 % larger than 5 and cheaper), gzip level 6 (zlib's).
 */
import type { RequestHandler } from "express";
import compression, { type CompressionOptions } from "compression";
import { constants } from "node:zlib";

/** Brotli window of a page response, as log2 of bytes (18: 256 kiB; a page is under 128 kB). */
export const BROTLI_WINDOW_BITS = 18;
/** Brotli quality (0–11) of a page response. */
export const BROTLI_QUALITY = 4;
/** gzip level (1–9) of a page response. */
export const GZIP_LEVEL = 6;

/** `compression`'s options for a page: the levels and Brotli window above. */
export const PAGE_COMPRESSION: CompressionOptions = {
  level: GZIP_LEVEL,
  brotli: {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  },
};

/** At most this many bytes of a response are held for the end of the turn before being passed on. */
export const GATHER_BYTES = 64 * 1024;

/**
 * `compression` with the settings above, and the response's writes and `res.flush()` coalesced to once per
 * event-loop turn (`gatherWrites`).
 */
export function pageCompression(): RequestHandler {
  const compress = compression(PAGE_COMPRESSION);
  return (req, res, next) => {
    compress(req, res, (error?: unknown) => {
      if (error) {
        next(error);
        return;
      }
      gatherWrites(res as unknown as GatheredResponse);
      next();
    });
  };
}

type WriteCallback = (error?: Error | null) => void;
/** What `gatherWrites` needs of a response: `write`/`end`/`flush` as `compression` leaves them. */
type GatheredResponse = {
  write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean;
  end(chunk?: unknown, encoding?: unknown, callback?: unknown): unknown;
  flush?: () => void;
  headersSent: boolean;
  getHeader(name: string): unknown;
  on(event: "drain", listener: () => void): unknown;
  once(event: "finish" | "close", listener: () => void): unknown;
};

/**
 * Gathers a response's writes until the end of the current event-loop turn (`setImmediate`) and passes them on
 * as one write, followed by one flush if any was asked for. A chunk written in a later turn (a Suspense boundary
 * resolving) still goes out at the end of its turn, so streaming is kept. Backpressure is kept too: `write`
 * returns false while the last write passed on is waiting for `drain`; more than `GATHER_BYTES` held is passed
 * on at once; a write with a callback passes everything on first, in order.
 */
function gatherWrites(res: GatheredResponse): void {
  const write = res.write;
  const end = res.end;
  const flush = res.flush;
  let held: Buffer[] = [];
  let heldBytes = 0;
  let flushWanted = false;
  let blocked = false;
  let pending: ReturnType<typeof setImmediate> | undefined;
  let done = false;

  const passOn = () => {
    if (pending) clearImmediate(pending);
    pending = undefined;
    if (heldBytes > 0) {
      const chunk = held.length === 1 ? held[0] : Buffer.concat(held, heldBytes);
      held = [];
      heldBytes = 0;
      if (write.call(res, chunk) === false) blocked = true;
    }
    if (flushWanted && !done) {
      flushWanted = false;
      flush?.call(res);
    }
  };
  const later = () => {
    pending ??= setImmediate(passOn);
  };
  const hold = (chunk: unknown, encoding: unknown) => {
    const buffer =
      typeof chunk === "string" ? Buffer.from(chunk, (encoding as BufferEncoding) || "utf8") : (chunk as Buffer);
    if (buffer.length === 0) return;
    held.push(buffer);
    heldBytes += buffer.length;
  };

  /**
   * Whether the response is known to go out uncompressed (its headers sent without `Content-Encoding`): then
   * Node's HTTP already corks one turn's writes into one `writev`, and the response gets its own `write`, `end`
   * and `flush` back after what is held is passed on.
   */
  const uncompressed = () => {
    if (!res.headersSent || res.getHeader("Content-Encoding")) return false;
    passOn();
    Object.assign(res, flush ? { write, end, flush } : { write, end });
    return true;
  };

  res.on("drain", () => (blocked = false));
  const stop = () => {
    done = true;
    if (pending) clearImmediate(pending);
    pending = undefined;
  };
  res.once("finish", stop);
  res.once("close", stop);

  res.write = (chunk: unknown, encoding?: unknown, callback?: unknown) => {
    if (done || uncompressed()) return write.call(res, chunk, encoding, callback);
    if (typeof encoding === "function") [encoding, callback] = [undefined, encoding];
    if (typeof callback === "function") {
      passOn();
      const accepted = write.call(res, chunk, encoding, callback as WriteCallback);
      if (!accepted) blocked = true;
      return accepted;
    }
    hold(chunk, encoding);
    if (heldBytes >= GATHER_BYTES) passOn();
    else later();
    return !blocked;
  };
  res.end = (chunk?: unknown, encoding?: unknown, callback?: unknown) => {
    if (typeof chunk === "function") [chunk, encoding, callback] = [undefined, undefined, chunk];
    else if (typeof encoding === "function") [encoding, callback] = [undefined, encoding];
    flushWanted = false; // ending flushes
    if (heldBytes > 0) {
      // Held writes first, the last chunk with them; `compression` takes no callback, so it waits for `finish`.
      if (chunk !== undefined && chunk !== null) hold(chunk, encoding);
      [chunk, encoding] = [undefined, undefined];
    }
    passOn();
    if (typeof callback === "function") res.once("finish", callback as () => void);
    return chunk === undefined || chunk === null ? end.call(res) : end.call(res, chunk, encoding);
  };
  if (typeof flush === "function") {
    res.flush = () => {
      if (done || uncompressed()) return;
      flushWanted = true;
      later();
    };
  }
}
