/**
 * The build's browser files (`build/client`: hashed assets under `/assets/`, `favicon.svg`) served from memory
 * (issue #33 item 3): read once when the site starts, so a request costs no filesystem call (`express.static`
 * does an `fs.stat` per request, and one for every page request that falls through it). Compressible files
 * (JavaScript, CSS, SVG) are compressed at the highest levels (Brotli 11, gzip 9) once, by the build
 * (`precompress`, run by vite.config.ts), and answered as the browser accepts (`Vary: Accept-Encoding`); a
 * file without its compressed copies (a build made otherwise) is compressed on first request, in the background.
 *
 * Hashed assets are `Cache-Control: public, max-age=31536000, immutable` (their name changes with their bytes),
 * other files `public, max-age=3600`. Every file has a strong ETag (a hash of its bytes; RFC 9110 §8.8.3), and a
 * matching `If-None-Match` gets a 304. `Range` is ignored (RFC 9110 §14.2 allows it): the files are small.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import mime from "mime-types";
import { acceptsAny, etagMatches } from "../../lib/http/negotiation.ts";

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Types worth compressing (woff2 and images are compressed already). */
const COMPRESSIBLE = /^(text\/|application\/(javascript|json|manifest\+json|xml)|image\/svg\+xml)/;
/** Files smaller than this are sent as they are (a compressed body would save less than a packet). */
const COMPRESS_MIN_BYTES = 1024;
/** The name suffix of a file's compressed copy written by the build, per encoding (`precompress`). */
const COPY_SUFFIX = { br: ".br", gzip: ".gz" } as const;
const IMMUTABLE = "public, max-age=31536000, immutable";
const SHORT = "public, max-age=3600";

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
  compressible: boolean;
  /** Compressed bodies once made (undefined while being made, or when not smaller). */
  br?: Buffer | null;
  gzip?: Buffer | null;
  pending?: Promise<void>;
  /** Answers laid out per encoding (`answerOf`), made on first request. */
  answers: Partial<Record<Encoding, Answer>>;
}

type Encoding = "identity" | "br" | "gzip";

/** One encoding of a file as answered: its validator, body, and header lists for a 200 and a 304. */
interface Answer {
  etag: string;
  body: Buffer;
  headers: string[];
  notModified: string[];
}

/** Files of a folder, recursively, as `/relative/path` → absolute path. */
function listFiles(dir: string, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue; // as express.static: dotfiles are not served
    const full = path.join(dir, entry.name);
    const url = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) for (const [k, v] of listFiles(full, url)) out.set(k, v);
    else if (entry.isFile()) out.set(url, full);
  }
  return out;
}

/** A file's media type, by its extension (`application/octet-stream` when unknown). */
function typeOf(file: string): string {
  return mime.contentType(path.extname(file)) || "application/octet-stream";
}

/** Whether a body of this type and size is worth compressing. */
function isCompressible(type: string, size: number): boolean {
  return COMPRESSIBLE.test(type) && size >= COMPRESS_MIN_BYTES;
}

/** Whether `url` is the compressed copy of another file in `files` (`/a.js.br` beside `/a.js`). */
function isCopy(url: string, files: Map<string, string>): boolean {
  return Object.values(COPY_SUFFIX).some((suffix) => url.endsWith(suffix) && files.has(url.slice(0, -suffix.length)));
}

