/**
 * Public pages served from a `PageCache` (issue #8 item 2): a signed-out `GET`/`HEAD` of a page under a
 * locale (`/en`, `/ar/blog/<slug>`, …) is rendered once per generation, then answered from memory with a
 * fresh CSP nonce, a weak ETag and the caching headers of `options.cacheHeaders` (`cache-headers.ts`:
 * browsers revalidate, an unchanged page costs a 304; shared caches may keep it `CDN_MAX_AGE` s; surrogate
 * keys). Gzip is spliced from precompressed parts, so a cached page costs about what a static file does. Signed-in requests get `Cache-Control: private, no-store` and are never
 * cached (SECURITY C25); a session cookie Appwrite does not know is a guest's (C71). Concurrent misses of one page share one render.
 *
 * Two entry points: `serveFromCache` for the raw `node:http` request (before Express, so a hit pays for no
 * middleware), and `middleware` for misses (renders through React Router, stores, answers).
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { cspNonce, fillTemplate, filledLength, makeTemplate, type PageCache, type PageTemplate } from "./page-cache.ts";
import { acceptsAny, etagMatches } from "../../lib/http/negotiation.ts";
import { PAGE_PATH, PRIVATE_PAGE } from "./page-paths.ts";
import { prepareHit, writeHit, type HitVariant, type PreparedHit } from "./page-hit.ts";

export interface CachedPagesOptions {
  cache: PageCache;
  /** Whether stored pages can be trusted right now (e.g. the change feed is live). */
  trusted: () => boolean;
  /** Renders a request to a response (React Router's request handler); `req` is the Express request. */
  render: (request: Request, req: ExpressRequest) => Promise<Response>;
  /**
   * Whether a `Cookie` header carries a signed-in session: a boolean when known at once, else a promise (never
   * rejecting). A cookie that is not a live session is a guest's (SECURITY C71: a made-up cookie is served the
   * cached page); `server/auth/session-verdict.ts`.
   */
  signedIn: (cookieHeader: string | undefined) => boolean | Promise<boolean>;
  /** Headers every response of the site carries (e.g. `X-Content-Type-Options`), set on cache hits too. */
  commonHeaders?: Readonly<Record<string, string>>;
  /**
   * The request's origin (`scheme://host[:port]`), as the server checked it (`server/http/site-host.ts`: one of
   * the site's hosts, through trusted proxies' `X-Forwarded-*`). Part of the key: pages hold absolute URLs and
   * HSTS is sent on https only. Default: `http://` and the `Host` header.
   */
  originOf?: (req: IncomingMessage) => string;
  /**
   * The caching headers of the stored page at `url` (`Cache-Control`, surrogate keys: `cache-headers.ts`).
   * Default: `Cache-Control: public, no-cache` (browsers and shared caches revalidate every time).
   */
  cacheHeaders?: (url: string) => ReadonlyArray<readonly [string, string]>;
}

const REVALIDATE: ReadonlyArray<readonly [string, string]> = [["Cache-Control", "public, no-cache"]];
const VARY = ["Vary", "Cookie, Accept-Encoding"] as const;

/** Headers of a rendered page that are per response, or set here. */
const NOT_STORED = new Set(["content-security-policy", "content-length", "date", "etag", "cache-control", "vary"]);
const NONCE_BYTES = 16;
/** Random bytes drawn at once for 256 nonces (one call to the system's CSPRNG instead of one per response). */
const NONCE_POOL_BYTES = NONCE_BYTES * 256;
let noncePool = Buffer.alloc(0);
let noncesUsed = 0;

/** A fresh CSP nonce: 16 bytes of the CSPRNG, each used once, as base64 (24 characters; SECURITY C20). */
function freshNonce(): string {
  if (noncesUsed + NONCE_BYTES > noncePool.length) {
    noncePool = randomBytes(NONCE_POOL_BYTES);
    noncesUsed = 0;
  }
  noncesUsed += NONCE_BYTES;
  return noncePool.toString("base64", noncesUsed - NONCE_BYTES, noncesUsed);
}

