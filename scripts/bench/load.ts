/**
 * Load script (issue #9 item 4, SECURITY C49): autocannon at 50 connections for 30 s on `/`, `/en/blog` and a
 * post of the real site (`npm start` in a child process: embedded server, `content/` pushed), one path after
 * another. Prints errors, timeouts, status classes, p50/p99 and the site process's memory (warm) before and after,
 * and checks the thresholds: 0 errors, 0 timeouts, no 4xx/5xx, p99 < 800 ms, p50 < 200 ms, RSS growth < 20 %.
 * `/` answers the spec's redirect to `/en` (§2), so its answers are 3xx by design and counted as such.
 *
 * Run: `npx tsx scripts/bench/load.ts [seconds=30] [connections=50]`; exits 1 when a threshold is missed.
 */
import { memoryOf } from "../dev/processes.ts";
import { autocannon } from "./lib/autocannon.ts";
import { firstLink, startSite } from "./lib/site.ts";

const seconds = Number(process.argv[2] ?? 30);
const connections = Number(process.argv[3] ?? 50);
const MB = 1024 * 1024;

async function main(): Promise<void> {
  const site = await startSite();
  const failures: string[] = [];
  try {
    const post = await firstLink(`${site.url}/en/blog`, /href="(\/en\/blog\/[a-z0-9-]+)"/);
    const cold = memoryOf(site.child.pid!).rss;
    // Growth is measured from a warm process (5 s of the same load per path: JIT, heap sized for the load),
    // so what it shows is memory that keeps growing under sustained load, i.e. a leak.
    for (const path of ["/", "/en/blog", post]) await autocannon(site.url + path, connections, 5);
    const before = memoryOf(site.child.pid!).rss;
    console.log(`Load: ${connections} connections, ${seconds} s per path; site ${site.url}`);
    console.log(
      `RSS at start: ${(cold / MB).toFixed(1)} MB; after a 5 s warm-up per path: ${(before / MB).toFixed(1)} MB`,
    );
    for (const path of ["/", "/en/blog", post]) {
      const result = await autocannon(site.url + path, connections, seconds);
      const expected = path === "/" ? result["3xx"] : result["2xx"];
      console.log(
        `${path.padEnd(62)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  ` +
          `${path === "/" ? "3xx" : "2xx"} ${expected}  4xx ${result["4xx"]}  5xx ${result["5xx"]}  errors ${result.errors}  timeouts ${result.timeouts}`,
      );
      if (result.errors || result.timeouts)
        failures.push(`${path}: ${result.errors} errors, ${result.timeouts} timeouts`);
      if (result["4xx"] || result["5xx"] || expected !== result.requests.total) {
        failures.push(`${path}: ${result.requests.total - expected} unexpected statuses`);
      }
      if (result.latency.p99 >= 800) failures.push(`${path}: p99 ${result.latency.p99} ms >= 800 ms`);
      if (result.latency.p50 >= 200) failures.push(`${path}: p50 ${result.latency.p50} ms >= 200 ms`);
    }
    const after = memoryOf(site.child.pid!).rss;
    const growth = ((after - before) / before) * 100;
    console.log(`RSS after:  ${(after / MB).toFixed(1)} MB (growth ${growth.toFixed(1)} %)`);
    if (growth >= 20) failures.push(`RSS grew ${growth.toFixed(1)} % (>= 20 %)`);
  } finally {
    await site.stop();
  }
  console.log(failures.length ? `Thresholds missed:\n  ${failures.join("\n  ")}` : "All thresholds held.");
  if (failures.length) process.exitCode = 1;
}

await main();
