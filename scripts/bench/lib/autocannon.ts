/**
 * autocannon for the site benchmarks, run in its own process so the load generator never shares an event
 * loop with what it measures.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { ROOT } from "./site.ts";

/** The fields of autocannon's JSON result the benchmarks read. */
export interface LoadResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  "2xx": number;
  "3xx": number;
  "4xx": number;
  "5xx": number;
}

/**
 * Runs autocannon (`-c connections -d seconds`) against `url` in its own process.
 * @param headers extra request headers, e.g. `{ "accept-encoding": "gzip" }`.
 */
export async function autocannon(
  url: string,
  connections: number,
  seconds: number,
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  const args = ["-c", String(connections), "-d", String(seconds), "-j", url];
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}=${value}`);
  const child = spawn(path.join(ROOT, "node_modules", ".bin", "autocannon"), args, {
    stdio: ["ignore", "pipe", "ignore"],
  });
  let out = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.once("exit", resolve));
  return JSON.parse(out) as LoadResult;
}