/**
 * Whether a path (no query) is a public page that may be cached. Its query must already be canonical (only
 * parameters the page reads: the server redirects other URLs first, SECURITY C54); it is part of the key.
 */
function cacheablePath(pathname: string): boolean {
  return PAGE_PATH.test(pathname) && !PRIVATE_PAGE.test(pathname);
}

/** Whether an `Accept-Encoding` value accepts gzip (RFC 9110 §12.5.3; `q=0` refuses). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return acceptsAny(acceptEncoding, ["gzip", "x-gzip", "*"]);
}

/** The Fetch API request React Router renders for an Express `GET` from `origin`. */
function toFetchRequest(req: ExpressRequest, origin: string): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  return new Request(new URL(req.originalUrl, origin), {
    method: "GET",
    headers,
  });
}

/** The template of a rendered page, or null when the response must not be shared (status, cookies, type). */
async function templateOf(response: Response): Promise<PageTemplate | null> {
  const csp = response.headers.get("content-security-policy") ?? "";
  const nonce = cspNonce(csp);
  if (
    response.status !== 200 ||
    !nonce ||
    response.headers.getSetCookie().length > 0 ||
    !/^text\/html\b/.test(response.headers.get("content-type") ?? "") ||
    /private|no-store/.test(response.headers.get("cache-control") ?? "")
  ) {
    return null;
  }
  const headers = [...response.headers].filter(([name]) => !NOT_STORED.has(name));
  return makeTemplate(await response.text(), csp, nonce, headers);
}

/** Writes a Fetch API response to Express as it is (a page that is not cached). */
async function send(res: ExpressResponse, response: Response): Promise<void> {
  res.status(response.status);
  for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("Set-Cookie", cookies);
  if (!response.body) {
    res.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), res);
}

/** The cache in front of React Router, as described in the module comment. */
export class CachedPages {
  private readonly inflight = new Map<string, Promise<void>>();
  /** Hit answers laid out per stored page (`page-hit.ts`); dropped with the page. */
  private readonly prepared = new WeakMap<PageTemplate, PreparedHit>();
  private readonly gzipVerdicts = new Map<string, boolean>();
  private readonly commonHeaders: ReadonlyArray<readonly [string, string]>;

  constructor(private readonly options: CachedPagesOptions) {
    this.commonHeaders = Object.entries(options.commonHeaders ?? {});
  }

  /**
   * Answers `req` from the cache when it is a signed-out `GET`/`HEAD` of a stored page and the cache is
   * trusted; for a `GET` that wants gzip, the compressed body is spliced here (no compression middleware).
   * The answer is laid out once per stored page (`page-hit.ts`): one `writeHead`, one buffer. `origin`: the
   * request's, as the server checked it (default `originOf`).
   * @returns whether it answered (false: pass the request on).
   */
  serveFromCache(req: IncomingMessage, res: ServerResponse, origin?: string): boolean {
    const url = req.url;
    if ((req.method !== "GET" && req.method !== "HEAD") || !url) return false;
    const mark = url.indexOf("?");
    if (!cacheablePath(mark === -1 ? url : url.slice(0, mark))) return false;
    // A verdict still to be asked of Appwrite (a promise) goes on to `middleware`, which waits for it.
    if (this.options.signedIn(req.headers.cookie) !== false || !this.options.trusted()) return false;
    const page = this.options.cache.lookup((origin ?? this.originOf(req)) + url);
    if (!page) return false;
    let hit = this.prepared.get(page);
    if (!hit) {
      const lead = [VARY, ...this.commonHeaders, ...(this.options.cacheHeaders?.(url) ?? REVALIDATE)];
      hit = prepareHit(page, lead);
      this.prepared.set(page, hit);
    }
    const variant: HitVariant = etagMatches(req.headers["if-none-match"], page.etag)
      ? "not-modified"
      : req.method === "HEAD"
        ? "head"
        : this.acceptsGzip(req.headers["accept-encoding"])
          ? "gzip"
          : "identity";
    writeHit(hit, res, variant, freshNonce());
    return true;
  }

