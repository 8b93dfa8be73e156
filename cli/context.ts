/**
 * What every command gets (STYLE 6): the configuration, an Appwrite target (a configured Appwrite or the
 * embedded server for `DATA_DIR`), and how to print. Read lazily, never at import time.
 */
import path from "node:path";
import { openEmbeddedEmulator, type EmbeddedEmulator } from "../emulator/embedded.ts";
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
  let emulator: EmbeddedEmulator | undefined;
  let services: AdminServices;
  if (config.appwriteEndpoint) {
    services = createAdminServices({
      endpoint: config.appwriteEndpoint,
      projectId: config.projectId!,
      apiKey: config.apiKey!,
    });
  } else {
    emulator = await openEmbeddedEmulator({
      dataDir: path.resolve(config.dataDir),
      port: config.emulatorPort,
      projectId: config.projectId,
      apiKey: config.apiKey,
    });
    services = createAdminServices({
      endpoint: emulator.endpoint,
      projectId: emulator.projectId,
      apiKey: emulator.apiKey,
    });
  }
  const interactive = Boolean(process.stdout.isTTY) && !options.json && !process.env.CI;
  return { config, services, interactive, close: async () => emulator?.close() };
}
