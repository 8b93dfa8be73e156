/**
 * The cached path (issue #33 item 3): a page served from the page cache, and a hashed asset (served from
 * memory, `server/http/static-files.ts`), each beside a bare `node:http` server sending the same bytes with the
 * same headers, at 50 connections with a browser's headers (`Accept-Encoding: br, gzip`, cookies that are not a
 * session). The load is printed with every run.
 *
 * The site runs as in production with `WEB_CONCURRENCY=2` (default `--processes=2`): the launcher (embedded
 * server, cluster primary) forks the site processes that serve every request. The figure is theirs: CPU per
 * request = the site processes' CPU (`/proc/<pid>/stat`, all threads: JavaScript, GC, libuv) ÷ requests. The
 * bare twin runs the same layout (a cluster primary and as many workers), and its figure is its workers'. The
 * launcher's own CPU (the primary hands connections out; nothing else happens there on a hit) is printed apart.
 * `--processes=1` measures the launcher itself serving (`WEB_CONCURRENCY=1`, everything in one process) against
 * one bare process.
 *
 * `--before=<checkout>`: a second site from another worktree (e.g. main's), measured in the same rounds (before,
 * after, bare, in turn), so the two are compared side by side at the same load. `--alloc`: every process runs
 * with `--trace-gc-nvp --max-semi-space-size=1`, and the JS heap allocated per request (the sum of V8's
 * `allocated=` over the GCs in a run ÷ requests; a 1 MB young generation keeps what the last GC of a run had not
 * yet counted small) and the GC pauses per request (`pause=`, wall time: inflated on a loaded machine) are
 * printed; the CPU figures of such a run are not comparable with a plain run's.
 *
 * Targets: the site ≥ 1× the bare server's req/s and ≤ 1× its CPU per request. Each figure is printed per round
 * and as the median (range) over rounds. Exits 1 when the median req/s ratio is under 1.
 *
 * `--node-args=<a,b>`: options for `node` of the "after" site only (its site processes inherit them), to try a
 * V8 setting against `--before`.
 *
 * Run: `npx tsx scripts/bench/cached-path.ts [seconds=5] [rounds=3] [--before=/path/to/main] [--processes=2] [--alloc]`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { loadLine } from "./lib/measure.ts";
import { startSite, type BenchSite } from "./lib/site.ts";
import { autocannon, type LoadResult } from "./lib/autocannon.ts";
import { cpuBetween, processTree, treeCpuMs } from "./lib/proc-cpu.ts";

const positional = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}`))?.split("=")[1] ?? undefined;
const seconds = Number(positional[0] ?? 5);
const rounds = Number(positional[1] ?? 3);
const processes = Number(flag("processes") ?? 2);
const beforeRoot = flag("before");
const alloc = process.argv.includes("--alloc");
/** `--node-args=a,b`: options for `node` of the "after" site only (e.g. a V8 setting tried against `--before`). */
const afterNodeArgs =
  process.argv
    .find((a) => a.startsWith("--node-args="))
    ?.slice("--node-args=".length)
    .split(",") ?? [];
const NODE_ARGS = alloc ? ["--trace-gc-nvp", "--max-semi-space-size=1"] : [];
const CONNECTIONS = 50;
const BROWSER = {
  "accept-encoding": "br, gzip",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  cookie: "_ga=GA1.1.1695662811.1764201600; theme=dark",
};

/** A server under test: its root process, and V8's `allocated=` bytes summed per pid (with `--alloc`). */
interface Target {
  name: string;
  url: string;
  child: ChildProcess;
  allocated: Map<number, number>;
}

/** Sums the `allocated=` (bytes) of `--trace-gc-nvp` lines printed on `child`'s stdout per pid, and (under
 * `-pid`) their `pause=` in µs. */
function countAllocations(child: ChildProcess): Map<number, number> {
  const sums = new Map<number, number>();
  let rest = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split("\n");
    rest = lines.pop()!;
    for (const line of lines) {
      const match = /^\[(\d+):0x[0-9a-f]+\].* pause=([\d.]+) .* allocated=(\d+)/.exec(line);
      if (!match) continue;
      const pid = Number(match[1]);
      sums.set(pid, (sums.get(pid) ?? 0) + Number(match[3]));
      sums.set(-pid, (sums.get(-pid) ?? 0) + Number(match[2]) * 1000);
    }
  });
  return sums;
}

/** The processes that answer requests: the root's node children in a cluster, else the root itself. */
function servingPids(root: number): number[] {
  if (processes === 1) return [root];
  return processTree(root).filter((pid) => {
    if (pid === root) return false;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      return /site-process|bare-twin/.test(cmdline);
    } catch {
      return false;
    }
  });
}

