/**
 * `studio` for tests, two ways (issue #27 item 4):
 * - `studio()` runs the command line in this process (`cli/program.ts` `runStudio`: the same commander program,
 *   commands and error reporting as the bin), capturing what it prints. Behaviour tests use it: loading the
 *   SDK, the sanitizer and Prettier once per file instead of once per command saves seconds a call.
 * - `spawnStudio()` runs the built bin (`cli/bin.js`) as a child process, for the process contract only (exit
 *   status, NDJSON on a real pipe, `--help`, terminals): tests/integration/cli-contract.test.ts.
 * Both take the Appwrite to use as `target` and return the same `StudioRun`.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { format } from "node:util";
import type { RunningEmulator } from "../../embedded-appwrite/server.ts";
import { runStudio } from "../../cli/program.ts";
import { appwriteEnv, ROOT } from "./stack.ts";

export type Target = Pick<RunningEmulator, "endpoint" | "projectId" | "apiKey">;

export interface StudioRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as NDJSON. */
  lines(): Record<string, unknown>[];
  /** The final NDJSON line (the result). */
  result(): Record<string, unknown>;
}

function studioRun(code: number | null, stdout: string, stderr: string): StudioRun {
  const lines = () =>
    stdout
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { code, stdout, stderr, lines, result: () => lines().at(-1)! };
}

const CONSOLE_OUT = ["log", "info"] as const;
const CONSOLE_ERR = ["error", "warn"] as const;

/**
 * Runs `studio <args>` in this process against `target`, as a command in a pipe (not a terminal; CI set), with
 * `env` added to the environment for the run. Output written to process.stdout/stderr or the console during
 * the run is captured, not shown; the environment and `process.exitCode` are restored afterwards. Calls must
 * not overlap (they share the process's streams).
 */
export async function studio(args: string[], target: Target, env: NodeJS.ProcessEnv = {}): Promise<StudioRun> {
  const savedEnv = { ...process.env };
  Object.assign(process.env, appwriteEnv(target), { CI: "true" }, env);
  let stdout = "";
  let stderr = "";
  const streams = [
    [process.stdout, (s: string) => (stdout += s)],
    [process.stderr, (s: string) => (stderr += s)],
  ] as const;
  const writes = streams.map(([stream]) => stream.write);
  for (const [stream, add] of streams) {
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      add(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
      const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof stream.write;
  }
  const consoles = [...CONSOLE_OUT, ...CONSOLE_ERR].map((name) => [name, console[name]] as const);
  for (const name of CONSOLE_OUT) console[name] = (...a: unknown[]) => void (stdout += `${format(...a)}\n`);
  for (const name of CONSOLE_ERR) console[name] = (...a: unknown[]) => void (stderr += `${format(...a)}\n`);
  try {
    const code = await runStudio(args);
    return studioRun(code, stdout, stderr);
  } finally {
    streams.forEach(([stream], i) => (stream.write = writes[i]!));
    for (const [name, fn] of consoles) console[name] = fn;
    for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
    Object.assign(process.env, savedEnv);
  }
}

/**
 * Runs the built `studio` bin as a child process against `target`, with piped output (or, with `tty`, in a
 * pseudo-terminal of `tty.columns` columns through script(1)), `env` added to its environment.
 */
export function spawnStudio(
  args: string[],
  target: Target,
  env: NodeJS.ProcessEnv = {},
  tty?: { columns: number },
): Promise<StudioRun> {
  const bin = path.join(ROOT, "cli/bin.js");
  const [command, argv] = tty
    ? [
        "script",
        [
          "-qec",
          `stty cols ${tty.columns} rows 40; ${[process.execPath, bin, ...args].map((a) => `'${a}'`).join(" ")}`,
          "/dev/null",
        ],
      ]
    : [process.execPath, [bin, ...args]];
  return new Promise((resolve) => {
    const child = spawn(command, argv, {
      cwd: ROOT,
      env: { ...appwriteEnv(target), CI: "", ...(tty ? { TERM: "xterm-256color" } : {}), ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (code) => resolve(studioRun(code, stdout, stderr)));
  });
}
