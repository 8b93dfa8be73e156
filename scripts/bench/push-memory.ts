/**
 * `studio push` at scale, its own memory apart (issue #33 item 6: 100,000 posts × 2 languages, 200,000 files
 * and rows, resident memory < 1 GB, and a re-push of them unchanged < 30 s). The embedded server runs in one
 * child process, the push in another (`lib/push-child.ts`), this process only generates the files and samples
 * both children's resident memory from `/proc/<pid>/status` (VmRSS every 250 ms, VmHWM: the peak) — so the
 * push's figure is the push's alone; the server's is printed beside it. Then the same push again, unchanged.
 *
 * A/B: `PUSH_BENCH_CHECKOUT=<checkout>` runs the push from another checkout of this repository (e.g. a worktree
 * of main with this `lib/push-child.ts` copied in); the server is always this checkout's.
 * Heap: `PUSH_HEAP_AT=<n>` makes the first push write a heap snapshot once n items are done (see push-child).
 * `PUSH_BENCH_CLI=1` runs the real `studio push --json --dir <content>` (the bundle, `build/cli/studio.js`, built
 * first: `node cli/build.mjs`) instead of `push-child.ts`, whose tsx start alone holds ~120 MB more: the
 * figure of `studio push` itself, its progress read from its NDJSON `item` lines.
 *
 * `PUSH_BENCH_DIR=<dir>` keeps the content and the server's data in `<dir>` (not removed at the end): a later run
 * with `again` only pushes them again, unchanged (e.g. after a change to the re-push, without the first push).
 *
 * Run: `nice -n 10 npx tsx scripts/bench/push-memory.ts [posts=10000] [ar] [first|again|both=both]`
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { createAdminServices } from "../../lib/appwrite/client.ts";
import { applySchema, type AppwriteSchema } from "../../lib/appwrite/setup.ts";
import schema from "../../model/appwrite.json" with { type: "json" };
import { startChild, type Target } from "./lib/emulator-child.ts";
import { writePostFiles } from "./lib/generate-posts.ts";

const count = Number(process.argv[2] ?? 10_000);
const arabic = process.argv[3] === "ar";
const items = arabic ? 2 * count : count;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const load = () => loadavg()[0]!.toFixed(1);

/** VmRSS and VmHWM (peak) of `pid` in bytes, from `/proc/<pid>/status`; 0 when it is gone. */
function memoryOf(pid: number): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb("VmRSS"), peak: kb("VmHWM") };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

interface PushRun {
  seconds: number;
  peak: number;
  last: Record<string, number>;
}

let shownTenth = -1;
let started = performance.now();
/**
 * A sample like `push-child.ts`'s from a line of `studio push --json` (its RSS read from `/proc`, no heap
 * figure): the first item line of each tenth, and the result line (its counts); null for the other lines.
 */
function fromCli(line: Record<string, unknown>, rssOf: () => number): Record<string, number> | null {
  if (line["type"] === "validated") {
    shownTenth = -1;
    started = performance.now();
  }
  if (line["type"] === "item") {
    const tenth = Math.floor((Number(line["done"]) / Number(line["total"])) * 10);
    if (tenth === shownTenth) return null;
    shownTenth = tenth;
    return { phase: "item" as never, done: Number(line["done"]), total: Number(line["total"]), rss: rssOf(), heap: 0 };
  }
  if (line["type"] !== "result") return null;
  const seconds = (performance.now() - started) / 1000;
  // What the push says of its own time (phases, ms) and of how it read the files (issue #33 item 6).
  if (line["phases"] || line["read"])
    console.log(
      `  push phases (ms) ${JSON.stringify(line["phases"] ?? {})}, files ${JSON.stringify(line["read"] ?? {})}`,
    );
  const counts = Object.fromEntries(["created", "updated", "unchanged", "failed"].map((k) => [k, Number(line[k])]));
  return { phase: "end" as never, ...counts, seconds, rss: rssOf(), heap: 0 };
}

