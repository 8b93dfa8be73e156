/**
 * What every command gets (STYLE 6): the configuration, an Appwrite target (a configured Appwrite or the
 * embedded server for `DATA_DIR`), whether output is interactive, and where the sync lock lives.
 * Read lazily, never at import time.
 */
import path from "node:path";
import { createAdminServices, type AdminServices } from "../lib/appwrite/client.ts";
import { loadConfig, loadDotEnv, type AppConfig } from "../lib/config.ts";
import { AbortError, EXIT } from "../lib/errors.ts";
import { DEFAULT_EXPORT_DIR, EMBEDDED_EXPORT_DIR } from "../lib/publish/export.ts";
import { lockPathFor } from "../lib/publish/lock.ts";
import { findProjectRoot, resolveDataDir } from "./project-root.ts";

export interface CommandContext {
  config: AppConfig;
  services: AdminServices;
  /** True when this process talks to the embedded server. */
  embedded: boolean;
  /** True when output goes to a terminal and neither `--json` nor CI asked for plain output. */
  interactive: boolean;
  /** The sync lock for `contentDir` against this Appwrite. */
  lockPath(contentDir: string): string;
  /**
   * Absolute folder for exports written before deletions (docs/decisions/0005): `override` (`--export-dir`)
   * when given, else `DATA_DIR/exports` for the embedded server, else `.studio/exports` (git-ignored).
   */
  exportDir(override?: string): string;
  /** Releases what the context opened (an embedded server it started). */
  close(): Promise<void>;
}

/**
 * True when prompts and live views may be used: a terminal that reports its width (one reporting 0 columns
 * would get Ink's layout one character per line), no `--json`, not CI.
 */
export function isInteractive(json: boolean | undefined): boolean {
  const width = process.stdout.columns ?? 0;
  return Boolean(process.stdout.isTTY && process.stdin.isTTY) && width > 0 && !json && !process.env.CI;
}

/** Error codes of a data folder that cannot be created, written or opened. */
const DATA_DIR_CODES = new Set(["EACCES", "EPERM", "ENOTDIR", "EEXIST", "EROFS", "ENOSPC", "ENOENT", "EISDIR"]);

/**
 * What keeps the embedded server from starting, as a configuration error (exit 3) saying what to change
 * (issue #26 item 10; before, exit 70 "a bug in studio"): `EMULATOR_PORT` taken by another program or not
 * ours to bind, or a `DATA_DIR` that cannot be created, written or opened (a file, read-only, no permission,
 * SQLite cannot open it). Other errors are returned as they are.
 */
export function embeddedServerError(error: unknown, config: Pick<AppConfig, "emulatorPort" | "dataDir">): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "EADDRINUSE" || (code === "EACCES" && (error as { syscall?: unknown }).syscall === "listen")) {
    const why = code === "EADDRINUSE" ? "is in use by another program" : "may not be opened by this user";
    return new AbortError(`EMULATOR_PORT ${config.emulatorPort} ${why}, so the embedded server cannot start.`, {
      exitCode: EXIT.backend,
      nextSteps: `Set EMULATOR_PORT to a free port (e.g. EMULATOR_PORT=${config.emulatorPort === 8788 ? 8789 : 8788}), or stop the program using ${config.emulatorPort}.`,
      cause: error,
    });
  }
  const sqlite = typeof code === "string" && /^SQLITE_(CANTOPEN|READONLY|PERM|IOERR)/.test(code);
  if ((typeof code === "string" && DATA_DIR_CODES.has(code)) || sqlite) {
    const dataDir = path.resolve(config.dataDir);
    const why = error instanceof Error ? error.message : String(error);
    return new AbortError(`DATA_DIR ${dataDir} cannot be used by the embedded server (${why}).`, {
      exitCode: EXIT.backend,
      nextSteps: "Set DATA_DIR to a folder this user can create and write (default .data), or fix its permissions.",
      cause: error,
    });
  }
  return error;
}

/**
 * Builds the context for a command; `json` forces machine-readable output; `cwd` is where it runs (default
 * the current folder). Without `APPWRITE_ENDPOINT`, a relative `DATA_DIR` is taken from the project folder
 * (`resolveDataDir`), and the embedded server started here is temporary: another command waits for it to end
 * rather than borrow it (it would be stopped under it; issue #34).
 * @throws {AbortError} (exit 3) outside the project folder with a relative `DATA_DIR`, or when the embedded
 *   server cannot start (`embeddedServerError`).
 */
export async function createContext(options: { json?: boolean; cwd?: string }): Promise<CommandContext> {
  const cwd = options.cwd ?? process.cwd();
  const root = findProjectRoot(cwd);
  loadDotEnv(root ? path.join(root, ".env") : ".env");
  const loaded = loadConfig();
  const config = loaded.appwriteEndpoint ? loaded : { ...loaded, dataDir: resolveDataDir(loaded.dataDir, cwd) };
  // The embedded server (the whole SQLite server) is loaded only by commands that talk to Appwrite.
  const { connectAppwrite } = await import("../embedded-appwrite/embedded.ts");
  const onWait = (pid: number) =>
    console.error(
      `Another studio command (pid ${pid}) is using the embedded server of ${config.dataDir}; waiting for it to finish ` +
        "(run `npm start` to let commands share one server).",
    );
  const appwrite = await connectAppwrite(config, { temporary: true, onWait }).catch((error: unknown) => {
    throw config.appwriteEndpoint ? error : embeddedServerError(error, config);
  });
  const embedded = appwrite.embedded !== null;
  return {
    config,
    services: createAdminServices(appwrite),
    embedded,
    interactive: isInteractive(options.json),
    lockPath: (contentDir) => lockPathFor({ embedded, contentDir, dataDir: path.resolve(config.dataDir) }),
    exportDir: (override) =>
      path.resolve(override ?? (embedded ? path.join(config.dataDir, EMBEDDED_EXPORT_DIR) : DEFAULT_EXPORT_DIR)),
    close: () => appwrite.close(),
  };
}
