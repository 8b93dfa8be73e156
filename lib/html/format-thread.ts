/**
 * Prettier on its own thread (SECURITY C70, issue #26 item 4): the admin's Format button (`POST /admin/format`)
 * formats a body of up to 200,000 characters, which took the site's event loop for seconds (4 parallel requests
 * from one user took `/healthz` to p50 841 ms, p90 2.5 s). Here it runs on one worker
 * (`lib/workers/budget-thread.ts`) within a budget of {@link FORMAT_TIMEOUT_MS}, one body at a time, at most
 * {@link MAX_QUEUED_FORMATS} waiting, and each user may have at most {@link FORMATS_PER_USER} of them, so one
 * user's loop of requests cannot keep the others' waiting.
 *
 * The worker is an `eval` script that loads `prettier` and `htmlparser2` with `createRequire` (no file of its own
 * in the build) and runs `formatHtml`'s two steps: `breakBlockContainers` (its source, which reads nothing but
 * its parameters), then Prettier.
 */
import { createRequire } from "node:module";
import { BudgetThread } from "../workers/budget-thread.ts";
import { BREAK_RULES, breakBlockContainers, PRETTIER_HTML_OPTIONS } from "./format.ts";

/** Budget of one body once the worker is running, in milliseconds. */
export const FORMAT_TIMEOUT_MS = 10_000;
/** Bodies waiting beyond this many are refused at once ({@link FormatterBusyError}). */
export const MAX_QUEUED_FORMATS = 16;
/** Bodies one user may have waiting or running at once; more are refused ({@link FormatterBusyError}). */
export const FORMATS_PER_USER = 2;

// `__name`: the helper tsx's keepNames adds calls to (scripts run with tsx), harmless elsewhere.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const load = require("node:module").createRequire(workerData.from);
const prettier = load("prettier");
const { parseDocument } = load("htmlparser2");
var __name = (target) => target;
const breakBlockContainers = (${breakBlockContainers.toString()});
parentPort.on("message", async (job) => {
  try {
    const html = breakBlockContainers(job.input, parseDocument, workerData.rules);
    parentPort.postMessage({ id: job.id, output: (await prettier.format(html, workerData.options)).trim() });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: String((error && error.message) || error) });
  }
});
parentPort.postMessage({ ready: true });
`;

/** Prettier did not finish within its budget (or ran out of memory): the body is too complex to format. */
export class FormatTimeoutError extends Error {
  override name = "FormatTimeoutError";
  constructor(readonly timeoutMs: number) {
    super(`formatting took longer than ${timeoutMs} ms`);
  }
}

/** Too many bodies are waiting (in all, or of this user); try again in a moment. */
export class FormatterBusyError extends Error {
  override name = "FormatterBusyError";
}

const thread = new BudgetThread<string, string>({
  source: WORKER_SOURCE,
  workerData: () => ({
    from: createRequire(import.meta.url).resolve("prettier"),
    options: PRETTIER_HTML_OPTIONS,
    rules: BREAK_RULES,
  }),
  heapMb: 256,
  startTimeoutMs: 20_000,
  maxQueued: MAX_QUEUED_FORMATS,
  timeoutError: (ms) => new FormatTimeoutError(ms || FORMAT_TIMEOUT_MS),
  busyError: () => new FormatterBusyError("the formatter is busy"),
  jobError: (message) => new SyntaxError(message),
});

const perUser = new Map<string, number>();

/**
 * `formatHtml(html)` on the formatter thread, for user `userId`. Call it only with a body that keeps
 * `HTML_BOUNDS` (the route checks them first).
 * @returns the formatted HTML, exactly what `formatHtml` returns.
 * @throws {SyntaxError} when Prettier cannot parse it (its message); {FormatTimeoutError} past
 * {@link FORMAT_TIMEOUT_MS} or the worker's heap; {FormatterBusyError} when the user already has
 * {@link FORMATS_PER_USER} bodies in the thread, or {@link MAX_QUEUED_FORMATS} are waiting.
 */
export async function formatHtmlOffThread(html: string, userId: string, timeoutMs = FORMAT_TIMEOUT_MS) {
  const mine = perUser.get(userId) ?? 0;
  if (mine >= FORMATS_PER_USER) throw new FormatterBusyError("this user's formatting is busy");
  perUser.set(userId, mine + 1);
  try {
    return await thread.run(html, timeoutMs);
  } finally {
    const left = (perUser.get(userId) ?? 1) - 1;
    if (left > 0) perUser.set(userId, left);
    else perUser.delete(userId);
  }
}

/** Stops the formatter thread (tests, shutdown); waiting bodies fail. The next body starts a new one. */
export function stopFormatterThread(): Promise<void> {
  return thread.stop("the formatter thread was stopped");
}