/** Runs one push in its own process, printing its samples; resolves with its figures. */
function runPush(
  target: Target,
  contentDir: string,
  lockPath: string,
  serverPid: number,
  label: string,
): Promise<PushRun> {
  const checkout = process.env["PUSH_BENCH_CHECKOUT"] || process.cwd();
  const heapAt = label === "first" ? (process.env["PUSH_HEAP_AT"] ?? "") : "";
  const cli = process.env["PUSH_BENCH_CLI"] === "1";
  const args = cli
    ? ["build/cli/studio.js", "push", "--json", "--dir", contentDir]
    : ["--expose-gc", "--import", "tsx", "scripts/bench/lib/push-child.ts", contentDir, lockPath];
  const child = spawn(process.execPath, args, {
    cwd: checkout,
    env: {
      ...process.env,
      APPWRITE_ENDPOINT: target.endpoint,
      APPWRITE_PROJECT_ID: target.projectId,
      APPWRITE_API_KEY: target.apiKey,
      PUSH_HEAP_AT: heapAt,
      // `studio push --json`'s result then says where its time went (its phases, ms).
      STUDIO_PUSH_PHASES: "1",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let peak = 0;
  let serverPeak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, memoryOf(child.pid!).peak);
    serverPeak = Math.max(serverPeak, memoryOf(serverPid).rss);
  }, 250);
  let last: Record<string, number> = {};
  let buffered = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    let nl;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const parsed = JSON.parse(buffered.slice(0, nl)) as Record<string, number>;
      buffered = buffered.slice(nl + 1);
      // `/proc` is read only for the lines printed: read for each of 200,000 lines, it held the push's output
      // back by ~7 s (the push waits for its stdout to drain before it exits).
      const line = cli ? fromCli(parsed, () => memoryOf(child.pid!).rss) : parsed;
      if (!line) continue;
      last = line;
      const progress = line.total ? ` ${line.done ?? 0}/${line.total}` : "";
      const server = memoryOf(serverPid).rss;
      console.log(
        `  ${label} ${line.phase}${progress}: push RSS ${mb(line.rss!)} (heap ${mb(line.heap!)} of ${mb(line.heapTotal ?? 0)}, ` +
          `external ${mb(line.external ?? 0)}), server RSS ${mb(server)}, load ${load()}`,
      );
    }
  });
  const start = performance.now();
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => {
      clearInterval(sampler);
      if (code !== 0) return reject(new Error(`the ${label} push exited with ${code}`));
      const run = { seconds: (performance.now() - start) / 1000, peak: Math.max(peak, last.maxRSS ?? 0), last };
      console.log(
        `  ${label}: ${run.seconds.toFixed(1)} s (push's own ${Number(last.seconds).toFixed(1)} s), push peak RSS ${mb(run.peak)}, ` +
          `server RSS peak ${mb(serverPeak)} (VmHWM ${mb(memoryOf(serverPid).peak)}), load ${load()}`,
      );
      resolve(run);
    });
  });
}

async function main(): Promise<void> {
  const which = process.argv[4] ?? "both";
  const keep = process.env["PUSH_BENCH_DIR"];
  if (keep) await mkdir(path.join(keep, "content"), { recursive: true });
  if (keep) await mkdir(path.join(keep, "data"), { recursive: true });
  const contentDir = keep ? path.join(keep, "content") : await mkdtemp(path.join(tmpdir(), "push-memory-content-"));
  const dataDir = keep ? path.join(keep, "data") : await mkdtemp(path.join(tmpdir(), "push-memory-data-"));
  console.log(
    `push memory: ${count} posts${arabic ? " × 2 languages" : ""} = ${items} items; load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" / ")}`,
  );
  const { child, target } = await startChild(dataDir);
  try {
    await applySchema(createAdminServices(target), schema as AppwriteSchema);
    const lockPath = path.join(contentDir, "studio-lock.json");
    if (which !== "again") {
      await writePostFiles(contentDir, count, arabic);
      const first = await runPush(target, contentDir, lockPath, child.pid!, "first");
      if (process.env["PUSH_EXIT_PLANNED"] === "1") return;
      if (first.last.created !== items) throw new Error(`expected ${items} created, got ${JSON.stringify(first.last)}`);
      console.log(
        `first push of ${items}: ${first.seconds.toFixed(1)} s, push peak RSS ${mb(first.peak)} (target < 1 GB); load ${load()}`,
      );
    }
    if (which !== "first") {
      const again = await runPush(target, contentDir, lockPath, child.pid!, "again");
      if (again.last.unchanged !== items)
        throw new Error(`expected ${items} unchanged, got ${JSON.stringify(again.last)}`);
      console.log(
        `re-push of ${items} unchanged: ${again.seconds.toFixed(1)} s (target < 30 s for 200,000), peak RSS ${mb(again.peak)}`,
      );
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    if (!keep) await rm(dataDir, { recursive: true, force: true });
    if (!keep) await rm(contentDir, { recursive: true, force: true });
  }
}

await main();
