/**
 * The site's HTTP server: hashed assets from `build/client` (immutable), public pages from the page cache
 * while Appwrite's change feed is live, everything else through React Router's request handler with the
 * server build. Responses are compressed (gzip or Brotli, as the browser accepts). Binds where it is told
 * (loopback by default).
 *
 * Before anything else, even a cache hit: a request must name one of the site's hosts (421 otherwise, 400 for
 * a malformed `Host`; SECURITY C56, `server/http/site-host.ts`), in its `Host` or in an absolute-form target
 * (which is then served as the origin-form path; C72; a path starting with `//` is redirected), and a public page's URL must carry only the
 * query parameters that page reads (a redirect to the canonical URL otherwise; C54, `lib/http/page-query.ts`).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import express, { type Request as ExpressRequest } from "express";
import { createRequestHandler as createFetchHandler, type ServerBuild } from "react-router";
import { watchDocumentChanges, type ChangeFeed } from "./changes.ts";
import { appwriteSessionCheck, SessionVerdicts } from "./auth/session-verdict.ts";
import { loadConfig } from "../lib/config.ts";
import { CachedPages } from "./http/cached-pages.ts";
import { PAGE_MAX_AGE_MS, PageCache } from "./http/page-cache.ts";
import { pageCompression } from "./http/compress.ts";
import { StaticFiles } from "./http/static-files.ts";
import { READ_CACHE_MAX_AGE_MS, sharedGuestReadCache } from "../lib/appwrite/read-cache.ts";
import { clientAddress, proxyHops } from "./http/proxy.ts";
import { checkHost, checkTarget, siteHosts, type HostCheck } from "./http/site-host.ts";
import { createAdminServices } from "../lib/appwrite/client.ts";
import { startScheduler, type Scheduler } from "../lib/publish/schedule.ts";
import { lazyPreviewSecret, previewRedirect } from "./http/preview-gate.ts";
import { publicPageHeaders, type SharedCaching } from "./http/cache-headers.ts";
import { readinessCheck, sendReadiness } from "./http/readiness.ts";
import { isPublicPageRequest, publicPagesBuild } from "./http/public-build.ts";
import {
  COMMON_HEADERS,
  HEALTH_PATH,
  READY_PATH,
  canonicalRedirect,
  redirect,
  refuse,
  setCommonHeaders,
} from "./http/front-door.ts";
import { requestGuard } from "./http/request-guard.ts";
import { loadDeployConfig } from "../lib/deploy-config.ts";
import type { AppwriteSchema } from "../lib/appwrite/setup.ts";
import schema from "../model/appwrite.json" with { type: "json" };

export interface SiteOptions {
  /** Project root holding `build/`. */
  root: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /**
   * Reverse proxies in front of the site whose `X-Forwarded-For` / `-Proto` / `-Host` are trusted: `true` is
   * one, a number that many, false/undefined none (`server/http/proxy.ts`; Express's `trust proxy` hop count).
   */
  trustProxy?: boolean | number;
  /** The public URL (`SITE_URL`; default: the environment's): its host is one the site answers for. */
  siteUrl?: string;
  /**
   * Cache rendered public pages while Appwrite's realtime change feed is live (default: `PAGE_CACHE`, on). Needs
   * `APPWRITE_ENDPOINT` and `APPWRITE_PROJECT_ID` in the environment when the site starts.
   */
  pageCache?: boolean;
  /**
   * Longest a cached page is served, in ms, even when no event said it changed (default `PAGE_MAX_AGE_MS`,
   * 60 s: an unpublish reaches no guest subscriber; docs/decisions/0006). Tests shorten it.
   */
  pageMaxAgeMs?: number;
  /**
   * Cache the guest reads public pages make for a few seconds, dropped by the change feed (default: on unless
   * `READ_CACHE=off`; `lib/appwrite/read-cache.ts`). Off here turns it off for every site in the process.
   */
  readCache?: boolean;
  /** Longest the scheduler waits before looking for due items again, in ms (default 30 s; tests shorten it). */
  scheduleRecheckMs?: number;
  /** What shared caches may do with public pages (default: `CDN_MAX_AGE`, `CDN_STALE_WHILE_REVALIDATE`). */
  sharedCaching?: SharedCaching;
  /** How long a `/readyz` answer is reused, in ms (default 5 s; tests pass 0). */
  readinessTtlMs?: number;
  /**
   * Answer page-cache hits before Express (default true). False sends every request through Express, where
   * hits are answered too: tests compare the two answers.
   */
  fastPath?: boolean;
}

