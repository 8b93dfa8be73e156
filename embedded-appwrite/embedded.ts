/**
 * The embedded default (ARCHITECTURE decision 1) as the launcher and `studio` use it: one emulator per
 * `DATA_DIR`. The process that serves a data folder records itself in `DATA_DIR/emulator.lock`; a second
 * process (e.g. `studio push` while `npm start` runs) talks to that one over HTTP instead of opening the same
 * database, and starts its own only when no live one answers.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createPrivateDir } from "./private-data.ts";
import { startEmulator, type RunningEmulator } from "./server.ts";
import { startEmulatorThread } from "./thread.ts";

export interface EmbeddedEmulator extends RunningEmulator {
  /** True when another process serves this data folder and `close()` leaves it running. */
  shared: boolean;
}

/**
 * The project ID the embedded server keeps for a new data folder when `APPWRITE_PROJECT_ID` is unset: the
 * `projectId` of `model/appwrite.json` (`PROJECT_ID` in model/content.ts; a test checks they agree), so
 * the official Appwrite CLI reaches this server with the committed file as it is (SECURITY C75).
 */
export const EMBEDDED_PROJECT_ID = "venture-studio";

/** Session length of the embedded server: 7 days, the site's sign-in lifetime. */
export const EMBEDDED_SESSION_SECONDS = 7 * 24 * 60 * 60;

interface LockFile {
  pid: number;
  endpoint: string;
  projectId: string;
  apiKey: string;
  /**
   * Started by a command for its own run (a `studio` command), stopped when it ends: never borrowed, since it
   * would be stopped under the borrower (issue #34). `npm start`'s server is not temporary.
   */
  temporary?: boolean;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function answers(lock: LockFile): Promise<boolean> {
  try {
    const response = await fetch(`${lock.endpoint}/health/version`, {
      headers: { "X-Appwrite-Project": lock.projectId, "X-Appwrite-Key": lock.apiKey },
      signal: AbortSignal.timeout(2000),
    });
    return response.ok;
  } catch {
    return false;
  }
}

function readLock(file: string): LockFile | null {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as LockFile;
  } catch {
    return null;
  }
}

/**
 * Connects to the emulator serving `dataDir`, or starts one on `port` (loopback) and records it.
 * `projectId`/`apiKey` are passed to a newly started emulator (when unset it keeps its own in `dataDir`).
 * @throws {Error} when the port is taken by something else.
 */
