/**
 * DOMPurify on its own thread (SECURITY C53, C70): the site's event loop never runs the sanitizer, so even a
 * body that is slow to sanitize delays only the requests that wait for it, never `/healthz` or other pages. One
 * worker (`lib/workers/budget-thread.ts`), started on first use, runs one job at a time; a job that exceeds its
 * budget terminates the worker (a new one starts for the next job) and is reported as too complex.
 *
 * The worker is an `eval` script that loads `jsdom` and `dompurify` with `createRequire`, so it needs no
 * file of its own in the production build; it receives the options of `purifyConfig()` unchanged.
 */
import { createRequire } from "node:module";
import { BudgetThread } from "../workers/budget-thread.ts";
import { purifyConfig } from "./sanitize.ts";

/** Budget of one job once the worker is running, in milliseconds. */
export const SANITIZE_TIMEOUT_MS = 5_000;
/** Jobs waiting beyond this many are refused at once ({@link SanitizerBusyError}). */
export const MAX_QUEUED_JOBS = 64;

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const load = require("node:module").createRequire(workerData.from);
const { JSDOM } = load("jsdom");
const createDOMPurify = load("dompurify");
const purify = (createDOMPurify.default || createDOMPurify)(new JSDOM("").window);
parentPort.on("message", (job) => {
  try {
    const output = job.input.map((html) => purify.sanitize(html, workerData.config));
    parentPort.postMessage({ id: job.id, output });
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

/** A job: bodies sanitized in a row (one for `sanitizeOffThread`, several for `sanitizeManyOffThread`). */
const thread = new BudgetThread<string[], string[]>({
  source: WORKER_SOURCE,
  workerData: () => ({ from: createRequire(import.meta.url).resolve("dompurify"), config: purifyConfig() }),
  heapMb: 256,
  startTimeoutMs: 20_000, // loading jsdom
  maxQueued: MAX_QUEUED_JOBS,
  timeoutError: (ms) => new SanitizeTimeoutError(ms || SANITIZE_TIMEOUT_MS),
  busyError: () => new SanitizerBusyError("the sanitizer is busy"),
  jobError: (message) => new Error(`sanitizer: ${message}`),
});

/**
 * Sanitizes `html` with DOMPurify (the options of `purifyConfig()`) on the sanitizer thread. Call it only
 * with a body that keeps `HTML_BOUNDS` (`body.ts` does).
 * @param timeoutMs budget of this job once it runs, in milliseconds (default {@link SANITIZE_TIMEOUT_MS}).
 * @returns the sanitized HTML, exactly what `sanitizeHtml(html)` returns.
 * @throws {SanitizeTimeoutError} past the budget or the worker's heap (the worker is restarted);
 * {SanitizerBusyError} when {@link MAX_QUEUED_JOBS} jobs are already waiting.
 */
export function sanitizeOffThread(html: string, timeoutMs = SANITIZE_TIMEOUT_MS): Promise<string> {
  return thread.run([html], timeoutMs).then(([output]) => output!);
}

/**
 * {@link sanitizeOffThread} for several bodies as one job, sanitized in a row: for a caller with many (`studio
 * push`), so the thread does not wait for this thread's event loop between bodies. The job's budget is
 * {@link SANITIZE_TIMEOUT_MS} for each body.
 * @returns the sanitized bodies, in the order given.
 * @throws as {@link sanitizeOffThread}.
 */
export function sanitizeManyOffThread(htmls: readonly string[]): Promise<string[]> {
  return thread.run([...htmls], SANITIZE_TIMEOUT_MS * htmls.length);
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

/**
 * Starts loading the sanitizer thread (jsdom) without keeping the process alive for it: for `studio push` once
 * it knows it has many bodies to write (`push-bulk.ts`), which reads files meanwhile.
 * @returns true once the thread is ready, false when it failed to start (never rejects).
 */
export function prestartSanitizerThread(): Promise<boolean> {
  return thread.prestart();
}

/** Stops the sanitizer thread (tests, shutdown); waiting jobs fail. The next job starts a new one. */
export function stopSanitizerThread(): Promise<void> {
  return thread.stop("the sanitizer thread was stopped");
}