/** The bytes and headers the site answers `url` with (raw: not decoded). */
function capture(url: string): Promise<{ headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: BROWSER }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (typeof value === "string" && name !== "date" && name !== "connection" && name !== "keep-alive") {
            headers[name] = value;
          }
        }
        resolve({ headers, body: Buffer.concat(parts) });
      });
    })
      .on("error", reject)
      .end();
  });
}

/** A bare node:http server answering every request with `headers` and `body`, in the site's process layout. */
async function bareTwin(headers: Record<string, string>, body: Buffer): Promise<Target & { stop(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), "bare-twin-"));
  const file = path.join(dir, "bare-twin.cjs");
  await writeFile(
    file,
    `const http = require("node:http");
    const cluster = require("node:cluster");
    const workers = ${processes};
    if (workers > 1 && cluster.isPrimary) {
      for (let i = 0; i < workers; i++) cluster.fork();
      let ready = 0;
      cluster.on("message", (_w, port) => { if (++ready === workers) console.log("bare " + port); });
    } else {
      const headers = ${JSON.stringify(headers)};
      const body = Buffer.from(${JSON.stringify(body.toString("base64"))}, "base64");
      const server = http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); });
      server.listen(0, "127.0.0.1", () => {
        const port = server.address().port;
        if (cluster.isWorker) process.send(port); else console.log("bare " + port);
      });
    }`,
  );
  const child = spawn(process.execPath, [...NODE_ARGS, file], { stdio: ["ignore", "pipe", "inherit"] });
  const allocated = countAllocations(child);
  const port = await new Promise<number>((resolve) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const match = /bare (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    name: "bare node:http",
    url: `http://127.0.0.1:${port}`,
    child,
    allocated,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** One measured run: req/s, CPU and JS heap allocated per request of the serving processes, the root's CPU. */
interface Run {
  result: LoadResult;
  requests: number;
  cpuUs: number;
  rootCpuUs: number;
  allocBytes: number;
  /** µs of GC pauses (main thread) per request, with `--alloc`. */
  gcUs: number;
  load: number;
}

async function run(target: Target, pathname: string): Promise<Run> {
  const root = target.child.pid!;
  const serving = servingPids(root);
  const allocBefore = serving.reduce((s, pid) => s + (target.allocated.get(pid) ?? 0), 0);
  const pauseBefore = serving.reduce((s, pid) => s + (target.allocated.get(-pid) ?? 0), 0);
  const before = treeCpuMs(root);
  const result = await autocannon(target.url + pathname, CONNECTIONS, seconds, BROWSER);
  const used = cpuBetween(before, treeCpuMs(root));
  await new Promise((resolve) => setTimeout(resolve, 200)); // the last GC lines
  const allocAfter = serving.reduce((s, pid) => s + (target.allocated.get(pid) ?? 0), 0);
  const pauseAfter = serving.reduce((s, pid) => s + (target.allocated.get(-pid) ?? 0), 0);
  const requests = Math.max(1, result["2xx"] + result["3xx"]);
  const servingMs = serving.reduce((s, pid) => s + (used.get(pid) ?? 0), 0);
  return {
    result,
    requests,
    cpuUs: (servingMs * 1000) / requests,
    rootCpuUs: processes === 1 ? 0 : ((used.get(root) ?? 0) * 1000) / requests,
    allocBytes: (allocAfter - allocBefore) / requests,
    gcUs: (pauseAfter - pauseBefore) / requests,
    load: loadavg()[0]!,
  };
}

function row(label: string, m: Run): string {
  const r = m.result;
  const failures = r.errors + r.timeouts + r.non2xx;
  return (
    `  ${label.padEnd(15)} ${r.requests.average.toFixed(0).padStart(6)} req/s  p50 ${String(r.latency.p50).padStart(3)} ms` +
    `  CPU/req ${m.cpuUs.toFixed(0).padStart(4)} µs${processes > 1 ? ` (+ primary ${m.rootCpuUs.toFixed(0)})` : ""}` +
    (alloc ? `  heap/req ${(m.allocBytes / 1024).toFixed(2).padStart(6)} kB  GC wall ${m.gcUs.toFixed(1)} µs` : "") +
    `  load ${m.load.toFixed(2)}${failures ? `  failures ${failures}` : ""}`
  );
}

/** "median (min–max)" of `values`, each with `digits` decimals and `unit`. */
function summary(values: number[], digits = 2, unit = "×"): string {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  const f = (v: number) => v.toFixed(digits) + unit;
  return `${f(median)} (${f(sorted[0]!)}–${f(sorted.at(-1)!)})`;
}

/** Whether a request on a new connection (so any site process may answer) gets `/en` from the page cache. */
function cachedOnFreshConnection(url: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    request(`${url}/en`, { agent: false, headers: BROWSER }, (res) => {
      res.resume();
      // Only a page answered from the page cache carries an ETag (a render streams without one).
      res.on("end", () => resolve(res.headers.etag !== undefined));
    })
      .on("error", reject)
      .end();
  });
}

