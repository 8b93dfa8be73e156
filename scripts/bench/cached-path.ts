/**
 * The cached path (issue #33 item 3): a page served from the page cache, and a hashed asset (served from
 * memory, `server/http/static-files.ts`), each beside a bare `node:http` server in its own process sending the
 * same bytes with the same headers, at 50 connections with a browser's headers (`Accept-Encoding: br, gzip`,
 * cookies that are not a session). CPU per request of each process tree from `/proc`; the load is printed.
 * The site runs one process (`WEB_CONCURRENCY=1`) with the embedded server in a thread of the same process:
 * its CPU is in the site's figure (it does nothing for a hit).
 *
 * Target: the site ≥ 1× the bare server's req/s, and ≤ 1× its CPU per request is printed beside it (the site
 * also checks the host, the query, the session cookie and fills a fresh CSP nonce). Exits 1 when req/s is
 * under the target.
 *
 * Run: `npx tsx scripts/bench/cached-path.ts [seconds=10] [rounds=2]`.
 */
import { spawn } from "node:child_process";
import { request } from "node:http";
import { loadLine, measure, type Measured } from "./lib/measure.ts";
import { startSite } from "./lib/site.ts";
import { autocannon } from "./lib/autocannon.ts";

const seconds = Number(process.argv[2] ?? 10);
const rounds = Number(process.argv[3] ?? 2);
const CONNECTIONS = 50;
const BROWSER = {
  "accept-encoding": "br, gzip",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  cookie: "_ga=GA1.1.1695662811.1764201600; theme=dark",
};

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

/** A bare node:http server in its own process answering every request with `headers` and `body`. */
async function bareServer(headers: Record<string, string>, body: Buffer) {
  const source = `
    const http = require("node:http");
    const headers = ${JSON.stringify(headers)};
    const body = Buffer.from(${JSON.stringify(body.toString("base64"))}, "base64");
    const server = http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); });
    server.listen(0, "127.0.0.1", () => console.log("bare " + server.address().port));`;
  const child = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const match = /bare (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
  });
  return { url: `http://127.0.0.1:${port}`, child, stop: () => child.kill("SIGTERM") };
}

function row(label: string, m: Measured): string {
  const r = m.result;
  const failures = r.errors + r.timeouts + r.non2xx;
  return `  ${label.padEnd(16)} ${r.requests.average.toFixed(0).padStart(6)} req/s  p50 ${String(r.latency.p50).padStart(3)} ms  p99 ${String(r.latency.p99).padStart(3)} ms  CPU/req ${(m.cpuPerRequest * 1000).toFixed(0).padStart(5)} µs  load ${m.load.toFixed(2)}${failures ? `  failures ${failures}` : ""}`;
}

async function main(): Promise<void> {
  console.log(`Cached path: c=${CONNECTIONS}, ${seconds} s a run, ${rounds} alternating rounds; ${loadLine()}`);
  const site = await startSite({ PAGE_CACHE: "on", WEB_CONCURRENCY: "1" });
  let missed = false;
  try {
    const deadline = Date.now() + 15_000;
    // Only a page answered from the page cache carries an ETag (a render streams without one).
    while (!(await fetch(`${site.url}/en`)).headers.get("etag")) {
      if (Date.now() > deadline) throw new Error("the page cache never went live");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const html = await (await fetch(`${site.url}/en`)).text();
    const asset = /<link rel="modulepreload" href="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    if (!asset) throw new Error("no module preload on /en");
    for (const [name, pathname] of [
      ["/en (cached)", "/en"],
      ["hashed asset", asset],
    ] as const) {
      const { headers, body } = await capture(site.url + pathname);
      const bare = await bareServer(headers, body);
      try {
        console.log(`${name} ${pathname}: ${body.length} B ${headers["content-encoding"] ?? "identity"}`);
        await autocannon(site.url + pathname, CONNECTIONS, 2, BROWSER);
        await autocannon(bare.url + pathname, CONNECTIONS, 2, BROWSER);
        const mine: Measured[] = [];
        const theirs: Measured[] = [];
        for (let round = 0; round < rounds; round++) {
          mine.push(await measure(site.child.pid!, site.url + pathname, CONNECTIONS, seconds, BROWSER));
          console.log(row("site", mine.at(-1)!));
          theirs.push(await measure(bare.child.pid!, bare.url + pathname, CONNECTIONS, seconds, BROWSER));
          console.log(row("bare node:http", theirs.at(-1)!));
        }
        const rate = (runs: Measured[]) => runs.reduce((s, m) => s + m.result.requests.average, 0) / runs.length;
        const cpu = (runs: Measured[]) =>
          runs.reduce((s, m) => s + m.cpuPerRequest * m.requests, 0) / runs.reduce((s, m) => s + m.requests, 0);
        const ratio = rate(mine) / rate(theirs);
        missed ||= ratio < 1;
        console.log(
          `  => ${name}: req/s site ÷ bare ${ratio.toFixed(2)}× (target ≥ 1: ${ratio >= 1 ? "met" : "NOT met"}); ` +
            `CPU/request site ÷ bare ${(cpu(mine) / cpu(theirs)).toFixed(2)}×`,
        );
      } finally {
        bare.stop();
      }
    }
  } finally {
    await site.stop();
  }
  console.log(`done; ${loadLine()}`);
  if (missed) process.exitCode = 1;
}

await main();
