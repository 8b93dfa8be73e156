import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Account, AppwriteException, Client, Users } from "node-appwrite";
import { startEmulator } from "../../../embedded-appwrite/server.ts";
import type { EmulatorOptions, RunningEmulator } from "../../../embedded-appwrite/server.ts";
import { TEST_BACKEND } from "../../helpers/stack.ts";

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

/**
 * Start the emulator on a free port in a new temp directory. Passwords are hashed at the tests' low Argon2
 * cost (`TEST_BACKEND`: one Appwrite-cost hash is ~0.25 s of CPU, and these files make dozens) unless
 * `options.passwordHashing` says otherwise: tests/integration/emulator/users.test.ts checks Appwrite's own cost.
 */
export async function startTestEmulator(
  dataDir = mkdtempSync(join(tmpdir(), "emulator-")),
  options: Partial<EmulatorOptions> = {},
): Promise<TestEmulator> {
  const emulator = await startEmulator({
    dataDir,
    port: 0,
    passwordHashing: TEST_BACKEND.passwordHashing,
    ...options,
  });
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

/** A client with only the project set (no key, no session). */
export function projectClient(env: TestEmulator): Client {
  return new Client().setEndpoint(env.emulator.endpoint).setProject(env.emulator.projectId);
}

/**
 * Create a user with the API key and sign it in the SSR way (REFERENCE §5): the key calls
 * `createEmailPasswordSession`, and the returned `secret` goes into `setSession`.
 */
export async function signedInClient(
  env: TestEmulator,
  userId: string,
  password = "password-123",
): Promise<{ client: Client; secret: string; sessionId: string }> {
  const email = `${userId.toLowerCase()}@example.com`;
  await new Users(env.admin).create({ userId, email, password, name: userId });
  const session = await new Account(env.admin).createEmailPasswordSession({ email, password });
  return { client: projectClient(env).setSession(session.secret), secret: session.secret, sessionId: session.$id };
}
