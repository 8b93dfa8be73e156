/** The embedded server in its own process for the emulator benchmark (as any Appwrite runs apart from its clients). */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, Databases, TablesDB } from "node-appwrite";

/** Where the started server answers. */
export interface Target {
  endpoint: string;
  projectId: string;
  apiKey: string;
}

/**
 * Starts `embedded-appwrite/main.ts` in a child process on a free port (as push-bench does) and reads its endpoint.
 * EMULATOR_BENCH_PROF=<dir> writes a V8 CPU profile of it there; EMULATOR_BENCH_SERVER=<checkout> runs the
 * server of another checkout of this repository (e.g. a worktree of main, for a before/after table measured
 * with the same client and raw loop; its `node_modules` must be installed or linked).
 */
export async function startChild(dataDir: string): Promise<{ child: ChildProcess; target: Target }> {
  const prof = process.env["EMULATOR_BENCH_PROF"];
  const flags = prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : [];
  const child = spawn(process.execPath, [...flags, "--import", "tsx", "embedded-appwrite/main.ts"], {
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

/**
 * CPU time (user + system, seconds) process `pid` has used so far, from `/proc/<pid>/stat` (Linux; clock
 * ticks of 1/100 s, the kernel's USER_HZ). NaN where there is no `/proc`. Unlike throughput, the CPU a server
 * spends per request does not depend on what else the (shared) machine runs.
 */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** The URL and headers node-appwrite sends for the benchmark's list call, captured by a stub server. */
export async function captureListRequest(
  target: Target,
  databaseId: string,
  queries: string[],
  collectionId: string,
  api: "documents" | "rows" = "documents",
): Promise<{ url: string; headers: IncomingHttpHeaders }> {
  let seen: { url: string; headers: IncomingHttpHeaders } | undefined;
  const stub = createServer((req, res) => {
    seen = { url: req.url ?? "", headers: req.headers };
    res.writeHead(200, { "content-type": "application/json" }).end('{"total":0,"documents":[]}');
  });
  await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
  const stubEndpoint = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v1`;
  const client = new Client().setEndpoint(stubEndpoint).setProject(target.projectId).setKey(target.apiKey);
  if (api === "rows") await new TablesDB(client).listRows({ databaseId, tableId: collectionId, queries });
  else await new Databases(client).listDocuments({ databaseId, collectionId, queries });
  stub.close();
  if (!seen) throw new Error("the SDK sent nothing");
  return { url: new URL(target.endpoint).origin + seen.url, headers: seen.headers };
}

/** autocannon (its own process) at 10 connections against the captured request. */
