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
}

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
  app.use((_req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    next();
  });
  app.use(
    "/assets",
    express.static(path.join(buildDir, "client", "assets"), { immutable: true, maxAge: "1y", index: false }),
  );
  app.use(express.static(path.join(buildDir, "client"), { maxAge: "1h", index: false }));
  app.use(createRequestHandler({ build, mode: "production" }));

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