/** `body` compressed as Brotli 11 and gzip 9 (on libuv's pool), each `null` when not smaller than `body`. */
async function compressBoth(body: Buffer): Promise<{ br: Buffer | null; gzip: Buffer | null }> {
  const [br, gz] = await Promise.all([
    brotliAsync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzipAsync(body, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  return { br: br.length < body.length ? br : null, gzip: gz.length < body.length ? gz : null };
}

/**
 * Writes the compressed copies of every compressible file under `clientDir` beside it (`x.js.br`, `x.js.gz`),
 * so each site process reads them at start instead of compressing the same bytes again (Brotli 11 costs ~3
 * CPU-seconds for the build's 1.2 MB of scripts) and the first visitor already gets them compressed. A copy
 * that would not be smaller is not written (and an older one is removed). Run by the build (vite.config.ts).
 * @returns how many files got copies.
 * @throws {Error} when the folder cannot be read or a copy cannot be written.
 */
export async function precompress(clientDir: string): Promise<number> {
  const files = listFiles(clientDir);
  let compressed = 0;
  await Promise.all(
    [...files].map(async ([url, file]) => {
      if (isCopy(url, files)) return;
      const body = readFileSync(file);
      if (!isCompressible(typeOf(file), body.length)) return;
      const copies = await compressBoth(body);
      for (const encoding of ["br", "gzip"] as const) {
        const copy = file + COPY_SUFFIX[encoding];
        const bytes = copies[encoding];
        await (bytes ? writeFile(copy, bytes) : rm(copy, { force: true }));
      }
      compressed += 1;
    }),
  );
  return compressed;
}

/** The browser files of one build, in memory. */
export class StaticFiles {
  private readonly files = new Map<string, StaticFile>();

  /**
   * Reads every file under `clientDir` (`build/client`), with the compressed copies the build wrote beside
   * them (`precompress`; not served under their own names); `/assets/…` are the hashed ones. `commonHeaders`:
   * set on every answer (the site's, SECURITY C24).
   * @throws {Error} when the folder cannot be read (no build).
   */
  constructor(
    clientDir: string,
    private readonly commonHeaders: Readonly<Record<string, string>> = {},
  ) {
    const files = listFiles(clientDir);
    for (const [url, file] of files) {
      if (isCopy(url, files)) continue;
      const body = readFileSync(file);
      const type = typeOf(file);
      const entry: StaticFile = {
        body,
        type,
        etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
        cacheControl: url.startsWith("/assets/") ? IMMUTABLE : SHORT,
        compressible: isCompressible(type, body.length),
        answers: {},
      };
      // Either copy present: the build compressed the file (and left out a copy that was not smaller).
      if (entry.compressible && (files.has(url + COPY_SUFFIX.br) || files.has(url + COPY_SUFFIX.gzip))) {
        for (const encoding of ["br", "gzip"] as const) {
          const copy = files.get(url + COPY_SUFFIX[encoding]);
          entry[encoding] = copy ? readFileSync(copy) : null;
        }
      }
      this.files.set(url, entry);
    }
  }

  /** Number of files held. */
  get size(): number {
    return this.files.size;
  }

  /**
   * Answers a `GET`/`HEAD` of a held file (the path without its query).
   * @returns whether it answered (false: not a file of the build; pass the request on).
   */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if ((req.method !== "GET" && req.method !== "HEAD") || !req.url) return false;
    const mark = req.url.indexOf("?");
    let pathname = mark === -1 ? req.url : req.url.slice(0, mark);
    if (pathname.includes("%")) {
      try {
        pathname = decodeURIComponent(pathname);
      } catch {
        return false;
      }
    }
    const file = this.files.get(pathname);
    if (!file) return false;
    let encoding: Encoding = "identity";
    if (file.compressible) {
      const accept = req.headers["accept-encoding"];
      if (file.br === undefined && file.gzip === undefined) void this.compress(file);
      if (file.br && acceptsAny(accept, ["br"])) encoding = "br";
      else if (file.gzip && acceptsAny(accept, ["gzip", "x-gzip"])) encoding = "gzip";
    }
    const answer = (file.answers[encoding] ??= this.answerOf(file, encoding));
    if (etagMatches(req.headers["if-none-match"], answer.etag)) {
      res.writeHead(304, answer.notModified).end();
      return true;
    }
    res.writeHead(200, answer.headers).end(req.method === "HEAD" ? undefined : answer.body);
    return true;
  }

  /**
   * The answer to a request for `file` in `encoding`, laid out once (flat header lists for `writeHead`):
   * common headers, `Vary` (compressible files), `Cache-Control`, `ETag`; then, but on a 304,
   * `Content-Encoding`, `Content-Type` and `Content-Length`.
   */
  private answerOf(file: StaticFile, encoding: Encoding): Answer {
    // Each encoding is its own representation, with its own strong validator (RFC 9110 §8.8.3).
    const etag = encoding === "identity" ? file.etag : `${file.etag.slice(0, -1)}-${encoding}"`;
    const body = encoding === "identity" ? file.body : file[encoding]!;
    const notModified = Object.entries(this.commonHeaders).flat();
    if (file.compressible) notModified.push("Vary", "Accept-Encoding");
    notModified.push("Cache-Control", file.cacheControl, "ETag", etag);
    const headers = [...notModified];
    if (encoding !== "identity") headers.push("Content-Encoding", encoding);
    headers.push("Content-Type", file.type, "Content-Length", String(body.length));
    return { etag, body, headers, notModified };
  }

  /**
   * Makes the compressed bodies of a file the build left without copies, in the background (libuv's pool); kept
   * only when smaller.
   */
  private compress(file: StaticFile): Promise<void> {
    file.pending ??= (async () => {
      Object.assign(file, await compressBoth(file.body));
    })().catch(() => {
      file.br = null;
      file.gzip = null;
    });
    return file.pending;
  }
}
