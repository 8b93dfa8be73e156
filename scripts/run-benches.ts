/**
 * `npm run bench`: every benchmark in `scripts/bench/*.ts` (helpers live in `scripts/bench/lib/`), one after
 * another in its own process, each printing its own figures, then a summary (exit code and time of each).
 * Benchmarks run with the short arguments in QUICK_ARGS (a benchmark not listed there runs with its own
 * defaults); `--full` uses every benchmark's own defaults. Other arguments select benchmarks by name:
 * `npm run bench -- ssr page` runs `ssr-bench.ts` and `page-quality.ts`.
 *
 * Exits 1 when a benchmark fails or reports a missed target (its exit code is not 0).
 */
import { spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const benchDir = path.join(root, "scripts", "bench");

/** Short arguments per benchmark, for a run of all of them in a few minutes; see each script's header. */
const QUICK_ARGS: Record<string, string[]> = {
  "cache-bypass.ts": ["3", "1"], // seconds, rounds
  "cli-startup.ts": ["10"], // runs
  "compress-writes.ts": ["300", "3"], // requests per run, rounds
  "emulator-bench.ts": ["3", "1"], // seconds, rounds
  "emulator-floor.ts": ["3", "2"], // seconds, rounds
  "js-size.ts": [],
  "lcp-compare.ts": ["1"], // Lighthouse runs per page (this checkout alone: the LCP budget)
  "page-quality.ts": ["1"], // Lighthouse runs per page
  "push-bench.ts": ["300", "4", "1"], // posts, concurrency, rounds
  "render-path.ts": ["5", "2"], // seconds per figure, site processes
  "repush-bench.ts": ["1000", "3"], // posts, rounds
  "scale.ts": ["10000", "push", "20"], // posts, how they are added (push|bulk), requests per figure
  "ssr-bench.ts": ["3", "1"], // seconds per autocannon run, rounds
  "nginx-cache.ts": ["3", "1"], // seconds, rounds
  "load.ts": ["10"], // seconds per path (SECURITY C49 asks 30: --full)
  "stall.ts": ["5"], // seconds per phase (quiet, then hammering the worst bodies)
  "two-sites.ts": ["5"], // pushes
};

/** Runs `scripts/bench/<file>` with `args` in a child process sharing this terminal; resolves to its exit code. */
function runBench(file: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(benchDir, file), ...args], {
      cwd: root,
      stdio: "inherit",
    });
    child.once("error", () => resolve(1));
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const full = argv.includes("--full");
  const filters = argv.filter((a) => a !== "--full");
  const files = (await readdir(benchDir, { withFileTypes: true }))
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => e.name)
    .filter((name) => filters.length === 0 || filters.some((f) => name.includes(f)))
    .sort();
  if (files.length === 0) throw new Error(`no benchmark in scripts/bench matches ${filters.join(", ")}`);

  const summary: { file: string; args: string[]; code: number; seconds: number }[] = [];
  for (const file of files) {
    const args = full ? [] : (QUICK_ARGS[file] ?? []);
    console.log(`\n=== ${file} ${args.join(" ")}`.trimEnd());
    const start = performance.now();
    const code = await runBench(file, args);
    summary.push({ file, args, code, seconds: (performance.now() - start) / 1000 });
  }

  console.log(`\n=== Summary (${full ? "each benchmark's own defaults" : "short runs; --full for the defaults"})`);
  for (const s of summary) {
    const status = s.code === 0 ? "ok" : `exit ${s.code} (failed or a target missed: see its output above)`;
    console.log(`${`${s.file} ${s.args.join(" ")}`.padEnd(32)} ${`${s.seconds.toFixed(0)} s`.padStart(6)}  ${status}`);
  }
  if (summary.some((s) => s.code !== 0)) process.exitCode = 1;
}

await main();
