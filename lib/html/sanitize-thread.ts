/**
 * DOMPurify on its own thread (SECURITY C53): the site's event loop never runs the sanitizer, so even a body
 * that is slow to sanitize delays only the requests that wait for it, never `/healthz` or other pages. One
 * `worker_threads` worker, started on first use, runs one job at a time; a job that exceeds its budget
 * terminates the worker (a new one starts for the next job) and is reported as too complex.
 *
 * The worker is an `eval` script that loads `jsdom` and `dompurify` with `createRequire`, so it needs no
 * file of its own in the production build; it receives the options of `purifyConfig()` unchanged.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { purifyConfig } from "./sanitize.ts";

/** Budget of one job once the worker is running, in milliseconds. */
export const SANITIZE_TIMEOUT_MS = 5_000;
/** Budget for starting the worker (loading jsdom), in milliseconds. */
const START_TIMEOUT_MS = 20_000;
/** Jobs waiting beyond this many are refused at once ({@link SanitizerBusyError}). */
export const MAX_QUEUED_JOBS = 64;
/** Heap of the worker, in MB: a body that needs more fails like a timeout. */
const WORKER_HEAP_MB = 256;

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const load = require("node:module").createRequire(workerData.from);
const { JSDOM } = load("jsdom");
const createDOMPurify = load("dompurify");
const purify = (createDOMPurify.default || createDOMPurify)(new JSDOM("").window);
parentPort.on("message", (job) => {
  try {
    parentPort.postMessage({ id: job.id, html: purify.sanitize(job.html, workerData.config) });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: String((error && error.message) || error) });
  }
});
parentPort.postMessage({ ready: true });
`;

/** The sanitizer did not finish `html` within its budget (or ran out of memory): the body is too complex. */
export class SanitizeTimeoutError extends Error {
  override name = "SanitizeTimeoutError";
  constructor(readonly timeoutMs: number) {
    super(`sanitizing took longer than ${timeoutMs} ms`);
  }
}

/** Too many jobs are already waiting; try again later. */
export class SanitizerBusyError extends Error {
  override name = "SanitizerBusyError";
}

interface Job {
  id: number;
  html: string;
  timeoutMs: number;
  resolve: (html: string) => void;
  reject: (error: Error) => void;
}

let worker: Worker | null = null;
let ready = false;
let current: Job | null = null;
let timer: NodeJS.Timeout | null = null;
const queue: Job[] = [];
let nextId = 1;

function stopWorker(): void {
  const old = worker;
  worker = null;
  ready = false;
  if (timer) clearTimeout(timer);
  timer = null;
  if (old) {
    old.removeAllListeners();
    old.on("error", () => {});
    void old.terminate();
  }
}

function fail(error: Error): void {
  const job = current;
  const started = ready;
  current = null;
  stopWorker();
  job?.reject(error);
  // A worker that never started fails every waiting job instead of being restarted in a loop.
  if (!started) for (const waiting of queue.splice(0)) waiting.reject(error);
  pump();
}

function startWorker(): Worker {
  const w = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { from: createRequire(import.meta.url).resolve("dompurify"), config: purifyConfig() },
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    stdout: false,
    stderr: false,
  });
  w.on("message", (message: { ready?: true; id?: number; html?: string; error?: string }) => {
    if (message.ready) {
      ready = true;
      pump();
      return;
    }
    const job = current;
    if (!job || job.id !== message.id) return;
    current = null;
    if (timer) clearTimeout(timer);
    timer = null;
    if (message.error !== undefined) job.reject(new Error(`sanitizer: ${message.error}`));
    else job.resolve(message.html ?? "");
    pump();
  });
  w.on("error", (error) => {
    const outOfMemory = ready && /memory/i.test(error.message);
    fail(outOfMemory ? new SanitizeTimeoutError(current?.timeoutMs ?? SANITIZE_TIMEOUT_MS) : error);
  });
  w.on("exit", () => {
    if (worker === w) fail(new SanitizeTimeoutError(current?.timeoutMs ?? SANITIZE_TIMEOUT_MS));
  });
  return w;
}

function pump(): void {
  if (current) return;
  if (queue.length === 0) {
    worker?.unref();
    return;
  }
  if (!worker) {
    worker = startWorker();
    timer = setTimeout(() => fail(new Error("the sanitizer thread did not start")), START_TIMEOUT_MS);
    timer.unref();
  }
  worker.ref();
  if (!ready) return;
  if (timer) clearTimeout(timer);
  const job = queue.shift()!;
  current = job;
  timer = setTimeout(() => fail(new SanitizeTimeoutError(job.timeoutMs)), job.timeoutMs);
  worker.postMessage({ id: job.id, html: job.html });
}

/**
 * Sanitizes `html` with DOMPurify (the options of `purifyConfig()`) on the sanitizer thread. Call it only
 * with a body that keeps `HTML_BOUNDS` (`body.ts` does).
 * @param timeoutMs budget of this job once it runs, in milliseconds (default {@link SANITIZE_TIMEOUT_MS}).
 * @returns the sanitized HTML, exactly what `sanitizeHtml(html)` returns.
 * @throws {SanitizeTimeoutError} past the budget or the worker's heap (the worker is restarted);
 * {SanitizerBusyError} when {@link MAX_QUEUED_JOBS} jobs are already waiting.
 */
export function sanitizeOffThread(html: string, timeoutMs = SANITIZE_TIMEOUT_MS): Promise<string> {
  if (queue.length >= MAX_QUEUED_JOBS) return Promise.reject(new SanitizerBusyError("the sanitizer is busy"));
  return new Promise((resolve, reject) => {
    queue.push({ id: nextId++, html, timeoutMs, resolve, reject });
    pump();
  });
}

/**
 * Starts the sanitizer thread ahead of the first body, for a server about to serve: loading jsdom takes 1–6 s,
 * which the first editor's preview or the first render of a new body would otherwise wait for. Resolves when
 * the thread has answered once; never rejects (a thread that cannot start fails the first real job instead).
 */
export function warmSanitizerThread(): Promise<void> {
  return sanitizeOffThread("").then(
    () => undefined,
    () => undefined,
  );
}

/** Stops the sanitizer thread (tests, shutdown); waiting jobs fail. The next job starts a new one. */
export async function stopSanitizerThread(): Promise<void> {
  for (const job of queue.splice(0)) job.reject(new Error("the sanitizer thread was stopped"));
  const job = current;
  current = null;
  job?.reject(new Error("the sanitizer thread was stopped"));
  const w = worker;
  stopWorker();
  await w?.terminate();
}
