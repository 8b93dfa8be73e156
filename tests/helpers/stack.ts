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

import { ROOT } from "./fixtures.ts";

export { FIXTURE_CONTENT, ROOT, copyFixtureContent } from "./fixtures.ts";

/**
 * The embedded server's options of every test backend: the product's session length, and Argon2id at the
 * lowest cost RFC 9106 allows for one lane (8 KiB, one pass) instead of Appwrite's 64 MiB × 4 passes, so a
 * sign-up or sign-in costs about a millisecond instead of a fifth of a CPU-second (`EmulatorOptions.passwordHashing`,
 * docs/decisions/0022). Appwrite's own cost is kept, and checked, by the emulator's users tests
 * (tests/integration/emulator/users.test.ts) and every test that starts `studio` or the site as a process.
 */
export const TEST_BACKEND = {
  sessionDuration: EMBEDDED_SESSION_SECONDS,
  passwordHashing: { memoryCost: 8, timeCost: 1, parallelism: 1 },
} as const;

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
  const emulator = await startEmulator({ dataDir, port: 0, ...TEST_BACKEND });
  try {
    await applySchema(createAdminServices(emulator), schema as AppwriteSchema);
  } finally {
    await emulator.close();
  }
}

/** What a backend can start from: the schema applied, or also `content/` pushed (the site's stack). */
export type TemplateName = "backendTemplate" | "siteTemplate";

const ownTemplates = new Map<TemplateName, Promise<string>>();

/**
 * The data folder a backend starts as a copy of: the run's (made once by tests/setup/build-site.ts and
 * provided to every worker), else one made once for this process by `make`.
 */
export function template(name: TemplateName, make: (dataDir: string) => Promise<void>): Promise<string> {
  let provided: string | undefined;
  try {
    provided = inject(name);
  } catch {
    provided = undefined; // not under vitest's runner
  }
  if (provided) return Promise.resolve(provided);
  let made = ownTemplates.get(name);
  if (!made) {
    made = mkdtemp(path.join(tmpdir(), "studio-template-")).then(async (parent) => {
      const dir = path.join(parent, "data");
      await make(dir);
      return dir;
    });
    ownTemplates.set(name, made);
  }
  return made;
}

/**
 * Starts the emulator in a fresh temporary folder as the product does (sessions of 7 days), with
 * `model/appwrite.json` applied: the folder starts as a copy of a template (`backendTemplate`: the same store,
 * project ID and key as applying the schema would give, without its hundred-odd HTTP calls a backend).
 */
export async function startBackend(from: TemplateName = "backendTemplate"): Promise<Backend> {
  const source =
    from === "backendTemplate" ? await template(from, makeSchemaTemplate) : await template(from, makeSiteTemplate);
  const dataDir = await mkdtemp(path.join(tmpdir(), "studio-test-"));
  await cp(source, dataDir, { recursive: true });
  const emulator = await startEmulator({ dataDir, port: 0, ...TEST_BACKEND });
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

/** Makes `dataDir` a data folder with the schema applied and `content/` pushed (the site's stack starts so). */
export async function makeSiteTemplate(dataDir: string): Promise<void> {
  const emulator = await startEmulator({ dataDir, port: 0, ...TEST_BACKEND });
  try {
    const services = createAdminServices(emulator);
    await applySchema(services, schema as AppwriteSchema);
    const { push } = await import("../../lib/publish/push.ts");
    const result = await push(services, { contentDir: path.join(ROOT, "content") });
    if (result.failed > 0) throw new Error(`pushing content/ failed for ${result.failed} item(s)`);
  } finally {
    await emulator.close();
  }
}
