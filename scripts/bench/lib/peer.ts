/**
 * The benchmarks' peer (issue #33 item 1): `scripts/bench/peer/` built into a temporary folder from pages
 * captured off the running project, and served in its own process tree, like the project.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { capturePages } from "./peer-capture.ts";
import { ROOT } from "./site.ts";

const PEER_DIR = path.join(ROOT, "scripts", "bench", "peer");

/** A running peer: its base URL, its primary process, and `stop()` (ends it, removes its build). */
export interface Peer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Captures `paths` from the project at `projectUrl`, builds the peer with them (`react-router build`, a
 * production build) and starts it with `processes` processes on a free port.
 * @throws {Error} when the capture, the build or the start fails (with its output).
 */
export async function startPeer(projectUrl: string, paths: readonly string[], processes = 1): Promise<Peer> {
  const dir = await mkdtemp(path.join(tmpdir(), "bench-peer-"));
  const capture = path.join(dir, "captured.json");
  await writeFile(capture, JSON.stringify(await capturePages(projectUrl, paths)));
  // The build stays under the peer's folder (git-ignored `build/`) so its imports resolve in node_modules.
  const buildDir = path.join(PEER_DIR, "build");
  const env = { ...process.env, NODE_ENV: "production", PEER_CAPTURE: capture, PEER_BUILD_DIR: buildDir };
  await run(process.execPath, [path.join(ROOT, "node_modules", "@react-router", "dev", "bin.js"), "build"], env);
  const child = spawn(process.execPath, ["--import", "tsx", path.join(PEER_DIR, "server.ts")], {
    cwd: PEER_DIR,
    env: { ...env, PEER_PROCESSES: String(processes) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    await rm(dir, { recursive: true, force: true });
    await rm(buildDir, { recursive: true, force: true });
  };
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Peer ready: (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`the peer exited (${code}) before it was ready:\n${out}`)));
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { url, child, stop };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: PEER_DIR, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`peer build failed (${code}):\n${out}`))));
  });
}
