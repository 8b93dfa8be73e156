import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppwriteException, Client } from "node-appwrite";
import { startEmulator } from "../../../emulator/server.ts";
import type { RunningEmulator } from "../../../emulator/server.ts";

/** A running emulator on a fresh temp data directory, plus SDK clients for it. */
export interface TestEmulator {
  emulator: RunningEmulator;
  dataDir: string;
  /** Client with the project's API key (permission checks off). */
  admin: Client;
  /** Client with the project but no key (roles `any`, `guests`). */
  guest: Client;
  stop(): Promise<void>;
}

/** Start the emulator on a free port in a new temp directory. */
export async function startTestEmulator(dataDir = mkdtempSync(join(tmpdir(), "emulator-"))): Promise<TestEmulator> {
  const emulator = await startEmulator({ dataDir, port: 0 });
  const admin = new Client().setEndpoint(emulator.endpoint).setProject(emulator.projectId).setKey(emulator.apiKey);
  const guest = new Client().setEndpoint(emulator.endpoint).setProject(emulator.projectId);
  return {
    emulator,
    dataDir,
    admin,
    guest,
    stop: async () => {
      await emulator.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Await `promise`, expecting an `AppwriteException`; returns it. */
export async function rejection<T>(promise: Promise<T>): Promise<AppwriteException> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppwriteException) return error;
    throw error;
  }
  throw new Error("expected the call to fail with an AppwriteException");
}
