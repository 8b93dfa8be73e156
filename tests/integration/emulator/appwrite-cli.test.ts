/**
 * Issue #3: the official Appwrite CLI (npm `appwrite-cli`) accepts `schemas/appwrite.json` and pushes it into
 * the emulator with an API key, and `studio setup` then finds nothing to change: both tools agree.
 */
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator/server.ts";
import { createAdminServices } from "../../../lib/appwrite/client.ts";
import { withLegacyDatabases } from "../../helpers/stack.ts";
import { applySchema, type AppwriteSchema } from "../../../lib/appwrite/setup.ts";
import schema from "../../../schemas/appwrite.json" with { type: "json" };
import { ROOT } from "../../helpers/fixtures.ts";
import { runAppwriteCli } from "../../helpers/appwrite-cli.ts";

let emulator: RunningEmulator;
let dataDir: string;
let work: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "appwrite-cli-data-"));
  work = await mkdtemp(path.join(tmpdir(), "appwrite-cli-"));
  emulator = await startEmulator({ dataDir, port: 0 });
});
afterAll(async () => {
  await emulator.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

/** The official CLI in `work`. */
const appwrite = (args: string[]) => runAppwriteCli(work, args);

describe("the official Appwrite CLI against the emulator", () => {
  it("pushes the collections and the bucket of schemas/appwrite.json, and studio setup agrees", async () => {
    await copyFile(path.join(ROOT, "schemas/appwrite.json"), path.join(work, "appwrite.json"));
    const config = JSON.parse(await readFile(path.join(work, "appwrite.json"), "utf8")) as { projectId: string };
    config.projectId = emulator.projectId;
    await writeFile(path.join(work, "appwrite.json"), JSON.stringify(config));

    const client = await appwrite([
      "client",
      "--endpoint",
      emulator.endpoint,
      "--project-id",
      emulator.projectId,
      "--key",
      emulator.apiKey,
    ]);
    expect(client.code, client.output).toBe(0);
    const collections = await appwrite(["push", "collections", "--all", "--force"]);
    expect(collections.code, collections.output).toBe(0);
    expect(collections.output).toContain(`Successfully pushed ${schema.collections.length} collections`);
    const buckets = await appwrite(["push", "buckets", "--all", "--force"]);
    expect(buckets.code, buckets.output).toBe(0);

    const services = withLegacyDatabases(createAdminServices(emulator));
    const ventures = await services.databases.getCollection({ databaseId: "main_db", collectionId: "ventures" });
    expect(ventures.documentSecurity).toBe(true);
    expect(ventures.$permissions).toEqual(['create("users")']);
    expect(await applySchema(services, schema as AppwriteSchema)).toEqual([]);
  });
});