  /** `acceptsGzip`, remembered for the few `Accept-Encoding` values browsers send. */
  private acceptsGzip(acceptEncoding: string | undefined): boolean {
    if (acceptEncoding === undefined) return false;
    let verdict = this.gzipVerdicts.get(acceptEncoding);
    if (verdict === undefined) {
      verdict = acceptsGzip(acceptEncoding);
      if (this.gzipVerdicts.size >= 64) this.gzipVerdicts.clear();
      this.gzipVerdicts.set(acceptEncoding, verdict);
    }
    return verdict;
  }

  /**
   * Express middleware for what `serveFromCache` did not answer: sets the caching headers of page requests,
   * renders and stores cacheable misses (one render per page at a time), passes the rest to `next`.
   */
  middleware(): RequestHandler {
    return async (req, res, next) => {
      if ((req.method !== "GET" && req.method !== "HEAD") || !cacheablePath(req.path)) {
        next();
        return;
      }
      res.vary("Cookie");
      if (await this.options.signedIn(req.get("cookie"))) {
        res.setHeader("Cache-Control", "private, no-store");
        next();
        return;
      }
      if (!this.options.trusted()) {
        next();
        return;
      }
      const key = this.keyOf(req, req.originalUrl);
      let page = this.options.cache.lookup(key);
      if (!page && req.method === "GET") {
        const pending = this.inflight.get(key);
        if (pending) {
          await pending;
          page = this.options.cache.lookup(key); // only what the render could store: nothing older than a write
        } else {
          const rendered = await this.render(key, req, res);
          if (rendered === "sent") return;
          page = rendered;
        }
      }
      if (!page) {
        next();
        return;
      }
      this.answer(req, res, page);
    };
  }

  /** Renders a miss; stores it if it may be shared (and no write happened meanwhile), else sends it as is. */
  private async render(key: string, req: ExpressRequest, res: ExpressResponse): Promise<PageTemplate | "sent"> {
    const generation = this.options.cache.generation;
    let done!: () => void;
    this.inflight.set(key, new Promise<void>((resolve) => (done = resolve)));
    try {
      const response = await this.options.render(toFetchRequest(req, this.originOf(req)), req);
      const template = await templateOf(response);
      if (!template) {
        await send(res, response);
        return "sent";
      }
      this.options.cache.store(key, template, generation);
      return template;
    } finally {
      this.inflight.delete(key);
      done();
    }
  }

  /** The request's origin (`originOf`, else `http://` and the `Host` header). */
  private originOf(req: IncomingMessage): string {
    return this.options.originOf?.(req) ?? `http://${req.headers.host ?? "localhost"}`;
  }

  /** Cache key: origin, path and (canonical) query: `url` is the request target as received. */
  private keyOf(req: IncomingMessage, url: string): string {
    return this.originOf(req) + url;
  }

  /**
   * The Express path's answer from a stored page (the compression middleware encodes it): 304 when the browser's
   * copy is current, else the page with a fresh nonce. The same headers as a hit before Express (`page-hit.ts`).
   */
  private answer(req: IncomingMessage, res: ServerResponse, page: PageTemplate): void {
    // A 304 names what the 200 varies on too (RFC 9110 §15.4.5); compression adds nothing to a 304.
    res.setHeader(VARY[0], VARY[1]);
    for (const [name, value] of this.commonHeaders) res.setHeader(name, value);
    for (const [name, value] of this.options.cacheHeaders?.(req.url ?? "/") ?? REVALIDATE) res.setHeader(name, value);
    res.setHeader("ETag", page.etag);
    // A 304 carries no CSP: the browser keeps the stored response's header, whose nonce matches its body.
    if (etagMatches(req.headers["if-none-match"], page.etag)) {
      res.statusCode = 304;
      res.end();
      return;
    }
    for (const [name, value] of page.headers) res.setHeader(name, value);
    const nonce = freshNonce();
    res.setHeader("Content-Security-Policy", page.csp.join(nonce));
    res.statusCode = 200;
    if (req.method === "HEAD") {
      res.setHeader("Content-Length", filledLength(page, Buffer.byteLength(nonce)));
      res.end();
    } else {
      const body = fillTemplate(page, nonce);
      res.setHeader("Content-Length", body.length);
      res.end(body);
    }
  }
}
