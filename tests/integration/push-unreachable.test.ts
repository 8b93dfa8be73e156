/**
 * Issue #26 item 10: when Appwrite goes away mid-push, `studio push` stops at the first connection error with
 * one message naming the endpoint and exits 3 (before: a "fetch failed" line per remaining item, exit 5); an
 * occupied `EMULATOR_PORT` or an unusable `DATA_DIR` is a configuration error, exit 3 saying what to change
 * (before: exit 70, "a bug in studio"). The binary is spawned: these are exit codes and output channels.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appwriteEnv, FIXTURE_CONTENT, ROOT, startBackend, type Backend } from "../helpers/stack.ts";

const POSTS = 40;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "push-unreachable-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A content folder of `POSTS` posts, each with its own image (so each write takes a few requests). */
async function manyPosts(): Promise<string> {
  const dir = path.join(work, "content");
  await mkdir(path.join(dir, "posts"), { recursive: true });
  await mkdir(path.join(dir, "images"), { recursive: true });
  const png = await readFile(path.join(FIXTURE_CONTENT, "images/hello-cover.png"));
  for (let i = 0; i < POSTS; i++) {
    await writeFile(path.join(dir, "images", `cover-${i}.png`), Buffer.concat([png, Buffer.from(`post ${i}`)]));
    await writeFile(
      path.join(dir, "posts", `post-${i}.md`),
      `---\ntitle: Post ${i}\nexcerpt: Number ${i}.\nauthorName: Load Test\npublishedDate: 2026-01-01\n` +
        `featuredImage: ../images/cover-${i}.png\n---\n## Post ${i}\n\nText.\n`,
    );
  }
  return dir;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `studio <args>` with `env`; `onLine` sees each stdout line as it comes. */
function studio(args: string[], env: NodeJS.ProcessEnv, onLine?: (line: string) => void): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, "cli/bin.js"), ...args], { cwd: work, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      const before = stdout.split("\n").length;
      stdout += d.toString();
      for (const line of stdout.split("\n").slice(before - 1, -1)) onLine?.(line);
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The environment for the embedded server: no APPWRITE_* variables, CI output. */
function embeddedEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: "true", ...extra };
  for (const name of ["APPWRITE_ENDPOINT", "APPWRITE_PROJECT_ID", "APPWRITE_API_KEY"]) delete env[name];
  return env;
}

describe("Appwrite going away during a push", () => {
  let backend: Backend | undefined;
  afterAll(async () => backend?.close().catch(() => {}));

  it("stops at the first connection error: exit 3, one message naming the endpoint", async () => {
    backend = await startBackend();
    const dir = await manyPosts();
    const { endpoint } = backend.emulator;
    let items = 0;
    let stopping: Promise<void> | null = null;
    const run = await studio(["push", "--dir", dir], appwriteEnv(backend.emulator), (line) => {
      if (/^\[\d+\/\d+\] created /.test(line)) items++;
      // Appwrite goes away after a few items were written.
      if (items >= 3 && !stopping) stopping = backend!.emulator.close();
    });
    await stopping;

    expect(run.code, run.stderr).toBe(3);
    const mentions = `${run.stdout}\n${run.stderr}`.split("\n").filter((l) => l.includes(endpoint));
    expect(mentions, run.stderr).toHaveLength(1);
    expect(mentions[0]).toMatch(/Appwrite at .* did not answer/);
    expect(run.stdout).not.toMatch(/failed post|fetch failed/);
    expect(run.stderr).not.toMatch(/bug in studio/);
    const done = run.stdout.split("\n").filter((l) => /^\[\d+\/\d+\] created /.test(l)).length;
    expect(done).toBeLessThan(POSTS); // really midway
  }, 90_000);
});

describe("the embedded server cannot start", () => {
  let occupied: Server;
  beforeAll(async () => {
    occupied = createServer();
    await new Promise<void>((resolve) => occupied.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => occupied.close(() => resolve())));

  it("exits 3 naming EMULATOR_PORT and what to set when the port is taken", async () => {
    const port = (occupied.address() as { port: number }).port;
    const dataDir = await mkdtemp(path.join(work, "data-"));
    const run = await studio(
      ["push", "--dir", FIXTURE_CONTENT, "--dry-run"],
      embeddedEnv({ EMULATOR_PORT: String(port), DATA_DIR: dataDir }),
    );
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain(`EMULATOR_PORT ${port} is in use by another program`);
    expect(run.stderr).toMatch(/Set EMULATOR_PORT to a free port/);
    expect(run.stderr).not.toMatch(/bug in studio/);
  }, 60_000);

  it("exits 3 naming DATA_DIR and what to set when it cannot be created", async () => {
    const file = path.join(work, "not-a-folder");
    await writeFile(file, "a file, not a folder\n");
    const run = await studio(
      ["push", "--dir", FIXTURE_CONTENT, "--dry-run"],
      embeddedEnv({ EMULATOR_PORT: "0", DATA_DIR: path.join(file, "data") }),
    );
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain(`DATA_DIR ${path.join(file, "data")} cannot be used`);
    expect(run.stderr).toMatch(/Set DATA_DIR to a folder/);
    expect(run.stderr).not.toMatch(/bug in studio/);
  }, 60_000);
});
