/**
 * One measured load run against a process tree: autocannon's figures with the CPU the tree spent meanwhile
 * (`/proc`), so a benchmark can print CPU per request beside req/s (issue #33), and the machine's load.
 */
import { request } from "node:http";
import { loadavg } from "node:os";
import { autocannon, type LoadResult } from "./autocannon.ts";
import { cpuBetween, treeCpuMs } from "./proc-cpu.ts";

/** A run's figures: autocannon's result, CPU ms of the whole tree and of the root process alone, per request. */
export interface Measured {
  result: LoadResult;
  requests: number;
  /** CPU ms per request of every process under the root. */
  cpuPerRequest: number;
  /** CPU ms per request of the root process alone (the launcher: embedded server, cluster primary). */
  rootCpuPerRequest: number;
  /** The 1-minute load average when the run ended. */
  load: number;
}

/** Runs autocannon against `url` while reading the CPU of the tree under `rootPid`. */
export async function measure(
  rootPid: number,
  url: string,
  connections: number,
  seconds: number,
  headers: Record<string, string>,
): Promise<Measured> {
  const before = treeCpuMs(rootPid);
  const result = await autocannon(url, connections, seconds, headers);
  const used = cpuBetween(before, treeCpuMs(rootPid));
  const requests = Math.max(1, result["2xx"]);
  const total = [...used.values()].reduce((sum, ms) => sum + ms, 0);
  return {
    result,
    requests,
    cpuPerRequest: total / requests,
    rootCpuPerRequest: (used.get(rootPid) ?? 0) / requests,
    load: loadavg()[0]!,
  };
}

/** `os.loadavg()` as printed by the benchmarks: "load 1.23 / 2.34 / 3.45 (1, 5, 15 min; 2 cores)". */
export function loadLine(cores = 2): string {
  return `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ")} (1, 5, 15 min; ${cores} cores)`;
}

/** The body as sent (bytes on the wire) and its `Content-Encoding`, for `url` with `headers`. */
export function wireBytes(url: string, headers: Record<string, string>): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => (bytes += chunk.length));
      res.on("end", () => resolve({ bytes, encoding: String(res.headers["content-encoding"] ?? "identity") }));
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}
