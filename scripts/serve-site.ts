/**
 * The site's HTTP server: hashed assets from `build/client` (immutable), public pages from the page cache
 * while Appwrite's change feed is live, everything else through React Router's request handler with the
 * server build. Responses are compressed (gzip or Brotli, as the browser accepts). Binds where it is told
 * (loopback by default).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type Request as ExpressRequest } from "express";
import { createRequestHandler as createFetchHandler, type ServerBuild } from "react-router";
import { watchDocumentChanges, type ChangeFeed } from "../lib/appwrite/changes.ts";
import { hasSessionCookie } from "../lib/auth/session-cookie.ts";
import { loadConfig } from "../lib/config.ts";
import { CachedPages } from "../lib/http/cached-pages.ts";
import { PageCache } from "../lib/http/page-cache.ts";

export interface SiteOptions {
  /** Project root holding `build/`. */
  root: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Trust `X-Forwarded-For` / `X-Forwarded-Proto` (only behind a proxy that sets them). */
  trustProxy?: boolean;
  /**
   * Cache rendered public pages while Appwrite's realtime change feed is live (default true). Needs
   * `APPWRITE_ENDPOINT` and `APPWRITE_PROJECT_ID` in the environment when the site starts.
   */
  pageCache?: boolean;
  /**
   * Longest a cached page is served, in ms, even when no event said it changed (default `PAGE_MAX_AGE_MS`,
   * 60 s: an unpublish reaches no guest subscriber; docs/decisions/0006). Tests shorten it.
   */
  pageMaxAgeMs?: number;
}

/** Largest request body accepted, in bytes: a 5 MB image plus the form's fields (SECURITY C30). */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;
/** How long a connection whose body was refused stays open after the answer, in ms (a lingering close). */
const REFUSED_BODY_LINGER_MS = 500;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface RunningSite {
  /** `http://<host>:<port>` */
  url: string;
  port: number;
  /** The page cache, when enabled (for tests and benchmarks: `size`, `generation`). */
  pages: PageCache | null;
  close(): Promise<void>;
}

/** The client IP as this server saw it (a proxy's header only with `trustProxy`). */
const loadContextOf = (req: ExpressRequest) => ({ clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown" });

/** Headers of every response (SECURITY C24). */
const COMMON_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
} as const;

/** Admin mutations change what public pages show: when one finishes, cached pages are dropped. */
const ADMIN_PATH = /^\/admin(\/|$)/;

/**
 * Starts the site from the production build in `root/build`.
 * @throws {Error} when the build is missing or the port is taken.
 */
export async function startSite(options: SiteOptions): Promise<RunningSite> {
  const buildDir = path.join(options.root, "build");
  const build = (await import(pathToFileURL(path.join(buildDir, "server", "index.js")).href)) as ServerBuild;

  // Public pages are cached only while a live feed reports every write made anywhere (studio, console).
  const appwrite = loadConfig();
  const pages =
    options.pageCache !== false && appwrite.appwriteEndpoint && appwrite.projectId
      ? new PageCache({ maxAgeMs: options.pageMaxAgeMs })
      : null;
  const feed: ChangeFeed | null = pages
    ? watchDocumentChanges({ endpoint: appwrite.appwriteEndpoint!, projectId: appwrite.projectId! }, () =>
        pages.invalidate(),
      )
    : null;

  const app = express();
  app.disable("x-powered-by");
  app.disable("etag"); // pages carry their own validators; React Router's responses are not buffered for one
  app.use(compression());
  app.set("trust proxy", options.trustProxy ?? false);
  app.use((req, res, next) => {
    for (const [name, value] of Object.entries(COMMON_HEADERS)) res.setHeader(name, value);
    if (req.method === "TRACE" || req.method === "TRACK") {
      res.status(405).setHeader("Allow", "GET, HEAD, POST").end(); // SECURITY C27
      return;
    }
    if (/^\/(admin|[a-z]{2}\/login)(\/|$)/.test(req.path)) res.setHeader("Cache-Control", "no-store"); // C25
    if (SAFE_METHODS.has(req.method)) return next();
    if (pages && ADMIN_PATH.test(req.path)) res.once("finish", () => pages.invalidate());
    // Every mutation, UI route or resource route, must come from this site (SECURITY C8, C9).
    const origin = req.get("origin");
    if (origin !== undefined && origin !== `${req.protocol}://${req.get("host")}`) {
      res.status(400).type("text/plain").send("Cross-origin requests are not accepted.");
      return;
    }
    if (origin === undefined && req.get("sec-fetch-site") === "cross-site") {
      res.status(403).type("text/plain").send("Cross-site requests are not accepted.");
      return;
    }
    // Bodies are capped before a byte is read, so a huge upload never reaches memory (C30).
    const length = Number(req.get("content-length") ?? "NaN");
    if (Number.isNaN(length) ? req.get("transfer-encoding") !== undefined : length > MAX_BODY_BYTES) {
      res
        .status(Number.isNaN(length) ? 411 : 413)
        .type("text/plain")
        .send("The request body is too large (at most 6 MB).");
      // The body is never read: once the answer is out, give the client a moment to read it, then hang up
      // (a 100 MB upload costs nothing; draining it would cost reading 100 MB).
      res.once("finish", () => setTimeout(() => req.socket.destroy(), REFUSED_BODY_LINGER_MS).unref());
      return;
    }
    next();
  });
  const render = createFetchHandler(build, "production");
  const cachedPages = pages
    ? new CachedPages({
        cache: pages,
        trusted: () => feed?.live === true,
        render: (request, req) => render(request, loadContextOf(req)),
        signedIn: hasSessionCookie,
        commonHeaders: COMMON_HEADERS,
        trustProxy: options.trustProxy,
      })
    : null;
  if (cachedPages) app.use(cachedPages.middleware());
  app.use(
    "/assets",
    express.static(path.join(buildDir, "client", "assets"), { immutable: true, maxAge: "1y", index: false }),
  );
  app.use(express.static(path.join(buildDir, "client"), { maxAge: "1h", index: false }));
  app.use(
    createRequestHandler({
      build,
      mode: "production",
      getLoadContext: loadContextOf,
    }),
  );

  const host = options.host ?? "127.0.0.1";
  // A cached page is answered before Express: a hit costs about what a static file does.
  const server: Server = createServer((req, res) => {
    if (!cachedPages?.serveFromCache(req, res)) void app(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    pages,
    close: () =>
      new Promise<void>((resolve) => {
        feed?.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