/**
 * How long an idle keep-alive connection stays open, in ms. Node's default (5 s) is shorter than a proxy's pooled
 * upstream connections (nginx `keepalive` with its 60 s `keepalive_timeout`, docs/deployment/nginx.conf; load
 * balancers 60 s): the site would close a connection the proxy is about to send on, and the proxy answers 502 (or
 * retries a GET, never a POST). Longer than theirs, so the proxy closes first. Sent as `Keep-Alive: timeout=65`.
 */
export const KEEP_ALIVE_MS = 65_000;

export interface RunningSite {
  /** `http://<host>:<port>` */
  url: string;
  port: number;
  /** The page cache, when enabled (for tests and benchmarks: `size`, `generation`). */
  pages: PageCache | null;
  /**
   * Counters for tests and benchmarks: `renders` is the number of requests handed to React Router,
   * `requests` every request that reached this server (an origin's count behind a cache).
   */
  stats: { renders: number; requests: number };
  close(): Promise<void>;
}

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
    (options.pageCache ?? appwrite.pageCache) && appwrite.appwriteEndpoint && appwrite.projectId
      ? new PageCache({ maxAgeMs: options.pageMaxAgeMs })
      : null;
  // Scheduled items go public at their due time in every process, with the page cache dropped then (issue #16).
  const scheduler: Scheduler | null =
    appwrite.appwriteEndpoint && appwrite.projectId && appwrite.apiKey
      ? startScheduler(
          createAdminServices({
            endpoint: appwrite.appwriteEndpoint,
            projectId: appwrite.projectId,
            apiKey: appwrite.apiKey,
          }),
          {
            onDue: () => {
              pages?.invalidate();
              sharedGuestReadCache().invalidate();
            },
            recheckMs: options.scheduleRecheckMs,
          },
        )
      : null;
  // Guest reads are cached briefly while the feed is live (issue #33 item 2), with or without the page cache.
  const reads = sharedGuestReadCache();
  const readCache = (options.readCache ?? process.env.READ_CACHE !== "off") && !!appwrite.appwriteEndpoint;
  /** After a write (reported by the feed, or an admin save answered here): nothing cached is kept. */
  const written = () => {
    pages?.invalidate();
    reads.invalidate();
    scheduler?.refresh(); // the write may have scheduled something
  };
  const feed: ChangeFeed | null =
    (pages || readCache) && appwrite.appwriteEndpoint && appwrite.projectId
      ? watchDocumentChanges({ endpoint: appwrite.appwriteEndpoint, projectId: appwrite.projectId }, written)
      : null;
  const detachReads = reads.attach({
    enabled: readCache,
    live: () => feed?.live === true,
    maxAgeMs: Math.min(READ_CACHE_MAX_AGE_MS, options.pageMaxAgeMs ?? PAGE_MAX_AGE_MS),
  });

  // Read (as the pages do) when the first token comes; until then, or if it cannot be, the pages check tokens.
  const secretOfPreviews = lazyPreviewSecret(appwrite.previewSecret, appwrite.dataDir);
  const hops = proxyHops(options.trustProxy);
  let hosts = new Set<string>(); // filled once the port is known
  /** Origins of the requests that passed the host check (`scheme://host[:port]`), for the handlers below. */
  const origins = new WeakMap<object, string>();
  const originOf = (req: object) => origins.get(req) ?? "http://localhost";
  const loadContextOf = (req: ExpressRequest) => ({ clientIp: clientAddress(req, hops) });
  const stats = { renders: 0, requests: 0 };
  const deploy = loadDeployConfig();
  const readiness =
    appwrite.appwriteEndpoint && appwrite.projectId && appwrite.apiKey
      ? readinessCheck(
          { endpoint: appwrite.appwriteEndpoint, projectId: appwrite.projectId, apiKey: appwrite.apiKey },
          schema as AppwriteSchema,
          options.readinessTtlMs,
        )
      : null;

  const app = express();
  app.disable("x-powered-by");
  app.disable("etag"); // pages carry their own validators; React Router's responses are not buffered for one
  app.use(pageCompression()); // tuned for a streamed page: server/http/compress.ts
  app.set("trust proxy", hops); // React Router's adapter builds the URL from req.protocol and req.host
  app.use(requestGuard({ originOf, onAdminWrite: written }));
  const render = createFetchHandler(build, "production");
  // Public pages are rendered with the public routes alone (same pages, less routing per request; #33 item 1).
  const pagesBuild = publicPagesBuild(build);
  const renderPageMiss = pagesBuild ? createFetchHandler(pagesBuild, "production") : render;
  // A session cookie Appwrite does not know is a guest's, served from the cache (SECURITY C71).
  const verdicts = new SessionVerdicts({
    isSession: appwriteSessionCheck({ endpoint: appwrite.appwriteEndpoint!, projectId: appwrite.projectId! }),
  });
  const cachedPages = pages
    ? new CachedPages({
        cache: pages,
        trusted: () => feed?.live === true,
        render: (request, req) => {
          stats.renders += 1;
          return (isPublicPageRequest(req.method, req.path) ? renderPageMiss : render)(request, loadContextOf(req));
        },
        signedIn: (cookie) => verdicts.known(cookie) ?? verdicts.judge(cookie),
        commonHeaders: COMMON_HEADERS,
        originOf,
        cacheHeaders: publicPageHeaders(options.sharedCaching ?? deploy),
      })
    : null;
  if (cachedPages) app.use(cachedPages.middleware());
  app.use((_req, _res, next) => {
    stats.renders += 1;
    next();
  });
  const renderAny = createRequestHandler({ build, mode: "production", getLoadContext: loadContextOf });
  const renderPage = pagesBuild
    ? createRequestHandler({ build: pagesBuild, mode: "production", getLoadContext: loadContextOf })
    : renderAny;
  app.use((req, res, next) => (isPublicPageRequest(req.method, req.path) ? renderPage : renderAny)(req, res, next));

  // build/client from memory: no filesystem call per request (issue #33 item 3).
  const staticFiles = new StaticFiles(path.join(buildDir, "client"), COMMON_HEADERS);

  const host = options.host ?? "127.0.0.1";
  const fastPath = options.fastPath ?? true;
  // A cached page is answered before Express: a hit costs about what a static file does. The host check and
  // the canonical-query redirect come first, so neither a foreign host nor a made-up query reaches the cache.
  // Without trusted proxies a request's verdict depends on its Host header alone: remembered per value.
  const hostVerdicts = new Map<string, HostCheck>();
  const hostOf = (req: IncomingMessage): HostCheck => {
    const raw = req.headers.host;
    if (hops !== 0 || raw === undefined || ("encrypted" in req.socket && req.socket.encrypted)) {
      return checkHost(req, hops, hosts);
    }
    let verdict = hostVerdicts.get(raw);
    if (!verdict) {
      verdict = checkHost(req, hops, hosts);
      if (hostVerdicts.size >= 64) hostVerdicts.clear();
      hostVerdicts.set(raw, verdict);
    }
    return verdict;
  };
  const server: Server = createServer((req, res) => {
    stats.requests += 1;
    const target = checkTarget(req.method, req.url ?? "/", hosts);
    if (target.ok === false) {
      refuse(res, target.status, target.message);
      return;
    }
    // An absolute-form target's authority replaces Host (RFC 9112 §3.2.2); everything below sees origin-form.
    if (target.ok === true) {
      req.url = target.path;
      if (target.authority !== undefined) req.headers.host = target.authority;
    }
    const url = req.url ?? "/";
    const host = hostOf(req);
    if (!host.ok && (host.status === 400 || !HEALTH_PATH.test(url))) {
      refuse(res, host.status, host.message);
      return;
    }
    if (target.ok === "redirect") {
      redirect(res, target.location);
      return;
    }
    // A file of the build (hashed assets): from memory, before any check that reads only pages' URLs.
    if (staticFiles.serve(req, res)) return;
    if (READY_PATH.test(url) && readiness && (req.method === "GET" || req.method === "HEAD")) {
      setCommonHeaders(res);
      void readiness().then((answer) => sendReadiness(res, answer, req.method === "HEAD"));
      return;
    }
    const canonical = canonicalRedirect(req.method, url);
    if (canonical !== null) {
      redirect(res, canonical);
      return;
    }
    // A preview token not signed for this item (or expired) costs a redirect, not a render (C71).
    const plain = req.method === "GET" || req.method === "HEAD" ? previewRedirect(url, secretOfPreviews) : null;
    if (plain !== null) {
      setCommonHeaders(res);
      res.writeHead(302, { Location: plain, "Cache-Control": "no-store" }).end();
      return;
    }
    if (host.ok && fastPath && cachedPages?.serveFromCache(req, res, host.origin)) return;
    if (host.ok) origins.set(req, host.origin);
    void app(req, res);
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  hosts = siteHosts({ siteUrl: options.siteUrl ?? process.env.SITE_URL, listenHost: host, port });
  hostVerdicts.clear();
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    pages,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        feed?.close();
        detachReads();
        scheduler?.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