export async function openEmbeddedEmulator(options: {
  dataDir: string;
  port: number;
  projectId?: string;
  apiKey?: string;
  /** Session length in seconds (default 7 days, `EMULATOR_SESSION_DURATION` overrides it in the server). */
  sessionDuration?: number;
  /** Run the server on a worker thread (`npm start`: beside the site, on the other core). */
  thread?: boolean;
  /** With `thread`: called if the thread dies while in use. */
  onCrash?: (error: Error) => void;
  /**
   * This process's server lives only for its run (a `studio` command): others wait for it rather than borrow
   * it, and this process waits for another's temporary server to end before starting its own.
   */
  temporary?: boolean;
  /** Called once when waiting for another process's temporary server, with that process's id. */
  onWait?: (pid: number) => void;
  /** How long to wait for another process's temporary server, in ms (default 10 minutes). */
  waitMs?: number;
}): Promise<EmbeddedEmulator> {
  const lockFile = path.join(options.dataDir, "emulator.lock");
  let existing = readLock(lockFile);
  const deadline = Date.now() + (options.waitMs ?? 10 * 60_000);
  let waited = false;
  // Another command's temporary server: wait until it ends (its process exits), then start our own.
  while (existing?.temporary && existing.pid !== process.pid && isAlive(existing.pid)) {
    if (Date.now() > deadline) {
      throw Object.assign(
        new Error(
          `another command (pid ${existing.pid}) still uses the embedded server of ${options.dataDir}; ` +
            "wait for it to end, or run `npm start` so that commands share its server",
        ),
        { code: "EMBEDDED_BUSY" },
      );
    }
    if (!waited) options.onWait?.(existing.pid);
    waited = true;
    await new Promise((resolve) => setTimeout(resolve, 200));
    existing = readLock(lockFile);
  }
  if (
    existing &&
    !existing.temporary &&
    existing.pid !== process.pid &&
    isAlive(existing.pid) &&
    (await answers(existing))
  ) {
    return {
      endpoint: existing.endpoint,
      projectId: existing.projectId,
      apiKey: existing.apiKey,
      shared: true,
      close: async () => {},
    };
  }

  const settings = {
    dataDir: options.dataDir,
    port: options.port,
    projectId: options.projectId,
    newProjectId: EMBEDDED_PROJECT_ID,
    apiKey: options.apiKey,
    // The product signs users in for 7 days (the site's cookie); Appwrite's default is a year (SECURITY C3).
    sessionDuration:
      options.sessionDuration ?? (process.env["EMULATOR_SESSION_DURATION"] ? undefined : EMBEDDED_SESSION_SECONDS),
  };
  let emulator: RunningEmulator;
  try {
    emulator = options.thread
      ? await startEmulatorThread(settings, { onCrash: options.onCrash })
      : await startEmulator(settings);
  } catch (error) {
    // Two commands started at once: the other one took the port and recorded its server; wait for it instead.
    const now = readLock(lockFile);
    const raced = (error as NodeJS.ErrnoException).code === "EADDRINUSE" && now && now.pid !== process.pid;
    if (raced && now.temporary && isAlive(now.pid) && options.temporary) return openEmbeddedEmulator(options);
    throw error;
  }
  createPrivateDir(options.dataDir);
  const lock: LockFile = {
    pid: process.pid,
    endpoint: emulator.endpoint,
    projectId: emulator.projectId,
    apiKey: emulator.apiKey,
    ...(options.temporary ? { temporary: true } : {}),
  };
  writeFileSync(lockFile, JSON.stringify(lock), { mode: 0o600 });
  return {
    ...emulator,
    shared: false,
    close: async () => {
      if (readLock(lockFile)?.pid === process.pid) rmSync(lockFile, { force: true });
      await emulator.close();
    },
  };
}

/** The configuration names `connectAppwrite` reads (ARCHITECTURE "Configuration"). */
export interface AppwriteSettings {
  appwriteEndpoint: string | undefined;
  projectId: string | undefined;
  apiKey: string | undefined;
  dataDir: string;
  emulatorPort: number;
}

export interface ConnectOptions {
  /** Run an embedded server on a worker thread (see `openEmbeddedEmulator`). */
  thread?: boolean;
  /** With `thread`: called if the thread dies while in use. */
  onCrash?: (error: Error) => void;
  /** A server for this process's run only (see `openEmbeddedEmulator`'s `temporary`). */
  temporary?: boolean;
  /** Called once when waiting for another process's temporary server. */
  onWait?: (pid: number) => void;
}

export interface AppwriteConnection {
  endpoint: string;
  projectId: string;
  apiKey: string;
  /** The embedded server when `APPWRITE_ENDPOINT` is unset, else null. */
  embedded: EmbeddedEmulator | null;
  /** Stops the embedded server if this process started it. */
  close(): Promise<void>;
}

/**
 * Where the product's Appwrite is: the configured endpoint, or (when `APPWRITE_ENDPOINT` is unset) the
 * embedded server for `dataDir`, shared with a process already serving it.
 * @throws {Error} when a configured endpoint lacks its project or key, or the emulator port is taken.
 */
export async function connectAppwrite(
  settings: AppwriteSettings,
  options: ConnectOptions = {},
): Promise<AppwriteConnection> {
  if (settings.appwriteEndpoint) {
    if (!settings.projectId || !settings.apiKey) {
      throw new Error("APPWRITE_ENDPOINT needs APPWRITE_PROJECT_ID and APPWRITE_API_KEY.");
    }
    return {
      endpoint: settings.appwriteEndpoint,
      projectId: settings.projectId,
      apiKey: settings.apiKey,
      embedded: null,
      close: async () => {},
    };
  }
  const embedded = await openEmbeddedEmulator({
    dataDir: path.resolve(settings.dataDir),
    port: settings.emulatorPort,
    projectId: settings.projectId,
    apiKey: settings.apiKey,
    ...options,
  });
  return { ...embedded, embedded, close: () => embedded.close() };
}
