/**
 * The render path (issues #18 item 1, #33 items 1 and 2): `/en` and a post with the page cache off
 * (`PAGE_CACHE=off`: every request renders: what signed-in editors, the first request after a write and
 * previews pay), beside a peer: a minimal React Router framework-mode app with the project's package versions
 * (`scripts/bench/peer/`) rendering the same pages' markup and loader data from memory, built from pages
 * captured off the running project. Both run `processes` processes (the project's `WEB_CONCURRENCY`; the
 * peer likewise), each in its own process tree; autocannon in another process, at 10 connections.
 *
 * Two encodings: a browser's request (`Accept-Encoding: br, gzip`, a Chrome User-Agent, cookies that are not
 * a session) and identity (no `Accept-Encoding`). For each page and encoding, `rounds` alternating runs of the
 * project and the peer; CPU per request is read from `/proc` for every process of each tree (site processes,
 * the project's launcher with the embedded Appwrite-compatible server in a thread, the peer's primary), so
 * garbage collection and compression on libuv's pool count too. The machine's load is printed with each row.
 *
 * Targets (issue #33): the project's site processes ≤ 1.2× the peer's processes in CPU per request, for `/en`
 * and the post, in both encodings; browser encoding: `/en` ≥ 400 req/s, the post ≥ 300 req/s, p99 < 50 ms.
 * Exits 1 when one is missed.
 *
 * With `RENDER_BENCH_BEFORE=<another checkout>` (e.g. a worktree at main), that checkout's site is started too and
 * measured in every round between the project and the peer ("before"), so one run gives before, after and the
 * peer side by side under the same load, and prints CPU/request before ÷ peer and after ÷ before. With
 * `RENDER_BENCH_NODE_ARGS` (e.g. a V8 setting), only the project's site runs with those `node` options: with
 * `RENDER_BENCH_BEFORE` set to this checkout, one run compares the setting against none.
 *
 * Run: `npx tsx scripts/bench/render-path.ts [seconds=10] [processes=2] [rounds=2]`.
 */
import { loadavg } from "node:os";
import { loadLine, measure, wireBytes, type Measured } from "./lib/measure.ts";
import { startPeer } from "./lib/peer.ts";
import { firstLink, startSite } from "./lib/site.ts";
import { autocannon } from "./lib/autocannon.ts";

const seconds = Number(process.argv[2] ?? 10);
const processes = Number(process.argv[3] ?? 2);
const rounds = Number(process.argv[4] ?? 2);
const CONNECTIONS = 10;
const TARGETS: Record<string, number> = { "/en": 400, post: 300 };
const P99_TARGET_MS = 50;
const CPU_RATIO_TARGET = 1.2;
const BEFORE_ROOT = process.env.RENDER_BENCH_BEFORE;
/** `RENDER_BENCH_NODE_ARGS="a b"`: options for `node` of the project's site only (its site processes inherit them). */
const NODE_ARGS = process.env.RENDER_BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];

/** What a browser sends that matters here: encodings, a browser's User-Agent (React streams to browsers), cookies. */
const BROWSER = {
  "accept-encoding": "br, gzip",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  cookie: "_ga=GA1.1.1695662811.1764201600; theme=dark",
};
const ENCODINGS: Record<string, Record<string, string>> = { browser: BROWSER, identity: {} };

const ms = (value: number) => value.toFixed(2).padStart(6);

function row(label: string, m: Measured, siteCpu: number): string {
  const r = m.result;
  const failures = r.errors + r.timeouts + r.non2xx;
  return (
    `  ${label.padEnd(22)} ${r.requests.average.toFixed(0).padStart(5)} req/s  p50 ${String(r.latency.p50).padStart(3)} ms` +
    `  p99 ${String(r.latency.p99).padStart(3)} ms  CPU/req ${ms(siteCpu)} ms (tree ${ms(m.cpuPerRequest)})` +
    `  load ${m.load.toFixed(2)}${failures ? `  failures ${failures}` : ""}`
  );
}

/** CPU ms per request of the site processes: the tree without its root when the root only forks workers. */
function siteCpu(m: Measured): number {
  return processes > 1 ? m.cpuPerRequest - m.rootCpuPerRequest : m.cpuPerRequest;
}

/** A `catch` handler that stops `site` (already started) before passing the error on. */
function stopFirst(site: { stop(): Promise<void> }) {
  return async (error: unknown): Promise<never> => {
    await site.stop();
    throw error;
  };
}

