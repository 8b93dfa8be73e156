/**
 * `lib/workers/budget-thread.ts`: a module loaded again (the development server reloading `lib/`, the test
 * runs loading the site's build for each file) makes a new thread, which takes over the idle worker the first
 * one started instead of starting another; errors come from the thread that ran the job.
 */
import { afterAll, describe, expect, it } from "vitest";
import { BudgetThread, type BudgetThreadOptions } from "../../lib/workers/budget-thread.ts";

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
