/**
 * `studio --help` / `--version` start-up time (issue #7 target: < 150 ms), beside bare `node -e ""` in the
 * same run (the floor). Prints the median of N runs of each.
 *
 * Run: `npx tsx scripts/bench/cli-startup.ts [runs=15]`
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const runs = Number(process.argv[2] ?? 15);

function median(args: string[]): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = spawnSync(process.execPath, args, { cwd: root, stdio: "ignore" });
    if (result.status !== 0) throw new Error(`node ${args.join(" ")} exited ${result.status}`);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

spawnSync(process.execPath, ["cli/build.mjs"], { cwd: root, stdio: "inherit" }); // the bundle of the sources measured
const floor = median(["-e", ""]);
const help = median(["cli/bin.js", "--help"]);
const version = median(["cli/bin.js", "--version"]);
console.log(`node -e "" (floor):  ${floor.toFixed(0)} ms`);
console.log(`studio --help:       ${help.toFixed(0)} ms  (target < 150 ms)`);
console.log(`studio --version:    ${version.toFixed(0)} ms`);