/** Waits until every site process answers `/en` from its page cache; returns the page's first hashed script. */
async function cachedPage(site: BenchSite): Promise<string> {
  const deadline = Date.now() + 30_000;
  let streak = 0;
  while (streak < 10 * processes) {
    streak = (await cachedOnFreshConnection(site.url)) ? streak + 1 : 0;
    if (Date.now() > deadline) throw new Error("the page cache never went live in every site process");
    if (streak === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const html = await (await fetch(`${site.url}/en`)).text();
  const asset = /<link rel="modulepreload" href="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (!asset) throw new Error("no module preload on /en");
  return asset;
}

async function main(): Promise<void> {
  console.log(
    `Cached path: c=${CONNECTIONS}, ${seconds} s a run, ${rounds} rounds, ${processes} site process(es)` +
      `${beforeRoot ? `, before = ${beforeRoot}` : ""}${alloc ? ", heap allocation traced" : ""}; ${loadLine()}`,
  );
  const env = { PAGE_CACHE: "on", WEB_CONCURRENCY: String(processes) };
  const sites: { name: string; site: BenchSite; allocated: Map<number, number>; asset: string }[] = [];
  let missed = false;
  try {
    for (const [name, root] of [
      ...(beforeRoot ? [["before", beforeRoot] as const] : []),
      ["after", undefined] as const,
    ]) {
      const site = await startSite(env, root, [...NODE_ARGS, ...(name === "after" ? afterNodeArgs : [])]);
      const allocated = countAllocations(site.child);
      sites.push({ name, site, allocated, asset: await cachedPage(site) });
    }
    const after = sites.at(-1)!;
    for (const [label, pathOf] of [
      ["/en (cached)", () => "/en"],
      ["hashed asset", (s: (typeof sites)[number]) => s.asset],
    ] as const) {
      const { headers, body } = await capture(after.site.url + pathOf(after));
      const bare = await bareTwin(headers, body);
      try {
        console.log(`${label} ${pathOf(after)}: ${body.length} B ${headers["content-encoding"] ?? "identity"}`);
        const targets = [
          ...sites.map((s) => ({
            target: { name: s.name, url: s.site.url, child: s.site.child, allocated: s.allocated },
            path: pathOf(s),
          })),
          { target: bare as Target, path: pathOf(after) },
        ];
        // Warm-up: the code optimized, the young generation grown, the launchers' start-up work done.
        for (const { target, path: p } of targets) await autocannon(target.url + p, CONNECTIONS, 8, BROWSER);
        const ratios = new Map<string, { rate: number[]; cpu: number[]; alloc: number[] }>();
        for (let round = 0; round < rounds; round++) {
          const runs = new Map<string, Run>();
          for (const { target, path: p } of targets) {
            runs.set(target.name, await run(target, p));
            console.log(row(target.name, runs.get(target.name)!));
          }
          const floor = runs.get(bare.name)!;
          for (const s of sites) {
            const mine = runs.get(s.name)!;
            const r = ratios.get(s.name) ?? { rate: [], cpu: [], alloc: [] };
            r.rate.push(mine.result.requests.average / floor.result.requests.average);
            r.cpu.push(mine.cpuUs / floor.cpuUs);
            r.alloc.push(mine.allocBytes / floor.allocBytes);
            ratios.set(s.name, r);
          }
        }
        for (const [name, r] of ratios) {
          const rate = summary(r.rate);
          if (name === "after") missed ||= Number.parseFloat(rate) < 1;
          console.log(
            `  => ${label}, ${name}: req/s site ÷ bare ${rate}; CPU/request site ÷ bare ${summary(r.cpu)}` +
              (alloc ? `; heap/request site ÷ bare ${summary(r.alloc)}` : ""),
          );
        }
      } finally {
        await bare.stop();
      }
    }
  } finally {
    for (const { site } of sites) await site.stop();
  }
  console.log(`done; ${loadLine()}`);
  if (missed) process.exitCode = 1;
}

await main();
