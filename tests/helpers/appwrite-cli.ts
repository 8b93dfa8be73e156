/**
 * The official Appwrite CLI (npm `appwrite-cli`, the devDependency) as the tests run it: in a working folder
 * that is also its HOME (so its settings file stays there), no terminal, no colours, CI mode.
 */
import { spawn } from "node:child_process";
import path from "node:path";

const CLI = path.resolve(import.meta.dirname, "../../node_modules/appwrite-cli/index.js");

/** Runs `appwrite <args>` in `work`; resolves with its exit code and its stdout and stderr together. */
export function runAppwriteCli(work: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: work,
      env: { ...process.env, HOME: work, CI: "true", NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("exit", (code) => resolve({ code, output }));
  });
}
