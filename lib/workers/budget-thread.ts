/**
 * One `worker_threads` worker that runs jobs one at a time, each within a time budget (SECURITY C53, C70): the
 * site's event loop hands heavy parsing of user input (DOMPurify on jsdom, Prettier) to it, so a body that is
 * slow to process delays only the requests that wait for it, never `/healthz` or other pages. The worker starts
 * on first use; a job that exceeds its budget (or the worker's heap) terminates the worker, a new one starts for
 * the next job, and the job fails with the thread's timeout error. Jobs waiting beyond a bound are refused at
 * once with its busy error.
 *
 * The worker is an `eval` script (so it needs no file of its own in the production build): it receives
 * `workerData`, posts `{ ready: true }` once loaded, then answers each `{ id, input }` with `{ id, output }` or
 * `{ id, error }` (a message).
 */
import { Worker } from "node:worker_threads";

export interface BudgetThreadOptions {
  /** The worker's script (CommonJS, run with `eval: true`), as described in the module comment. */
  source: string;
  /** Its `workerData`, computed when a worker starts. */
  workerData: () => unknown;
  /** Heap of the worker, in MB: a job that needs more fails like a timeout. */
  heapMb: number;
  /** Budget for starting the worker (loading its libraries), in ms. */
  startTimeoutMs: number;
  /** Jobs waiting beyond this many are refused at once. */
  maxQueued: number;
  /** The error of a job past its budget (ms) or the heap. */
  timeoutError: (timeoutMs: number) => Error;
  /** The error of a job refused because `maxQueued` are waiting. */
  busyError: () => Error;
  /** The error of a job the worker answered with an error message (a parse error, say). */
  jobError: (message: string) => Error;
}

interface Job<I, O> {
  id: number;
  input: I;
  timeoutMs: number;
  resolve: (output: O) => void;
  reject: (error: Error) => void;
}

type Message<O> = { ready?: true; id?: number; output?: O; error?: string };

/** The thread described in the module comment; `I` and `O` are a job's input and output (structured-cloneable). */
export class BudgetThread<I, O> {
  private worker: Worker | null = null;
  private ready = false;
  private current: Job<I, O> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly queue: Job<I, O>[] = [];
  private nextId = 1;

  constructor(private readonly options: BudgetThreadOptions) {}

  /**
   * Runs one job on the thread.
   * @param timeoutMs budget of this job once it runs, in ms.
   * @returns the worker's output.
   * @throws the options' `timeoutError` past the budget or the heap (the worker is restarted), `busyError` when
   * `maxQueued` jobs are already waiting, `jobError` for an error the worker reported.
   */
  run(input: I, timeoutMs: number): Promise<O> {
    if (this.queue.length >= this.options.maxQueued) return Promise.reject(this.options.busyError());
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, input, timeoutMs, resolve, reject });
      this.pump();
    });
  }

  /** Stops the thread (tests, shutdown); waiting jobs fail with `reason`. The next job starts a new one. */
  async stop(reason = "the thread was stopped"): Promise<void> {
    for (const job of this.queue.splice(0)) job.reject(new Error(reason));
    const job = this.current;
    this.current = null;
    job?.reject(new Error(reason));
    const w = this.worker;
    this.stopWorker();
    await w?.terminate();
  }

  private stopWorker(): void {
    const old = this.worker;
    this.worker = null;
    this.ready = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (old) {
      old.removeAllListeners();
      old.on("error", () => {});
      void old.terminate();
    }
  }

  private fail(error: Error): void {
    const job = this.current;
    const started = this.ready;
    this.current = null;
    this.stopWorker();
    job?.reject(error);
    // A worker that never started fails every waiting job instead of being restarted in a loop.
    if (!started) for (const waiting of this.queue.splice(0)) waiting.reject(error);
    this.pump();
  }

  private startWorker(): Worker {
    const budgetError = () => this.options.timeoutError(this.current?.timeoutMs ?? 0);
    const w = new Worker(this.options.source, {
      eval: true,
      workerData: this.options.workerData(),
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb },
      stdout: false,
      stderr: false,
    });
    w.on("message", (message: Message<O>) => {
      if (message.ready) {
        this.ready = true;
        this.pump();
        return;
      }
      const job = this.current;
      if (!job || job.id !== message.id) return;
      this.current = null;
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      if (message.error !== undefined) job.reject(this.options.jobError(message.error));
      else job.resolve(message.output as O);
      this.pump();
    });
    w.on("error", (error) => {
      const outOfMemory = this.ready && /memory/i.test(error.message);
      this.fail(outOfMemory ? budgetError() : error);
    });
    w.on("exit", () => {
      if (this.worker === w) this.fail(budgetError());
    });
    return w;
  }

  private pump(): void {
    if (this.current) return;
    if (this.queue.length === 0) {
      this.worker?.unref();
      return;
    }
    if (!this.worker) {
      this.worker = this.startWorker();
      this.timer = setTimeout(
        () => this.fail(new Error("the worker thread did not start")),
        this.options.startTimeoutMs,
      );
      this.timer.unref();
    }
    this.worker.ref();
    if (!this.ready) return;
    if (this.timer) clearTimeout(this.timer);
    const job = this.queue.shift()!;
    this.current = job;
    this.timer = setTimeout(() => this.fail(this.options.timeoutError(job.timeoutMs)), job.timeoutMs);
    this.worker.postMessage({ id: job.id, input: job.input });
  }
}