async function main(): Promise<void> {
  console.log(
    `Render path: page cache off, c=${CONNECTIONS}, ${seconds} s a run, ${rounds} alternating rounds, ` +
      `${processes} process(es) each; ${loadLine()}`,
  );
  const env = { PAGE_CACHE: "off", WEB_CONCURRENCY: String(processes) };
  const site = await startSite(env, undefined, NODE_ARGS);
  const before = BEFORE_ROOT ? await startSite(env, BEFORE_ROOT).catch(stopFirst(site)) : undefined;
  let peer: Awaited<ReturnType<typeof startPeer>> | undefined;
  let missed = false;
  try {
    const post = await firstLink(`${site.url}/en/blog`, /href="(\/en\/blog\/[a-z0-9-]+)"/);
    peer = await startPeer(site.url, ["/en", post], processes);
    const projectPid = site.child.pid!;
    const peerPid = peer.child.pid!;
    for (const [name, pathname] of [
      ["/en", "/en"],
      ["post", post],
    ] as const) {
      for (const [encoding, headers] of Object.entries(ENCODINGS)) {
        const [mine, theirs] = await Promise.all([
          wireBytes(site.url + pathname, headers),
          wireBytes(peer.url + pathname, headers),
        ]);
        console.log(
          `${name} (${pathname}), ${encoding}: project ${mine.bytes} B ${mine.encoding}, peer ${theirs.bytes} B ${theirs.encoding}`,
        );
        await autocannon(site.url + pathname, CONNECTIONS, 2, headers); // warm-up: JIT, first renders
        await autocannon(peer.url + pathname, CONNECTIONS, 2, headers);
        if (before) await autocannon(before.url + pathname, CONNECTIONS, 2, headers);
        const project: Measured[] = [];
        const peers: Measured[] = [];
        const befores: Measured[] = [];
        for (let round = 0; round < rounds; round++) {
          const p = await measure(projectPid, site.url + pathname, CONNECTIONS, seconds, headers);
          project.push(p);
          console.log(row(`project (round ${round + 1})`, p, siteCpu(p)));
          if (before) {
            const b = await measure(before.child.pid!, before.url + pathname, CONNECTIONS, seconds, headers);
            befores.push(b);
            console.log(row(`before  (round ${round + 1})`, b, siteCpu(b)));
          }
          const q = await measure(peerPid, peer.url + pathname, CONNECTIONS, seconds, headers);
          peers.push(q);
          console.log(row(`peer    (round ${round + 1})`, q, siteCpu(q)));
        }
        // CPU per request over all rounds (total CPU ÷ total requests), the site processes of each.
        const perRequest = (runs: Measured[]) =>
          runs.reduce((sum, m) => sum + siteCpu(m) * m.requests, 0) / runs.reduce((sum, m) => sum + m.requests, 0);
        const ratio = perRequest(project) / perRequest(peers);
        const cpuMet = ratio <= CPU_RATIO_TARGET;
        missed ||= !cpuMet;
        if (before) {
          console.log(
            `  => ${name} ${encoding}: CPU/request before ÷ peer ${(perRequest(befores) / perRequest(peers)).toFixed(2)}×, ` +
              `project ÷ before ${(perRequest(project) / perRequest(befores)).toFixed(2)}×`,
          );
        }
        const rate = (runs: Measured[]) => runs.reduce((s, m) => s + m.result.requests.average, 0) / runs.length;
        console.log(
          `  => ${name} ${encoding}: CPU/request project ÷ peer ${ratio.toFixed(2)}× (target ≤ ${CPU_RATIO_TARGET}: ` +
            `${cpuMet ? "met" : "NOT met"}); req/s project ÷ peer ${(rate(project) / rate(peers)).toFixed(2)}×`,
        );
        if (encoding === "browser") {
          const bestOf = (runs: Measured[]) =>
            [...runs].sort((a, b) => b.result.requests.average - a.result.requests.average)[0]!;
          const reaches = (m: Measured) =>
            m.result.requests.average >= TARGETS[name]! && m.result.latency.p99 < P99_TARGET_MS;
          const best = bestOf(project);
          const peerBest = bestOf(peers);
          const met = reaches(best);
          missed ||= !met;
          // A figure the peer cannot reach either, measured beside it, is this machine's ceiling at this load
          // (the brief's rule), not the project's shortfall: say which.
          const verdict = met ? "met" : reaches(peerBest) ? "NOT met" : "NOT met, nor by the peer";
          const figures = (m: Measured) =>
            `${m.result.requests.average.toFixed(0)} req/s, p99 ${m.result.latency.p99} ms, load ${m.load.toFixed(2)}`;
          console.log(
            `  => target ${name} browser encoding: >= ${TARGETS[name]} req/s, p99 < ${P99_TARGET_MS} ms: ${verdict} ` +
              `(best ${figures(best)}; the peer's best ${figures(peerBest)})`,
          );
        }
      }
    }
  } finally {
    await peer?.stop();
    await before?.stop();
    await site.stop();
  }
  console.log(`done; ${loadLine()} (1-min load at the end ${loadavg()[0]!.toFixed(2)})`);
  if (missed) process.exitCode = 1;
}

await main();
