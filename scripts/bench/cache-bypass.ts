/**
 * Cache-bypass benchmark (SECURITY C54, issue 13 item 2): req/s of `/en/blog` (a cached page) against
 * `/en/blog?x=N` with a new N on every request, the query an anonymous visitor would use to skip the page
 * cache, on the real site (`npm start`'s launcher in its own process), in the same run, and their ratio. The
 * site redirects such URLs to the canonical one (301) instead of rendering them, so the ratio should be
 * near 1 (before the fix: about 100 req/s against 8,000).
 *
 * Target: the bypass URLs are served at ≥ 50 % of the cached page's rate, without errors or 5xx; exits 1
 * otherwise.
 *
 * Run: `npx tsx scripts/bench/cache-bypass.ts [seconds=10] [rounds=2] [connections=10]` (best of `rounds`
 * alternating runs of each).
 */
import { createRequire } from "node:module";
import { startSite } from "./lib/site.ts";

const seconds = Number(process.argv[2] ?? 10);
const rounds = Number(process.argv[3] ?? 2);
const connections = Number(process.argv[4] ?? 10);

/** The fields of autocannon's result read here (autocannon ships no types). */
interface Result {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  "2xx": number;
  "3xx": number;
  "4xx": number;
  "5xx": number;
}
interface RawRequest {
  path?: string;
  [key: string]: unknown;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  requests?: { setupRequest: (request: RawRequest) => RawRequest }[];
}) => Promise<Result>;
// autocannon's programmatic API (its CLI cannot vary the path per request). It runs in this process: the
// site is in its own, and this process does nothing else meanwhile.
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

let n = 0;
/** One run against `url`; `bypass`: a new `?x=N` on every request. */
function run(url: string, duration: number, bypass: boolean): Promise<Result> {
  return autocannon({
    url,
    connections,
    duration,
    requests: bypass ? [{ setupRequest: (request) => ({ ...request, path: `/en/blog?x=${++n}` }) }] : undefined,
  });
}

function row(label: string, result: Result): string {
  const statuses = `2xx ${result["2xx"]}, 3xx ${result["3xx"]}, 4xx ${result["4xx"]}, 5xx ${result["5xx"]}`;
  const failures = result.errors + result.timeouts;
  return `${label.padEnd(28)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${String(result.latency.p50).padStart(3)} ms  p99 ${String(result.latency.p99).padStart(4)} ms  (${statuses}${failures ? `, errors ${failures}` : ""})`;
}

async function main(): Promise<void> {
  const site = await startSite();
  let met: boolean;
  try {
    const page = `${site.url}/en/blog`;
    // The page cache serves once Appwrite's change feed is live: ask until the page comes from it.
    const deadline = Date.now() + 15_000;
    while ((await fetch(page)).headers.get("cache-control") !== "public, no-cache") {
      if (Date.now() > deadline) throw new Error("the page cache never went live");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    console.log(`Cache bypass: best of ${rounds} alternating runs of ${seconds} s, c=${connections}; site ${site.url}`);
    await run(page, 1, false); // warm-up
    await run(page, 1, true);
    let cached: Result | undefined;
    let bypass: Result | undefined;
    for (let i = 0; i < rounds; i++) {
      const a = await run(page, seconds, false);
      const b = await run(page, seconds, true);
      if (!cached || a.requests.average > cached.requests.average) cached = a;
      if (!bypass || b.requests.average > bypass.requests.average) bypass = b;
    }
    console.log(row("/en/blog", cached!));
    console.log(row("/en/blog?x=N (new N each)", bypass!));
    const ratio = bypass!.requests.average / cached!.requests.average;
    console.log(`${"ratio bypass / cached".padEnd(28)} ${ratio.toFixed(2)}`);
    met = ratio >= 0.5 && bypass!.errors + bypass!.timeouts + bypass!["5xx"] === 0;
    console.log(`target: bypass URLs at >= 50 % of the cached page's rate, no errors: ${met ? "met" : "NOT met"}`);
  } finally {
    await site.stop();
  }
  if (!met) process.exitCode = 1;
}

await main();
