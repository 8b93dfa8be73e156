/** The embedded server in its own process for the emulator benchmark (as any Appwrite runs apart from its clients). */
import { spawn, type ChildProcess } from "node:child_process";

/** Where the started server answers. */
export interface Target {
  endpoint: string;
  projectId: string;
  apiKey: string;
}

/**
 * Starts `emulator/main.ts` in a child process on a free port (as push-bench does) and reads its endpoint.
 * EMULATOR_BENCH_PROF=<dir> writes a V8 CPU profile of it there; EMULATOR_BENCH_SERVER=<checkout> runs the
 * server of another checkout of this repository (e.g. a worktree of main, for a before/after table measured
 * with the same client and raw loop; its `node_modules` must be installed or linked).
 */
export async function startChild(dataDir: string): Promise<{ child: ChildProcess; target: Target }> {
  const prof = process.env["EMULATOR_BENCH_PROF"];
  const flags = prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : [];
  const child = spawn(process.execPath, [...flags, "--import", "tsx", "emulator/main.ts"], {
    cwd: process.env["EMULATOR_BENCH_SERVER"] || undefined,
    env: { ...process.env, DATA_DIR: dataDir, EMULATOR_PORT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const target = await new Promise<Target>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const field = (name: string) => new RegExp(`${name}:\\s+(\\S+)`).exec(out)?.[1];
      const [endpoint, projectId, apiKey] = [field("endpoint"), field("project id"), field("API key")];
      if (endpoint && projectId && apiKey) resolve({ endpoint, projectId, apiKey });
    });
    child.once("exit", (code) => reject(new Error(`the emulator exited (${code}) before it was ready`)));
  });
  return { child, target };
}
