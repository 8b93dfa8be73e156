/**
 * A real stack for tests: the embedded server on a free loopback port with a temporary DATA_DIR, the schema
 * applied, and (optionally) content pushed and the site served from the production build.
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { EMBEDDED_SESSION_SECONDS } from "../../embedded-appwrite/embedded.ts";
import { startEmulator, type RunningEmulator } from "../../embedded-appwrite/server.ts";
import { Databases } from "node-appwrite";
import { inject } from "vitest";
import { createAdminServices, type AdminServices } from "../../lib/appwrite/client.ts";
import { applySchema, type AppwriteSchema } from "../../lib/appwrite/setup.ts";
import schema from "../../model/appwrite.json" with { type: "json" };

export { FIXTURE_CONTENT, ROOT, copyFixtureContent } from "./fixtures.ts";

/** The environment a child process (`studio`, the site) needs to use `target` as its Appwrite. */
export function appwriteEnv(target: Pick<RunningEmulator, "endpoint" | "projectId" | "apiKey">): NodeJS.ProcessEnv {
  return {
    ...process.env,
    APPWRITE_ENDPOINT: target.endpoint,
    APPWRITE_PROJECT_ID: target.projectId,
    APPWRITE_API_KEY: target.apiKey,
  };
}

/**
 * The product's API-key services plus the legacy `Databases` service on the same client. The product calls
 * TablesDB only (issue #19 item 5); tests read and write through the deprecated Databases API as an older
 * client would, which the embedded server keeps serving over the same store, so each such test also checks
 * that what one API writes the other reads.
 */
export type TestServices = AdminServices & { databases: Databases };

/** `services` with the legacy `databases` service added (see `TestServices`). */
export function withLegacyDatabases(services: AdminServices): TestServices {
  return { ...services, databases: new Databases(services.client) };
}

export interface Backend {
  emulator: RunningEmulator;
  services: TestServices;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Makes `dataDir` a data folder of the embedded server with `model/appwrite.json` applied (started, schema
 * applied over HTTP, stopped), for `startBackend()` to copy.
 */
export async function makeSchemaTemplate(dataDir: string): Promise<void> {
  const emulator = await startEmulator({ dataDir, port: 0, sessionDuration: EMBEDDED_SESSION_SECONDS });
  try {
    await applySchema(createAdminServices(emulator), schema as AppwriteSchema);
  } finally {
    await emulator.close();
  }
}

let ownTemplate: Promise<string> | undefined;

/** The schema template: the run's (tests/setup/backend-template.ts), else one made once for this process. */
function schemaTemplate(): Promise<string> {
  let provided: string | undefined;
  try {
    provided = inject("backendTemplate");
  } catch {
    provided = undefined; // not under vitest's runner
  }
  if (provided) return Promise.resolve(provided);
  ownTemplate ??= mkdtemp(path.join(tmpdir(), "studio-template-")).then(async (parent) => {
    const dir = path.join(parent, "data");
    await makeSchemaTemplate(dir);
    return dir;
  });
  return ownTemplate;
}

/**
 * Starts the emulator in a fresh temporary folder as the product does (sessions of 7 days), with
 * `model/appwrite.json` applied: the folder starts as a copy of the run's schema template (the same store,
 * project ID and key as applying the schema would give, without its hundred-odd HTTP calls a backend).
 */
export async function startBackend(): Promise<Backend> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "studio-test-"));
  await cp(await schemaTemplate(), dataDir, { recursive: true });
  const emulator = await startEmulator({ dataDir, port: 0, sessionDuration: EMBEDDED_SESSION_SECONDS });
  const services = withLegacyDatabases(
    createAdminServices({ endpoint: emulator.endpoint, projectId: emulator.projectId, apiKey: emulator.apiKey }),
  );
  return {
    emulator,
    services,
    dataDir,
    close: async () => {
      await emulator.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
