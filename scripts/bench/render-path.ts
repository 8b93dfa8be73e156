/**
 * The render path (issue #18 item 1): req/s and latency of `/en` and a post page with the page cache off
 * (`PAGE_CACHE=off`: every request renders: what signed-in editors, the first request after a write and
 * previews pay), at 10 connections, with one site process and with `WEB_CONCURRENCY` processes, beside the
 * cached `/en` in the same run. The real site (`npm start`'s launcher, production build, embedded server) runs
 * in its own process tree; autocannon in another.
 *
 * Targets (issue #18): cache off, `/en` ≥ 400 req/s and a post ≥ 300 req/s, p99 < 50 ms. Exits 1 when the
 * best configuration misses one.
 *
 * Run: `npx tsx scripts/bench/render-path.ts [seconds=10] [processes=2]`.
 */
import { autocannon, type LoadResult } from "./lib/autocannon.ts";
import { firstLink, startSite } from "./lib/site.ts";

const seconds = Number(process.argv[2] ?? 10);
const processes = Number(process.argv[3] ?? 2);
const CONNECTIONS = 10;
const TARGETS: Record<string, number> = { "/en": 400, post: 300 };
const P99_TARGET_MS = 50;

function row(label: string, result: LoadResult): string {
  const failures = result.errors + result.timeouts + result.non2xx;
  return `  ${label.padEnd(40)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${String(result.latency.p50).padStart(4)} ms  p99 ${String(result.latency.p99).padStart(4)} ms${failures ? `  failures ${failures}` : ""}`;
}

/** Figures of one site configuration: cache-off `/en` and post (warmed up first), and optionally cached `/en`. */
async function measure(env: Record<string, string>): Promise<Record<string, LoadResult>> {
  const site = await startSite(env);
  try {
    const post = await firstLink(`${site.url}/en/blog`, /href="(\/en\/blog\/[a-z0-9-]+)"/);
    const results: Record<string, LoadResult> = {};
    for (const [name, pathname] of [
      ["/en", "/en"],
      ["post", post],
    ] as const) {
      await autocannon(site.url + pathname, CONNECTIONS, 2); // warm-up: JIT, first renders
      results[name] = await autocannon(site.url + pathname, CONNECTIONS, seconds);
    }
    return results;
  } finally {
    await site.stop();
  }
}

async function main(): Promise<void> {
  console.log(`Render path: page cache off, c=${CONNECTIONS}, ${seconds} s a figure`);
  const one = await measure({ PAGE_CACHE: "off", WEB_CONCURRENCY: "1" });
  console.log("one site process");
  for (const [name, result] of Object.entries(one)) console.log(row(`${name} (cache off)`, result));
  const many = await measure({ PAGE_CACHE: "off", WEB_CONCURRENCY: String(processes) });
  console.log(`${processes} site processes (WEB_CONCURRENCY=${processes})`);
  for (const [name, result] of Object.entries(many)) console.log(row(`${name} (cache off)`, result));

  const cachedSite = await startSite({ PAGE_CACHE: "on", WEB_CONCURRENCY: "1" });
  try {
    const page = `${cachedSite.url}/en`;
    // The cache serves once Appwrite's change feed is live: ask until a page comes from it.
    const deadline = Date.now() + 15_000;
    while ((await fetch(page)).headers.get("cache-control") !== "public, no-cache") {
      if (Date.now() > deadline) throw new Error("the page cache never went live");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await autocannon(page, CONNECTIONS, 2);
    console.log("for comparison, the page cache on, one process");
    console.log(row("/en (cached)", await autocannon(page, CONNECTIONS, seconds)));
  } finally {
    await cachedSite.stop();
  }

  let missed = false;
  for (const [name, target] of Object.entries(TARGETS)) {
    const best = [one[name]!, many[name]!].sort((a, b) => b.requests.average - a.requests.average)[0]!;
    const met = best.requests.average >= target && best.latency.p99 < P99_TARGET_MS;
    missed ||= !met;
    console.log(
      `target ${name} cache off: >= ${target} req/s, p99 < ${P99_TARGET_MS} ms: ${met ? "met" : "NOT met"} (best ${best.requests.average.toFixed(0)} req/s, p99 ${best.latency.p99} ms)`,
    );
  }
  if (missed) process.exitCode = 1;
}

await main();
