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
 *
 * One running worker per script and data in a process: when the module that made a thread is loaded again (the
 * development server reloading `lib/`, a test run loading the site's build for each file), the new thread takes
 * over the idle worker the old one started, instead of starting another (loading jsdom costs ~1.6 CPU-seconds)
 * and leaving the old one idle for the life of the process.
 */
import { createHash } from "node:crypto";
import { serialize } from "node:v8";
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

/** What a thread offers the process's other threads of the same script and data: its worker, when idle. */
interface WorkerHolder {
  /** Gives up its worker (ready, no job running or waiting) and forgets it; null when it has none to give. */
  release(): Worker | null;
}
/** The thread holding the running worker, per script and data (`workerKey`), for the whole process. */
const HOLDERS = Symbol.for("venture-studio.budget-thread.holders");
const holders: Map<string, WorkerHolder> = ((globalThis as { [HOLDERS]?: Map<string, WorkerHolder> })[HOLDERS] ??=
  new Map());

/** The thread described in the module comment; `I` and `O` are a job's input and output (structured-cloneable). */
export class BudgetThread<I, O> implements WorkerHolder {
  private worker: Worker | null = null;
  private ready = false;
  private key: string | null = null;
  /** Removes this thread's listeners from its worker (`listen`). */
  private unlisten: () => void = () => {};
  private current: Job<I, O> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly queue: Job<I, O>[] = [];
  private nextId = 1;
  /** Resolves `prestart`'s promises: true when the worker is ready, false when it failed to start. */
  private starting: ((ready: boolean) => void)[] = [];

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

  /**
   * Starts the worker ahead of its first job, without holding the process open (it stays unref'd until a job
   * comes): for a caller that will probably need it soon and has other work meanwhile (`studio push` with many
   * bodies to write loads jsdom on the other core while it reads files). No-op when a worker is running.
   * @returns true once the worker is ready, false when it failed to start.
   */
  prestart(): Promise<boolean> {
    if (!this.worker) this.startWorker().unref();
    if (this.ready) return Promise.resolve(true);
    return new Promise((resolve) => this.starting.push(resolve));
  }

  /** Stops the thread (tests, shutdown); waiting jobs fail with `reason`. The next job starts a new one. */
  async stop(reason = "the thread was stopped"): Promise<void> {
    for (const job of this.queue.splice(0)) job.reject(new Error(reason));
    const job = this.current;
    this.current = null;
    job?.reject(new Error(reason));
    for (const resolve of this.starting.splice(0)) resolve(false);
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
    if (!started) {
      for (const waiting of this.queue.splice(0)) waiting.reject(error);
      for (const resolve of this.starting.splice(0)) resolve(false);
    }
    this.pump();
  }

  /** @inheritdoc */
  release(): Worker | null {
    if (!this.worker || !this.ready || this.current || this.queue.length) return null;
    const w = this.worker;
    this.unlisten();
    this.worker = null;
    this.ready = false;
    return w;
  }

  /**
   * Its script and data (serialized as a worker receives it: regular expressions and maps included): threads
   * with the same key run the same worker.
   */
  private workerKey(): string {
    this.key ??= createHash("sha256")
      .update(this.options.source)
      .update("\0")
      .update(serialize(this.options.workerData()))
      .digest("hex");
    return this.key;
  }

  /**
   * A worker for this thread: the idle one another thread of the same key started (ready at once), else a new
   * one; this thread holds it from now on.
   */
  private takeOrStartWorker(): Worker {
    const key = this.workerKey();
    const holder = holders.get(key);
    holders.set(key, this);
    const taken = holder && holder !== this ? holder.release() : null;
    if (taken) {
      this.ready = true;
      this.listen(taken);
      return taken;
    }
    const w = new Worker(this.options.source, {
      eval: true,
      workerData: this.options.workerData(),
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb },
      stdout: false,
      stderr: false,
    });
    this.listen(w);
    return w;
  }

  /** Handles `w`'s messages, errors and exit as this thread's worker. */
  private listen(w: Worker): void {
    const budgetError = () => this.options.timeoutError(this.current?.timeoutMs ?? 0);
    const onMessage = (message: Message<O>) => {
      if (message.ready) {
        this.ready = true;
        // The start's deadline; a job that is waiting gets its own in `pump`.
        if (this.timer) clearTimeout(this.timer);
        this.timer = null;
        for (const resolve of this.starting.splice(0)) resolve(true);
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
    };
    const onError = (error: Error) => {
      const outOfMemory = this.ready && /memory/i.test(error.message);
      this.fail(outOfMemory ? budgetError() : error);
    };
    const onExit = () => {
      if (this.worker === w) this.fail(budgetError());
    };
    w.on("message", onMessage).on("error", onError).on("exit", onExit);
    // Only these: `removeAllListeners` would also remove the hooks with which Node starts the worker's port.
    this.unlisten = () => w.off("message", onMessage).off("error", onError).off("exit", onExit);
  }

  private pump(): void {
    if (this.current) return;
    if (this.queue.length === 0) {
      this.worker?.unref();
      return;
    }
    const worker = this.worker ?? this.startWorker();
    worker.ref();
    if (!this.ready) return;
    if (this.timer) clearTimeout(this.timer);
    const job = this.queue.shift()!;
    this.current = job;
    this.timer = setTimeout(() => this.fail(this.options.timeoutError(job.timeoutMs)), job.timeoutMs);
    worker.postMessage({ id: job.id, input: job.input });
  }

  /** Takes or starts this thread's worker (`takeOrStartWorker`); a new one must say it is ready in time. */
  private startWorker(): Worker {
    const worker = (this.worker = this.takeOrStartWorker());
    if (!this.ready) {
      this.timer = setTimeout(
        () => this.fail(new Error("the worker thread did not start")),
        this.options.startTimeoutMs,
      );
      this.timer.unref();
    }
    return worker;
  }
}
