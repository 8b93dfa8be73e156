/**
 * What a streamed page's compression costs (issue #33 items 1–2, `server/http/compress.ts`): CPU per request of
 * three servers sending the site's `/en` (captured from a running site), each in its own process, measured in
 * alternating rounds at 4 connections, for Brotli, gzip and identity:
 * - `page`: `pageCompression()`, the page in React's 4 kB views, each written and flushed (as React Router's
 *   adapter writes): what the site does;
 * - `plain`: `compression` with the same settings, written the same way: each write a job on libuv's pool;
 * - `whole`: the same settings, the page in one write: the floor for these bytes.
 * Prints each round and the medians; target: for Brotli and gzip, `page` ≤ 1.2× `whole` in CPU per request
 * (streaming costs little over compressing the page at once). Identity is printed for comparison: there
 * `pageCompression` writes through (Node corks a turn's writes into one `writev`; gathering them measured
 * slower), and `whole` is cheaper mostly by its single `end` with a `Content-Length`. Exits 1 when one is missed.
 *
 * Run: `npx tsx scripts/bench/compress-writes.ts [requests=600] [rounds=5]`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadLine } from "./lib/measure.ts";
import { cpuBetween, treeCpuMs } from "./lib/proc-cpu.ts";
import { startSite } from "./lib/site.ts";

const requests = Number(process.argv[2] ?? 600);
const rounds = Number(process.argv[3] ?? 5);
const CONNECTIONS = 4;
const TARGET = 1.2;
const MODES = ["page", "plain", "whole"] as const;
const ENCODINGS: Record<string, string | undefined> = { br: "br, gzip", gzip: "gzip", identity: undefined };
const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), "lib", "compress-server.ts");

interface Server {
  child: ChildProcess;
  port: number;
}

function startServer(mode: string, pageFile: string): Promise<Server> {
  const child = spawn(process.execPath, ["--import", "tsx", SERVER, mode], {
    env: { ...process.env, COMPRESS_PAGE: pageFile },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.once("data", (data: Buffer) => {
      const port = /port: (\d+)/.exec(data.toString())?.[1];
      if (port) resolve({ child, port: Number(port) });
      else reject(new Error(`unexpected output: ${data.toString()}`));
    });
    child.once("exit", (code) => reject(new Error(`the ${mode} server exited (${code})`)));
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
function get(port: number, encoding: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers = encoding ? { "accept-encoding": encoding } : {};
    request({ host: "127.0.0.1", port, path: "/", agent, headers }, (res) => {
      res.resume();
      res.on("end", resolve);
    })
      .on("error", reject)
      .end();
  });
}

/** Sends `count` requests to `server`, `CONNECTIONS` at a time. */
async function load(server: Server, encoding: string | undefined, count: number): Promise<void> {
  let sent = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (sent++ < count) await get(server.port, encoding);
    }),
  );
}

/** CPU ms per request of `server`'s process over `count` requests, after a sixth as many to warm up. */
async function cpuPerRequest(server: Server, encoding: string | undefined, count: number): Promise<number> {
  await load(server, encoding, Math.ceil(count / 6));
  const before = treeCpuMs(server.child.pid!);
  await load(server, encoding, count);
  const used = [...cpuBetween(before, treeCpuMs(server.child.pid!)).values()].reduce((a, b) => a + b, 0);
  return used / count;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  console.log(
    `Compression of a streamed page: ${requests} requests a run, ${rounds} rounds, c=${CONNECTIONS}; ${loadLine()}`,
  );
  const dir = await mkdtemp(path.join(tmpdir(), "compress-writes-"));
  const pageFile = path.join(dir, "en.html");
  const site = await startSite({ PAGE_CACHE: "off" });
  try {
    await writeFile(pageFile, Buffer.from(await (await fetch(`${site.url}/en`)).arrayBuffer()));
  } finally {
    await site.stop();
  }
  const servers = Object.fromEntries(
    await Promise.all(MODES.map(async (mode) => [mode, await startServer(mode, pageFile)] as const)),
  ) as Record<(typeof MODES)[number], Server>;
  let missed = false;
  try {
    for (const [name, encoding] of Object.entries(ENCODINGS)) {
      const figures: Record<string, number[]> = { page: [], plain: [], whole: [] };
      for (let round = 0; round < rounds; round++) {
        // Each round in another order, so no server always follows the same one.
        const order = round % 2 ? [...MODES].reverse() : MODES;
        for (const mode of order) figures[mode]!.push(await cpuPerRequest(servers[mode], encoding, requests));
      }
      const [page, plain, whole] = MODES.map((mode) => median(figures[mode]!));
      const ratio = page! / whole!;
      const judged = name !== "identity";
      missed ||= judged && ratio > TARGET;
      const list = (mode: string) => figures[mode]!.map((v) => v.toFixed(2)).join(", ");
      console.log(`${name}: CPU ms/request page ${list("page")} | plain ${list("plain")} | whole ${list("whole")}`);
      console.log(
        `  => ${name}: page ${page!.toFixed(2)}, plain ${plain!.toFixed(2)}, whole ${whole!.toFixed(2)} ms (medians); ` +
          `page ÷ whole ${ratio.toFixed(2)}×${judged ? ` (target ≤ ${TARGET}: ${ratio <= TARGET ? "met" : "NOT met"})` : ""}, ` +
          `page ÷ plain ${(page! / plain!).toFixed(2)}×`,
      );
    }
  } finally {
    for (const server of Object.values(servers)) server.child.kill();
    await rm(dir, { recursive: true, force: true });
  }
  console.log(`done; ${loadLine()}`);
  if (missed) process.exitCode = 1;
}

await main();
