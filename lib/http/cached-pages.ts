/**
 * Express middleware serving public pages from a `PageCache` (issue #8 item 2): signed-out `GET`/`HEAD` of a
 * page under a locale (`/en`, `/ar/blog/<slug>`, …) is rendered once per generation and then answered from
 * memory with a fresh CSP nonce, a weak ETag and `Cache-Control: public, no-cache` (browsers and proxies
 * may keep it but revalidate; an unchanged page costs a 304). Signed-in requests get
 * `Cache-Control: private, no-store` and are never cached (SECURITY C25). Concurrent misses of one page
 * share one render.
 */
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { cspNonce, etagMatches, fillTemplate, makeTemplate, type PageCache, type PageTemplate } from "./page-cache.ts";

export interface CachedPagesOptions {
  cache: PageCache;
  /** Whether stored pages can be trusted right now (e.g. the change feed is live). */
  trusted: () => boolean;
  /** Renders a request to a response (React Router's request handler); `req` is the Express request. */
  render: (request: Request, req: ExpressRequest) => Promise<Response>;
  /** Whether the request carries a signed-in session. */
  signedIn: (req: ExpressRequest) => boolean;
}

/** A public page: a locale segment, then a path without a file extension (no `.data`, `.xml`). */
const PAGE_PATH = /^\/[a-z]{2}(?:\/[^.]*)?$/;
/** Pages that set cookies or depend on the visitor: never cached. */
const PRIVATE_PAGE = /^\/[a-z]{2}\/login\/?$/;
/** Headers of a rendered page that are per response, or set here. */
const NOT_STORED = new Set(["content-security-policy", "content-length", "date", "etag", "cache-control"]);

/** The Fetch API request React Router renders for an Express `GET`. */
function toFetchRequest(req: ExpressRequest): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  return new Request(new URL(req.originalUrl, `${req.protocol}://${req.get("host") ?? "localhost"}`), {
    method: "GET",
    headers,
  });
}

/** The template of a rendered page, or null when the response must not be shared (status, cookies, type). */
async function templateOf(response: Response): Promise<PageTemplate | null> {
  const csp = response.headers.get("content-security-policy") ?? "";
  const nonce = cspNonce(csp);
  const cacheControl = response.headers.get("cache-control") ?? "";
  if (
    response.status !== 200 ||
    !nonce ||
    response.headers.getSetCookie().length > 0 ||
    !/^text\/html\b/.test(response.headers.get("content-type") ?? "") ||
    /private|no-store/.test(cacheControl)
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

/** Answers from a template: 304 when the browser's copy is current, else the page with a fresh nonce. */
function serve(req: ExpressRequest, res: ExpressResponse, page: PageTemplate): void {
  res.setHeader("Cache-Control", "public, no-cache");
  res.setHeader("ETag", page.etag);
  // A 304 carries no CSP: the browser keeps the stored response's header, whose nonce matches its body.
  if (etagMatches(req.get("if-none-match"), page.etag)) {
    res.status(304).end();
    return;
  }
  for (const [name, value] of page.headers) res.setHeader(name, value);
  const { html, csp } = fillTemplate(page, randomBytes(16).toString("base64"));
  res.setHeader("Content-Security-Policy", csp);
  res.status(200);
  if (req.method === "HEAD") {
    res.setHeader("Content-Length", page.bytes);
    res.end();
  } else {
    res.end(html);
  }
}

/**
 * The middleware. Requests it does not handle (other paths and methods, query strings, an untrusted cache,
 * pages that cannot be shared) go on to `next` or are answered as rendered.
 */
export function cachedPages(options: CachedPagesOptions): RequestHandler {
  const { cache } = options;
  const inflight = new Map<string, Promise<void>>();

  return async (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !PAGE_PATH.test(req.path) || PRIVATE_PAGE.test(req.path)) {
      next();
      return;
    }
    res.vary("Cookie");
    if (options.signedIn(req)) {
      res.setHeader("Cache-Control", "private, no-store");
      next();
      return;
    }
    if (req.url.includes("?") || !options.trusted()) {
      next();
      return;
    }
    const key = `${req.protocol}://${req.get("host") ?? ""}${req.path}`;
    let page = cache.lookup(key);
    if (!page && req.method === "GET") {
      const pending = inflight.get(key);
      if (pending) {
        await pending;
        page = cache.lookup(key); // only what the render could store: nothing older than a write
      } else {
        const generation = cache.generation;
        let done!: () => void;
        inflight.set(
          key,
          new Promise<void>((resolve) => (done = resolve)),
        );
        try {
          const response = await options.render(toFetchRequest(req), req);
          const template = await templateOf(response);
          if (!template) {
            await send(res, response);
            return;
          }
          cache.store(key, template, generation);
          page = template;
        } finally {
          inflight.delete(key);
          done();
        }
      }
    }
    if (!page) {
      next();
      return;
    }
    serve(req, res, page);
  };
}
