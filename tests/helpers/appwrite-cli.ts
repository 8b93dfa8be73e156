/**
 * The official Appwrite CLI (npm `appwrite-cli`, the devDependency) as the tests run it: in a working folder
 * that is also its HOME (so its settings file stays there), no terminal, no colours, CI mode.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startEmulator, type RunningEmulator } from "../../embedded-appwrite/server.ts";
import schema from "../../model/appwrite.json" with { type: "json" };

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

/** An emulator and a working folder for the official CLI (`officialCliBench`), filled in by `beforeAll`. */
export interface CliBench {
  emulator: RunningEmulator;
  /** The CLI's working folder and HOME. */
  work: string;
  /** Runs `appwrite <args>` in `work`. */
  appwrite(args: string[]): Promise<{ code: number | null; output: string }>;
  /** `appwrite client --endpoint … --project-id … --key …` against the emulator; throws with the output on failure. */
  login(): Promise<void>;
}

/**
 * Starts an emulator on a free port and makes a working folder before the file's tests (`name` prefixes the
 * temporary folders), and stops and removes both after them.
 */
export function officialCliBench(name: string): CliBench {
  let dataDir = "";
  const bench: CliBench = {
    emulator: undefined as unknown as RunningEmulator,
    work: "",
    appwrite: (args) => runAppwriteCli(bench.work, args),
    async login() {
      const { endpoint, projectId, apiKey } = bench.emulator;
      const login = await bench.appwrite([
        "client",
        "--endpoint",
        endpoint,
        "--project-id",
        projectId,
        "--key",
        apiKey,
      ]);
      if (login.code !== 0) throw new Error(`appwrite client failed (${login.code}):\n${login.output}`);
    },
  };
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), `${name}-data-`));
    bench.work = await mkdtemp(path.join(tmpdir(), `${name}-`));
    bench.emulator = await startEmulator({ dataDir, port: 0 });
  });
  afterAll(async () => {
    await bench.emulator?.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(bench.work, { recursive: true, force: true });
  });
  return bench;
}

/**
 * `model/appwrite.json`'s collections as the CLI writes a project in tables (CLI 12): `rowSecurity` for
 * `documentSecurity`, `columns` for `attributes`, and each index's `columns` for its `attributes`.
 */
export function schemaTables() {
  return schema.collections.map(({ documentSecurity, attributes, indexes, ...rest }) => ({
    ...rest,
    rowSecurity: documentSecurity,
    columns: attributes as Record<string, unknown>[],
    indexes: indexes.map(({ attributes: columns, ...index }) => ({ ...index, columns })),
  }));
}
