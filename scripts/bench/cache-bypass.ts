/**
 * Cache-bypass benchmark (SECURITY C54, issue 13 item 2): req/s of `/en/blog` (a cached page) against
 * `/en/blog?x=N` with a new N on every request, the query an anonymous visitor would use to skip the page
 * cache, on the real site (`npm start`'s launcher in its own process), in the same run, and their ratio. The
 * site redirects such URLs to the canonical one (301) instead of rendering them, so the ratio should be
 * near 1 (before the fix: about 100 req/s against 8,000).
 *
 * SECURITY C71 (issue #26 item 4), in the same run: `/en/blog` with a made-up `studio_session` cookie (one value;
 * and a new value on every request, each asked of Appwrite once), and a published post with a made-up
 * `?preview=` token (a new one each request: answered with a redirect to the plain URL, before the page runs).
 *
 * Target: the bypass URLs, the made-up cookie (one value) and the made-up tokens are served at ≥ 50 % of the
 * cached page's rate, without errors or 5xx; exits 1 otherwise. The new-cookie-each-time rate is reported only.
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
  headers?: Record<string, string>;
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
/** How each run varies its requests. */
const VARIANTS = {
  cached: undefined,
  bypass: (request: RawRequest) => ({ ...request, path: `/en/blog?x=${++n}` }),
  cookie: (request: RawRequest) => ({
    ...request,
    headers: { ...request.headers, cookie: "studio_session=eyJtYWRlIjoidXAifQ%3D%3D" },
  }),
  newCookie: (request: RawRequest) => ({
    ...request,
    headers: { ...request.headers, cookie: `studio_session=x${++n}` },
  }),
  token: (request: RawRequest) => ({
    ...request,
    path: `/en/blog/ideation-to-exit-the-eight-phases?preview=${Math.floor(Date.now() / 1000) + 3600}.${String(++n).padStart(43, "A")}`,
  }),
} satisfies Record<string, ((request: RawRequest) => RawRequest) | undefined>;
type Variant = keyof typeof VARIANTS;

/** One run against `url`, its requests varied as `variant` says. */
function run(url: string, duration: number, variant: Variant): Promise<Result> {
  const setupRequest = VARIANTS[variant];
  return autocannon({ url, connections, duration, requests: setupRequest ? [{ setupRequest }] : undefined });
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
    const variants = Object.keys(VARIANTS) as Variant[];
    for (const variant of variants) await run(page, 1, variant); // warm-up
    const best: Partial<Record<Variant, Result>> = {};
    for (let i = 0; i < rounds; i++) {
      for (const variant of variants) {
        const result = await run(page, seconds, variant);
        if (!best[variant] || result.requests.average > best[variant].requests.average) best[variant] = result;
      }
    }
    const labels: Record<Variant, string> = {
      cached: "/en/blog",
      bypass: "/en/blog?x=N (new N each)",
      cookie: "made-up session cookie",
      newCookie: "new made-up cookie each",
      token: "made-up ?preview= (302)",
    };
    for (const variant of variants) console.log(row(labels[variant], best[variant]!));
    met = true;
    for (const variant of ["bypass", "cookie", "token"] as const) {
      const ratio = best[variant]!.requests.average / best.cached!.requests.average;
      console.log(`${`ratio ${variant} / cached`.padEnd(28)} ${ratio.toFixed(2)}`);
      met &&= ratio >= 0.5 && best[variant]!.errors + best[variant]!.timeouts + best[variant]!["5xx"] === 0;
    }
    console.log(
      `target: bypass URLs, made-up cookie and tokens at >= 50 % of the cached page's rate, no errors: ${met ? "met" : "NOT met"}`,
    );
  } finally {
    await site.stop();
  }
  if (!met) process.exitCode = 1;
}

await main();
