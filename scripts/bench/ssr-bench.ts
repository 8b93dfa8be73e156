/**
 * SSR benchmark (issue #8 item 1): autocannon against `/en`, `/ar/blog` and a post page of the real site
 * (production build, embedded server with `content/` pushed, in separate processes), at 10 and 50
 * connections, beside a minimal `node:http` server returning the same HTML bytes from memory in the same run
 * (the limit). Prints req/s, p50, p99 and the ratio.
 *
 * Run: `npx tsx scripts/bench/ssr-bench.ts [seconds=10]`
 */
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { ROOT as root, firstLink, startSite } from "./lib/site.ts";

const seconds = Number(process.argv[2] ?? 10);

interface Result {
  requests: { average: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

/** autocannon in its own process (so the load generator shares no event loop with a measured server). */
async function run(url: string, connections: number): Promise<Result> {
  const args = ["-c", String(connections), "-d", String(seconds), "-j", url];
  const child = spawn(path.join(root, "node_modules", ".bin", "autocannon"), args, {
    stdio: ["ignore", "pipe", "ignore"],
  });
  let out = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.once("exit", resolve));
  return JSON.parse(out) as Result;
}

function row(label: string, result: Result): string {
  const failures = result.errors + result.timeouts + result.non2xx;
  return `${label.padEnd(34)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${String(result.latency.p50).padStart(4)} ms  p99 ${String(result.latency.p99).padStart(4)} ms${failures ? `  failures ${failures}` : ""}`;
}

async function main(): Promise<void> {
  const site = await startSite();
  const { url } = site;
  try {
    const post = await firstLink(`${url}/en/blog`, /href="(\/en\/blog\/[a-z0-9-]+)"/);
    console.log(`SSR benchmark: ${seconds} s per run; site ${url}`);
    for (const pathname of ["/en", "/ar/blog", post]) {
      const html = Buffer.from(await (await fetch(url + pathname)).arrayBuffer());
      const limit = createServer((_req, res) => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": html.length });
        res.end(html);
      });
      await new Promise<void>((resolve) => limit.listen(0, "127.0.0.1", resolve));
      const limitUrl = `http://127.0.0.1:${(limit.address() as AddressInfo).port}/`;
      for (const connections of [10, 50]) {
        const site = await run(url + pathname, connections);
        const bytes = await run(limitUrl, connections);
        console.log(row(`${pathname} c=${connections} site`, site));
        console.log(row(`${pathname} c=${connections} static limit`, bytes));
        console.log(`${"".padEnd(34)} ratio ${((site.requests.average / bytes.requests.average) * 100).toFixed(1)} %`);
      }
      await new Promise((resolve) => limit.close(resolve));
    }
  } finally {
    await site.stop();
  }
}

await main();
