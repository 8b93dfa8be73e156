/**
 * The emulator on its own thread (issue #8): `npm start` runs the site and the embedded Appwrite-compatible
 * server in one process, and on one event loop they would take turns on one core; on a worker thread the
 * server's SQLite and JSON work runs beside the site's rendering. The API is `startEmulator`'s.
 */
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "./server.ts";

type ToWorker = { type: "close" };
type FromWorker =
  { type: "ready"; endpoint: string; projectId: string; apiKey: string } | { type: "failed"; message: string };

const MARKER = "studio-emulator-thread";

export interface ThreadOptions {
  /** Called when the thread dies after it started (the site can no longer reach its data). */
  onCrash?: (error: Error) => void;
}

/**
 * Starts the emulator with `options` on a worker thread and resolves when it listens.
 * @throws {Error} with the emulator's own message when it cannot start (e.g. the port is taken).
 */
export function startEmulatorThread(options: EmulatorOptions, thread: ThreadOptions = {}): Promise<RunningEmulator> {
  const worker = new Worker(new URL("./thread-worker.mjs", import.meta.url), {
    workerData: { [MARKER]: true, options },
  });
  let closing = false;
  return new Promise<RunningEmulator>((resolve, reject) => {
    let started = false;
    worker.on("message", (message: FromWorker) => {
      if (message.type === "failed") reject(new Error(message.message));
      if (message.type !== "ready") return;
      started = true;
      resolve({
        endpoint: message.endpoint,
        projectId: message.projectId,
        apiKey: message.apiKey,
        close: async () => {
          closing = true;
          const exited = new Promise<void>((done) => worker.once("exit", () => done()));
          worker.postMessage({ type: "close" } satisfies ToWorker);
          await exited;
        },
      });
    });
    worker.on("error", (error) => {
      if (!started) reject(error);
      else if (!closing) thread.onCrash?.(error);
    });
    worker.on("exit", (code) => {
      if (!started) reject(new Error(`the emulator thread exited (${code}) before it started`));
      else if (!closing) thread.onCrash?.(new Error(`the emulator thread exited with code ${code}`));
    });
  });
}

/** The worker's side: start, report, close on request, then let the thread end. */
async function runWorker(options: EmulatorOptions): Promise<void> {
  const port = parentPort!;
  let emulator: RunningEmulator;
  try {
    emulator = await startEmulator(options);
  } catch (error) {
    port.postMessage({
      type: "failed",
      message: error instanceof Error ? error.message : String(error),
    } satisfies FromWorker);
    port.close();
    return;
  }
  port.on("message", (message: ToWorker) => {
    if (message.type !== "close") return;
    void emulator.close().then(() => port.close()); // nothing left open: the thread ends, the parent sees "exit"
  });
  port.postMessage({
    type: "ready",
    endpoint: emulator.endpoint,
    projectId: emulator.projectId,
    apiKey: emulator.apiKey,
  } satisfies FromWorker);
}

if (!isMainThread && (workerData as Record<string, unknown> | null)?.[MARKER]) {
  await runWorker((workerData as { options: EmulatorOptions }).options);
}
