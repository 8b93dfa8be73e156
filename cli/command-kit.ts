/**
 * What command modules share to declare themselves (STYLE 6: each command declares its own flags): the
 * context runner and the parsers of flag values. Light on purpose: `--help` loads it (commander only).
 */
import { InvalidArgumentError } from "commander";
import { parseDuration } from "../lib/duration.ts";
import type { CommandContext } from "./context.ts";

/** Builds the context (Appwrite, lock, output mode), runs `run`, sets its exit code, and closes the context. */
export async function withContext(
  json: boolean | undefined,
  run: (context: CommandContext) => Promise<number>,
): Promise<void> {
  const { createContext } = await import("./context.ts");
  const context = await createContext({ json });
  try {
    process.exitCode = await run(context);
  } finally {
    await context.close();
  }
}

/** Whether output may be live (Ink, prompts): loads the context module only when a command runs. */
export async function interactive(json: boolean | undefined): Promise<boolean> {
  return (await import("./context.ts")).isInteractive(json);
}

/** `--concurrency`: a whole number from 1 to 64. */
export function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new InvalidArgumentError("expected a whole number from 1 to 64.");
  return n;
}

/** `--older-than`: 0 or a duration (90s, 30m, 1h, 2d), in ms. */
export function duration(value: string): number {
  const ms = parseDuration(value);
  if (ms === null) throw new InvalidArgumentError("expected 0 or a duration such as 90s, 30m, 1h or 2d.");
  return ms;
}

/** `--port`: 0 (any free port) to 65535. */
export function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError("expected a port number (0 = any free port).");
  return n;
}
