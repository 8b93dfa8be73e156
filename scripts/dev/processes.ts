/**
 * The emulator and the site in child processes, for tests and the fault figures (`scripts/bench/faults.ts`)
 * that kill them, restart them, or read their memory from `/proc`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** A server running in a child process. */
export interface ChildServer {
  child: ChildProcess;
  pid: number;
  /** Resolves when the child has exited. */
  exited: Promise<void>;
  /** Sends `signal` (default SIGTERM) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Runs a TypeScript file of this repository with `node --import tsx` and waits for its first stdout line,
 * parsed as JSON (the entries print what they serve there).
 * @throws {Error} when the child exits before printing a line (its output is in the message).
 */
export async function spawnTsx<T>(
  script: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<ChildServer & { info: T }> {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let err = "";
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const info = await new Promise<T>((resolve, reject) => {
    let out = "";
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const newline = out.indexOf("\n");
      if (newline < 0) return;
      child.stdout!.off("data", onData);
      child.stdout!.resume();
      resolve(JSON.parse(out.slice(0, newline)) as T);
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${script} exited (${code}) before it was ready:\n${out}${err}`)));
  });
  return {
    child,
    pid: child.pid!,
    info,
    exited,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** An emulator in a child process (project `durable`, key `durable-key`). */
export interface EmulatorProcess extends ChildServer {
  endpoint: string;
  projectId: string;
  apiKey: string;
}

/**
 * Starts the emulator for `dataDir` in a child process, on `port` (0 = a free one; pass the old port to
 * restart it where clients expect it).
 */
export async function startEmulatorProcess(dataDir: string, port = 0): Promise<EmulatorProcess> {
  const server = await spawnTsx<{ endpoint: string; projectId: string; apiKey: string }>(
    "scripts/dev/emulator-process.ts",
    [dataDir, String(port)],
  );
  return { ...server, ...server.info };
}

/** The site (production build) in a child process. */
export interface SiteProcess extends ChildServer {
  url: string;
}

/**
 * Starts the site from `build/` in a child process against `target` (an Appwrite endpoint, project and key);
 * `env` adds variables (e.g. `GEMINI_*`).
 */
export async function startSiteProcess(
  target: { endpoint: string; projectId: string; apiKey: string },
  env: NodeJS.ProcessEnv = {},
): Promise<SiteProcess> {
  const server = await spawnTsx<{ url: string }>("scripts/dev/site-process.ts", [], {
    ...process.env,
    APPWRITE_ENDPOINT: target.endpoint,
    APPWRITE_PROJECT_ID: target.projectId,
    APPWRITE_API_KEY: target.apiKey,
    ...env,
  });
  return { ...server, url: server.info.url };
}

/**
 * Resident memory of a process, in bytes: `VmRSS` (now) and `VmHWM` (its peak so far) from
 * `/proc/<pid>/status` (Linux only).
 * @throws {Error} when `/proc` has no such process.
 */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}
