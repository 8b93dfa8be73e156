/**
 * nginx's cache in front of the site (issue #32 item 3): req/s of `/en` through nginx's `proxy_cache` with
 * the deployment guide's configuration (`docs/deployment/nginx.conf`, run by `scripts/dev/nginx.ts`), against
 * nginx serving the same bytes as a static file (the ceiling a cache can reach), their ratio, and how many
 * requests reached the site (the origin) during the `/en` runs, counted from nginx's access log (an entry
 * with an upstream address went to the site; `-`: nginx answered from its cache).
 *
 * The site runs as `npm start` does (production build, embedded server, `content/` pushed) in a child
 * process, with `TRUST_PROXY=1` and `SITE_URL` nginx's address, and the default `CDN_MAX_AGE` (60 s) unless
 * set: a run shorter than that should reach the site at most once per page.
 *
 * Target: ratio ≥ 0.7 (a hit costs a static file plus nginx's cache lookup: its key, the `Vary` variant, the
 * cache file's header) and at most one origin request per `CDN_MAX_AGE` of run (plus one: autocannon sends no
 * `Accept-Encoding`, another `Vary` variant); exits 1 otherwise.
 *
 * Measured 2026-11-27 on the shared 2-core machine (load average ~24), 5 s × 2, 10 connections: `/en`
 * through the cache 2,295 req/s (p50 3 ms, p99 33 ms), the same 90 kB as a static file 2,992 req/s, ratio
 * 0.77; 1 of 22,946 requests reached the site.
 *
 * Run: `npx tsx scripts/bench/nginx-cache.ts [seconds=10] [rounds=2] [connections=10]` (best of `rounds`
 * alternating runs). Needs Debian's nginx (`apt-get install -y nginx`).
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { freePort, startNginx } from "../dev/nginx.ts";
import { autocannon, type LoadResult } from "./lib/autocannon.ts";
import { startSite } from "./lib/site.ts";

const seconds = Number(process.argv[2] ?? 10);
const rounds = Number(process.argv[3] ?? 2);
const connections = Number(process.argv[4] ?? 10);
const maxAge = Number(process.env.CDN_MAX_AGE ?? 60);
const STATIC = "/bench-static/en.html";

const port = await freePort();
const site = await startSite({ TRUST_PROXY: "1", SITE_URL: `http://localhost:${port}` });
const upstream = Number(new URL(site.url).port);
const nginx = await startNginx({
  upstreams: [upstream],
  port,
  // The same bytes as a file nginx serves itself (no proxy, no cache lookup).
  extraServer: `        location = ${STATIC} {\n            alias static-en.html;\n            default_type text/html;\n        }`,
}).catch(async (error: unknown) => {
  await site.stop();
  throw error;
});

let exitCode = 0;
try {
  const page = await fetch(`${nginx.url}/en`);
  const body = Buffer.from(await page.arrayBuffer());
  if (page.status !== 200) throw new Error(`/en through nginx answered ${page.status}`);
  await writeFile(path.join(nginx.dir, "static-en.html"), body); // the alias is relative to nginx's prefix
  const check = await fetch(`${nginx.url}/en`);
  await check.arrayBuffer();
  console.log(
    `/en through nginx: ${body.length} bytes, cache ${check.headers.get("x-cache-status")}, ${check.headers.get("cache-control")}`,
  );

  const originRequests = async () =>
    (await nginx.accessLog()).filter((line) => line.includes('"GET /en HTTP') && !/upstream=-( |$)/.test(line)).length;
  const best = { cached: null as LoadResult | null, file: null as LoadResult | null };
  let origin = 0;
  let sent = 0;
  for (let round = 0; round < rounds; round++) {
    const before = await originRequests();
    const cached = await autocannon(`${nginx.url}/en`, connections, seconds);
    origin += (await originRequests()) - before;
    sent += cached.requests.total;
    const file = await autocannon(`${nginx.url}${STATIC}`, connections, seconds);
    if (!best.cached || cached.requests.average > best.cached.requests.average) best.cached = cached;
    if (!best.file || file.requests.average > best.file.requests.average) best.file = file;
  }
  const row = (label: string, r: LoadResult) =>
    console.log(
      `${label.padEnd(32)} ${r.requests.average.toFixed(0).padStart(7)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors}`,
    );
  console.log(`\n${connections} connections, ${seconds} s × ${rounds} round(s), best of each:`);
  row("/en through nginx's cache", best.cached!);
  row("the same bytes as a static file", best.file!);
  const ratio = best.cached!.requests.average / best.file!.requests.average;
  const allowed = Math.ceil((seconds * rounds) / Math.max(maxAge, 1)) + 1;
  console.log(`ratio cached / static: ${ratio.toFixed(2)} (target ≥ 0.7)`);
  console.log(
    `requests that reached the site during the /en runs: ${origin} of ${sent} ( at most ${allowed} expected with CDN_MAX_AGE=${maxAge})`,
  );
  if (ratio < 0.7 || origin > allowed || best.cached!.non2xx > 0 || best.cached!.errors > 0) exitCode = 1;
} finally {
  await nginx.close();
  await site.stop();
}
process.exit(exitCode);
