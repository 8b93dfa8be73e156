import { existsSync } from "node:fs";
import path from "node:path";
import { openEmbeddedEmulator } from "./embedded.ts";

/**
 * `npm run emulator`: start the Appwrite-compatible server from the environment (also read
 * from `.env` when present): `EMULATOR_PORT` (default 8787), `DATA_DIR` (default `.data`),
 * `APPWRITE_PROJECT_ID`, `APPWRITE_API_KEY` (ARCHITECTURE "Configuration"). Registers itself in
 * `DATA_DIR/emulator.lock`, so `studio` uses it; when another process already serves `DATA_DIR`, says so
 * and exits. Stops cleanly on SIGINT/SIGTERM.
 */
async function main(): Promise<void> {
  if (existsSync(".env")) process.loadEnvFile(".env");
  const port = Number(process.env["EMULATOR_PORT"] ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`EMULATOR_PORT must be a port number, got "${process.env["EMULATOR_PORT"]}".`);
  }
  const emulator = await openEmbeddedEmulator({
    dataDir: path.resolve(process.env["DATA_DIR"] || ".data"),
    port,
    projectId: process.env["APPWRITE_PROJECT_ID"] || undefined,
    apiKey: process.env["APPWRITE_API_KEY"] || undefined,
  });
  if (emulator.shared) {
    console.log(`Another process already serves this data folder at ${emulator.endpoint}; nothing to start.`);
    return;
  }
  console.log("Appwrite-compatible emulator ready");
  console.log(`  endpoint:   ${emulator.endpoint}`);
  console.log(`  project id: ${emulator.projectId}`);
  console.log(`  API key:    ${emulator.apiKey}`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Received ${signal}, stopping the emulator…`);
    emulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
