/**
 * What every command gets (STYLE 6): the configuration, an Appwrite target (a configured Appwrite or the
 * embedded server for `DATA_DIR`), whether output is interactive, and where the sync lock lives.
 * Read lazily, never at import time.
 */
import path from "node:path";
import { createAdminServices, type AdminServices } from "../lib/appwrite/client.ts";
import { loadConfig, loadDotEnv, type AppConfig } from "../lib/config.ts";
import { DEFAULT_EXPORT_DIR, EMBEDDED_EXPORT_DIR } from "../lib/publish/export.ts";
import { lockPathFor } from "../lib/publish/lock.ts";

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

/** Builds the context for a command; `json` forces machine-readable output. */
export async function createContext(options: { json?: boolean }): Promise<CommandContext> {
  loadDotEnv();
  const config = loadConfig();
  // The embedded server (the whole SQLite server) is loaded only by commands that talk to Appwrite.
  const { connectAppwrite } = await import("../emulator/embedded.ts");
  const appwrite = await connectAppwrite(config);
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
