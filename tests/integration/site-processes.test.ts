/**
 * `npm start` with WEB_CONCURRENCY=2 (issue #18 items 1 and 4): two site processes share the port and both
 * render pages, a process that dies is replaced while the site keeps answering, and Ctrl-C stops every one.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { get } from "node:http";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/stack.ts";

let launcher: ChildProcess;
let output = "";
let url = "";
let dataDir = "";

/** Resolves once the launcher's output matches `pattern`; rejects after `ms` with what it printed. */
function waitFor(pattern: RegExp, ms = 60_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in:\n${output}`)), ms);
    const check = () => {
      const match = pattern.exec(output);
      if (!match) return;
      clearTimeout(timer);
      launcher.stdout!.off("data", check);
      launcher.stderr!.off("data", check);
      resolve(match);
    };
    launcher.stdout!.on("data", check);
    launcher.stderr!.on("data", check);
    check();
  });
}

/**
 * The launcher's site processes, as `ps` lists them (`<pid> <command line>`): its children running the site's
 * entry (the embedded server is a thread).
 */
function siteProcessLines(): string[] {
  const out = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(launcher.pid)], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.includes("build/launcher/site-process.js"));
}

/** The pids of the launcher's site processes (`siteProcessLines`). */
function siteProcesses(): number[] {
  return siteProcessLines().map((line) => Number(line.trim().split(/\s+/)[0]));
}

/** CPU time a process has used, in clock ticks (`/proc/<pid>/stat` utime + stime). */
async function cpuTicks(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/** The status of GET `pathname` on a new connection (a kept-alive one may lead to a process just killed). */
function statusOf(pathname: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${url}${pathname}`, { agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    }).once("error", reject);
  });
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "site-processes-"));
  launcher = spawn(process.execPath, ["--import", "tsx", "launcher/start.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: "0", EMULATOR_PORT: "0", WEB_CONCURRENCY: "2", PAGE_CACHE: "off" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  launcher.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  launcher.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const ready = await waitFor(/Site ready: (http:\/\/\S+) .*2 site processes/, 120_000);
  url = ready[1]!.replace("localhost", "127.0.0.1");
}, 150_000);

afterAll(async () => {
  if (launcher && launcher.exitCode === null) launcher.kill("SIGKILL");
  await rm(dataDir, { recursive: true, force: true });
});

describe("WEB_CONCURRENCY=2", () => {
  it("runs two site processes on one port, and both render pages", async () => {
    const lines = siteProcessLines();
    expect(lines).toHaveLength(2);
    // Forked from the launcher's bundle on plain node, not through the TypeScript loader `npm start` runs under.
    for (const line of lines) expect(line).not.toContain("tsx");
    const pids = siteProcesses();
    const before = await Promise.all(pids.map(cpuTicks));
    // Ten at a time for a while: the primary hands connections to the processes in turn. Eight rounds: ~40
    // renders each, several times the 10 ticks asked even for warm renders of ~5 ms (20 rounds took ~7 s of
    // both cores here, and showed nothing more).
    for (let round = 0; round < 8; round++) {
      const statuses = await Promise.all(Array.from({ length: 10 }, () => fetch(`${url}/en`).then((r) => r.status)));
      expect(statuses.every((s) => s === 200)).toBe(true);
    }
    const after = await Promise.all(pids.map(cpuTicks));
    // Each rendered its share: 40 renders of /en are far more than 10 ticks (100 ms) of CPU each; an idle
    // process stays under it.
    for (let i = 0; i < pids.length; i++) expect(after[i]! - before[i]!).toBeGreaterThan(10);
  });

  it("replaces a site process that dies, and keeps answering meanwhile", async () => {
    const [victim, survivor] = siteProcesses();
    process.kill(victim!, "SIGKILL");
    await waitFor(/A site process stopped \(SIGKILL\); another took its place\./);
    // While the replacement starts, the survivor answers every new connection.
    for (const pathname of ["/en", "/ar", "/en/blog", "/ar/ventures"]) expect(await statusOf(pathname)).toBe(200);
    await expect.poll(() => siteProcesses().length, { timeout: 60_000 }).toBe(2);
    expect(siteProcesses()).toContain(survivor);
    expect(siteProcesses()).not.toContain(victim);
  }, 90_000);

  it("stops every process on Ctrl-C (SIGINT)", async () => {
    const pids = siteProcesses();
    const exited = new Promise<number | null>((resolve) => launcher.once("exit", (code) => resolve(code)));
    launcher.kill("SIGINT");
    expect(await exited).toBe(0);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    await expect(fetch(`${url}/en`)).rejects.toThrow();
  });
});
