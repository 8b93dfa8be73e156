/**
 * `lib/workers/budget-thread.ts`: a module loaded again (the development server reloading `lib/`, the test
 * runs loading the site's build for each file) makes a new thread, which takes over the idle worker the first
 * one started instead of starting another; errors come from the thread that ran the job. `prestart` loads a
 * worker ahead of its first job without keeping the process alive for it (`studio push`, issue #33 item 5).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BudgetThread, type BudgetThreadOptions } from "../../lib/workers/budget-thread.ts";
import { ROOT } from "../helpers/fixtures.ts";

/** A worker that answers each job with its thread id and its data's tag, or fails on "fail". */
const SOURCE = `
const { parentPort, threadId, workerData } = require("node:worker_threads");
parentPort.on("message", (job) => {
  if (job.input === "fail") parentPort.postMessage({ id: job.id, error: "asked to fail" });
  else parentPort.postMessage({ id: job.id, output: { threadId, tag: workerData.tag } });
});
parentPort.postMessage({ ready: true });
`;

class JobError extends Error {}

/** A thread as a module would make it (`tag`: its worker's data). */
function makeThread(tag: string, jobError = (message: string) => new JobError(message)) {
  const options: BudgetThreadOptions = {
    source: SOURCE,
    workerData: () => ({ tag }),
    heapMb: 32,
    startTimeoutMs: 10_000,
    maxQueued: 8,
    timeoutError: (ms) => new Error(`past ${ms} ms`),
    busyError: () => new Error("busy"),
    jobError,
  };
  return new BudgetThread<string, { threadId: number; tag: string }>(options);
}

const made: BudgetThread<string, unknown>[] = [];
function thread(tag: string, jobError?: (message: string) => Error) {
  const t = makeThread(tag, jobError);
  made.push(t as BudgetThread<string, unknown>);
  return t;
}
afterAll(() => Promise.all(made.map((t) => t.stop())));

describe("BudgetThread, loaded twice in one process", () => {
  it("hands the idle worker to the new thread of the same script and data, and back", async () => {
    const first = thread("same");
    const { threadId } = await first.run("job", 5_000);
    const second = thread("same");
    expect(await second.run("job", 5_000)).toEqual({ threadId, tag: "same" });
    expect(await first.run("job", 5_000)).toEqual({ threadId, tag: "same" });
  });

  it("starts its own worker for other data, and a new one once the holder stopped its worker", async () => {
    const a = thread("a");
    const { threadId } = await a.run("job", 5_000);
    const other = thread("b");
    const b = await other.run("job", 5_000);
    expect(b.tag).toBe("b");
    expect(b.threadId).not.toBe(threadId);

    await a.stop();
    const again = thread("a");
    const fresh = await again.run("job", 5_000);
    expect(fresh.tag).toBe("a");
    expect(fresh.threadId).not.toBe(threadId);
  });

  it("reports a job's error with the errors of the thread that ran it", async () => {
    class OtherError extends Error {}
    const first = thread("errors");
    await first.run("job", 5_000);
    const second = thread("errors", (message) => new OtherError(message));
    await expect(second.run("fail", 5_000)).rejects.toBeInstanceOf(OtherError);
    await expect(first.run("fail", 5_000)).rejects.toBeInstanceOf(JobError);
  });
});

describe("BudgetThread.prestart", () => {
  it("starts the worker ahead of the first job, which then runs on it; a second call starts no other", async () => {
    const t = thread("prestart");
    expect(await t.prestart()).toBe(true);
    const { threadId } = await t.run("job", 5_000);
    expect(await t.prestart()).toBe(true);
    expect((await t.run("job", 5_000)).threadId).toBe(threadId);
  });

  it("resolves false for a worker that fails to start, and a later job fails with that error", async () => {
    const t = new BudgetThread<string, string>({
      source: `throw new Error("cannot load")`,
      workerData: () => ({}),
      heapMb: 32,
      startTimeoutMs: 10_000,
      maxQueued: 8,
      timeoutError: (ms) => new Error(`past ${ms} ms`),
      busyError: () => new Error("busy"),
      jobError: (message) => new JobError(message),
    });
    made.push(t as BudgetThread<string, unknown>);
    expect(await t.prestart()).toBe(false);
    await expect(t.run("job", 5_000)).rejects.toThrow(/cannot load/);
  });

  it("does not keep the process alive for a worker still starting", async () => {
    // A child process prestarts a worker that takes 6 s to start and writes a file once it has; the child has
    // nothing else to do, so it exits at once and takes the worker with it: the file is never written.
    const dir = await mkdtemp(path.join(tmpdir(), "prestart-"));
    const marker = path.join(dir, "started");
    const script = `
      import { BudgetThread } from ${JSON.stringify(path.join(ROOT, "lib/workers/budget-thread.ts"))};
      const source = "const { parentPort, workerData } = require('node:worker_threads');" +
        "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 6000);" +
        "require('node:fs').writeFileSync(workerData.marker, 'x'); parentPort.postMessage({ ready: true });";
      new BudgetThread({ source, workerData: () => ({ marker: ${JSON.stringify(marker)} }), heapMb: 32,
        startTimeoutMs: 30_000, maxQueued: 1, timeoutError: () => new Error("t"), busyError: () => new Error("b"),
        jobError: (m) => new Error(m) }).prestart();
    `;
    // A file, not `-e`: run from `-e`, the process exited at once even with the worker held (Node 20).
    await writeFile(path.join(dir, "child.mjs"), script);
    const child = spawn(process.execPath, ["--import", "tsx", path.join(dir, "child.mjs")], { cwd: ROOT });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    await rm(dir, { recursive: true, force: true });
  });
});
