/**
 * SSR benchmark (issue #8 item 1): autocannon against `/en`, `/ar/blog` and a post page of the real site
 * (production build, embedded server with `content/` pushed, in separate processes), at 10 and 50
 * connections, beside a minimal `node:http` server returning the same HTML bytes from memory in the same run
 * (the limit). Prints req/s, p50, p99 and the ratio.
 *
 * Run: `npx tsx scripts/bench/ssr-bench.ts [seconds=10] [rounds=2]` (best of `rounds` alternating runs).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { autocannon, type LoadResult as Result } from "./lib/autocannon.ts";
import { firstLink, startSite } from "./lib/site.ts";

const seconds = Number(process.argv[2] ?? 10);
const rounds = Number(process.argv[3] ?? 2);

/** One autocannon run (`gzip`: ask for gzip, as browsers do). */
const run = (url: string, connections: number, duration = seconds, gzip = false): Promise<Result> =>
  autocannon(url, connections, duration, gzip ? { "accept-encoding": "gzip" } : {});

/** Best of `rounds` runs of each, alternating A and B so both see the same machine (it is shared and noisy). */
async function bestOf(a: () => Promise<Result>, b: () => Promise<Result>): Promise<[Result, Result]> {
  let bestA: Result | undefined;
  let bestB: Result | undefined;
  for (let i = 0; i < rounds; i++) {
    const ra = await a();
    const rb = await b();
    if (!bestA || ra.requests.average > bestA.requests.average) bestA = ra;
    if (!bestB || rb.requests.average > bestB.requests.average) bestB = rb;
  }
  return [bestA!, bestB!];
}

function row(label: string, result: Result): string {
  const failures = result.errors + result.timeouts + result.non2xx;
  return `${label.padEnd(44)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${String(result.latency.p50).padStart(4)} ms  p99 ${String(result.latency.p99).padStart(4)} ms${failures ? `  failures ${failures}` : ""}`;
}

/** The limit: a `node:http` server answering every request with `body` from memory. */
async function startLimit(
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ url: string; close(): Promise<void> }> {
  const limit = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": body.length, ...headers });
    res.end(body);
  });
  await new Promise<void>((resolve) => limit.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(limit.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => limit.close(() => resolve())),
  };
}

async function main(): Promise<void> {
  const server = await startSite();
  const { url } = server;
  const verdicts: string[] = [];
  try {
    const post = await firstLink(`${url}/en/blog`, /href="(\/en\/blog\/[a-z0-9-]+)"/);
    console.log(`SSR benchmark: best of ${rounds} alternating runs of ${seconds} s; site ${url}`);
    for (const pathname of ["/en", "/ar/blog", post]) {
      const html = Buffer.from(await (await fetch(url + pathname)).arrayBuffer());
      const limit = await startLimit(html, {});
      await run(url + pathname, 10, 1); // warm-up: JIT, and the first render of the page
      await run(limit.url, 10, 1);
      for (const connections of [10, 50]) {
        const [site, bytes] = await bestOf(
          () => run(url + pathname, connections),
          () => run(limit.url, connections),
        );
        const ratio = (site.requests.average / bytes.requests.average) * 100;
        console.log(row(`${pathname} c=${connections} site`, site));
        console.log(row(`${pathname} c=${connections} static limit`, bytes));
        console.log(`${"".padEnd(44)} ratio ${ratio.toFixed(1)} %`);
        if (pathname === "/en" && connections === 50) {
          const met = ratio >= 50 && site.latency.p99 < 100;
          verdicts.push(
            `target /en c=50: >= 50 % of static and p99 < 100 ms: ${met ? "met" : "NOT met"} (${ratio.toFixed(1)} %, p99 ${site.latency.p99} ms)`,
          );
        }
      }
      await limit.close();
    }
    // What browsers get: gzip. The limit serves the same page gzipped once, from memory.
    const gzipped = gzipSync(Buffer.from(await (await fetch(`${url}/en`)).arrayBuffer()));
    const limit = await startLimit(gzipped, { "content-encoding": "gzip" });
    const [site, bytes] = await bestOf(
      () => run(`${url}/en`, 50, seconds, true),
      () => run(limit.url, 50, seconds, true),
    );
    console.log(row("/en c=50 gzip site", site));
    console.log(row("/en c=50 gzip static limit (precompressed)", bytes));
    console.log(`${"".padEnd(44)} ratio ${((site.requests.average / bytes.requests.average) * 100).toFixed(1)} %`);
    await limit.close();
    for (const verdict of verdicts) console.log(verdict);
  } finally {
    await server.stop();
  }
}

await main();
