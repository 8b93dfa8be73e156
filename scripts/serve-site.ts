/**
 * The site's HTTP server: hashed assets from `build/client` (immutable), everything else through React
 * Router's request handler with the server build. Binds where it is told (loopback by default).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import type { ServerBuild } from "react-router";

export interface SiteOptions {
  /** Project root holding `build/`. */
  root: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Trust `X-Forwarded-For` / `X-Forwarded-Proto` (only behind a proxy that sets them). */
  trustProxy?: boolean;
}

/** Largest request body accepted, in bytes: a 5 MB image plus the form's fields (SECURITY C30). */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface RunningSite {
  /** `http://<host>:<port>` */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Starts the site from the production build in `root/build`.
 * @throws {Error} when the build is missing or the port is taken.
 */
export async function startSite(options: SiteOptions): Promise<RunningSite> {
  const buildDir = path.join(options.root, "build");
  const build = (await import(pathToFileURL(path.join(buildDir, "server", "index.js")).href)) as ServerBuild;

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", options.trustProxy ?? false);
  app.use((req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    if (req.method === "TRACE" || req.method === "TRACK") {
      res.status(405).setHeader("Allow", "GET, HEAD, POST").end(); // SECURITY C27
      return;
    }
    if (/^\/(admin|[a-z]{2}\/login)(\/|$)/.test(req.path)) res.setHeader("Cache-Control", "no-store"); // C25
    if (SAFE_METHODS.has(req.method)) return next();
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
      req.resume();
      return;
    }
    next();
  });
  app.use(
    "/assets",
    express.static(path.join(buildDir, "client", "assets"), { immutable: true, maxAge: "1y", index: false }),
  );
  app.use(express.static(path.join(buildDir, "client"), { maxAge: "1h", index: false }));
  app.use(
    createRequestHandler({
      build,
      mode: "production",
      // Loaders and actions get the client IP as this server saw it (a proxy's header only with trustProxy).
      getLoadContext: (req) => ({ clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown" }),
    }),
  );

  const host = options.host ?? "127.0.0.1";
  const server: Server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
