/**
 * The build's browser files (`build/client`: hashed assets under `/assets/`, `favicon.svg`) served from memory
 * (issue #33 item 3): read once when the site starts, so a request costs no filesystem call (`express.static`
 * does an `fs.stat` per request, and one for every page request that falls through it). Compressible files
 * (JavaScript, CSS, SVG) are compressed once per process, on first request, at the highest levels (Brotli 11,
 * gzip 9) in the background, and answered as the browser accepts (`Vary: Accept-Encoding`).
 *
 * Hashed assets are `Cache-Control: public, max-age=31536000, immutable` (their name changes with their bytes),
 * other files `public, max-age=3600`. Every file has a strong ETag (a hash of its bytes; RFC 9110 §8.8.3), and a
 * matching `If-None-Match` gets a 304. `Range` is ignored (RFC 9110 §14.2 allows it): the files are small.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
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

/** The browser files of one build, in memory. */
export class StaticFiles {
  private readonly files = new Map<string, StaticFile>();

  /**
   * Reads every file under `clientDir` (`build/client`); `/assets/…` are the hashed ones. `commonHeaders`: set
   * on every answer (the site's, SECURITY C24).
   * @throws {Error} when the folder cannot be read (no build).
   */
  constructor(
    clientDir: string,
    private readonly commonHeaders: Readonly<Record<string, string>> = {},
  ) {
    for (const [url, file] of listFiles(clientDir)) {
      const body = readFileSync(file);
      const type = mime.contentType(path.extname(file)) || "application/octet-stream";
      this.files.set(url, {
        body,
        type,
        etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
        cacheControl: url.startsWith("/assets/") ? IMMUTABLE : SHORT,
        compressible: COMPRESSIBLE.test(type) && body.length >= 1024,
        answers: {},
      });
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

  /** Makes a file's compressed bodies in the background (libuv's pool); kept only when smaller. */
  private compress(file: StaticFile): Promise<void> {
    file.pending ??= (async () => {
      const [br, gz] = await Promise.all([
        brotliAsync(file.body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: file.body.length,
          },
        }),
        gzipAsync(file.body, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      file.br = br.length < file.body.length ? br : null;
      file.gzip = gz.length < file.body.length ? gz : null;
    })().catch(() => {
      file.br = null;
      file.gzip = null;
    });
    return file.pending;
  }
}
