/**
 * What every command gets (STYLE 6): the configuration, an Appwrite target (a configured Appwrite or the
 * embedded server for `DATA_DIR`), and how to print. Read lazily, never at import time.
 */
import { connectAppwrite } from "../emulator/embedded.ts";
import { createAdminServices, type AdminServices } from "../lib/appwrite/client.ts";
import { loadConfig, loadDotEnv, type AppConfig } from "../lib/config.ts";

export interface CommandContext {
  config: AppConfig;
  services: AdminServices;
  /** True when output goes to a terminal and neither `--json` nor CI asked for plain output. */
  interactive: boolean;
  /** Releases what the context opened (an embedded server it started). */
  close(): Promise<void>;
}

/** Builds the context for a command; `json` forces machine-readable output. */
export async function createContext(options: { json?: boolean }): Promise<CommandContext> {
  loadDotEnv();
  const config = loadConfig();
  const appwrite = await connectAppwrite(config);
  const services = createAdminServices(appwrite);
  const interactive = Boolean(process.stdout.isTTY) && !options.json && !process.env.CI;
  return { config, services, interactive, close: () => appwrite.close() };
}
