/**
 * The peer's server, as React Router's Express template has it: Express 5, `compression` with its defaults,
 * `express.static` for the hashed assets and the rest of `build/client`, React Router's request handler. With
 * `PEER_PROCESSES` > 1, that many processes share the port (Node's cluster, as the project's
 * `WEB_CONCURRENCY`). Prints "Peer ready: <url>" once every process listens.
 *
 * Run (the benchmark does): `PEER_BUILD_DIR=<dir> node --import tsx scripts/bench/peer/server.ts`.
 */
import cluster from "node:cluster";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import type { ServerBuild } from "react-router";

const buildDir = process.env.PEER_BUILD_DIR;
if (!buildDir) throw new Error("Set PEER_BUILD_DIR to the peer's build folder (scripts/bench/lib/peer.ts builds it).");
const processes = Number(process.env.PEER_PROCESSES ?? 1);

async function serve(port: number): Promise<AddressInfo | string | null> {
  const build = (await import(pathToFileURL(path.join(buildDir!, "server", "index.js")).href)) as ServerBuild;
  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  app.use("/assets", express.static(path.join(buildDir!, "client", "assets"), { immutable: true, maxAge: "1y" }));
  app.use(express.static(path.join(buildDir!, "client"), { maxAge: "1h" }));
  app.use(createRequestHandler({ build, mode: "production" }));
  return new Promise((resolve) => {
    const server = app.listen(port, "127.0.0.1", () => resolve(server.address()));
  });
}

if (processes > 1 && cluster.isPrimary) {
  // Workers that listen on port 0 share one port, which the primary learns from their "listening" events.
  let port = 0;
  let listening = 0;
  cluster.on("listening", (_worker, address) => {
    port = address.port;
    if (++listening === processes) console.log(`Peer ready: http://127.0.0.1:${port}`);
  });
  for (let i = 0; i < processes; i++) cluster.fork();
  process.on("SIGTERM", () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill("SIGTERM");
    process.exit(0);
  });
} else if (cluster.isWorker) {
  await serve(0);
} else {
  console.log(`Peer ready: http://127.0.0.1:${((await serve(0)) as AddressInfo).port}`);
}
