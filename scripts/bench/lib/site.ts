/**
 * The real site for benchmarks: `npm start`'s launcher (production build, embedded Appwrite-compatible server,
 * `content/` pushed) in a child process, on free ports and a temporary DATA_DIR, so the bench shares no event
 * loop with the measured server.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The project root (where `package.json` is). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** A running site: its base URL (`http://127.0.0.1:<port>`) and `stop()`, which ends it and removes its data. */
export interface BenchSite {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts the site and resolves once it prints "Site ready: <url>". Rejects with the launcher's output if it
 * exits first. Its stderr goes to this process's stderr. `env`: more variables for it (`PAGE_CACHE`,
 * `WEB_CONCURRENCY`). `root`: the checkout to run (default this one; another worktree, to compare two builds).
 * `nodeArgs`: options for `node` before the launcher (e.g. `--trace-gc-nvp`; site processes inherit them).
 */
export async function startSite(
  env: Record<string, string> = {},
  root: string = ROOT,
  nodeArgs: string[] = [],
): Promise<BenchSite> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "bench-site-"));
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "launcher/start.ts"], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: "0", EMULATOR_PORT: "0", NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out: string | null = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        if (out === null) return; // ready: later output (e.g. `--trace-gc-nvp` lines) is the caller's to read
        out += chunk.toString();
        const match = /Site ready: (http:\/\/\S+)/.exec(out);
        if (match) {
          out = null;
          resolve(match[1]!.replace("localhost", "127.0.0.1"));
        }
      });
      child.once("exit", (code) => reject(new Error(`the site exited (${code}) before it was ready:\n${out}`)));
    });
    return { url, child, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The first link matching `pattern` (a regexp with one group, the path) in the page at `url`. */
export async function firstLink(url: string, pattern: RegExp): Promise<string> {
  const found = pattern.exec(await (await fetch(url)).text())?.[1];
  if (!found) throw new Error(`no link matching ${pattern} on ${url}`);
  return found;
}
