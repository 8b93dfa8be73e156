/**
 * What the site benchmarks share: the real site started as `npm start` starts it (a child process, a
 * temporary `DATA_DIR`, free ports, `content/` pushed), and autocannon run in its own process so the load
 * generator never shares an event loop with what it measures.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface SiteProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  child: ChildProcess;
  /** Stops the site (SIGTERM, as Ctrl-C would) and removes its data. */
  stop(): Promise<void>;
}

/**
 * Starts `npm start`'s launcher in a child process and resolves at "Site ready".
 * @throws {Error} with the launcher's output when it exits first.
 */
export async function startSiteProcess(): Promise<SiteProcess> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "site-bench-"));
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: "0", EMULATOR_PORT: "0", NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Site ready: (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!.replace("localhost", "127.0.0.1"));
    });
    child.once("exit", (code) => reject(new Error(`the site exited (${code}) before it was ready:\n${out}`)));
  });
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

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

/** Resident set size of a process and its threads, in bytes (Linux `/proc/<pid>/status` VmRSS). */
export async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}
