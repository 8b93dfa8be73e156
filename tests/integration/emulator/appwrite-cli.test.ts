/**
 * Issue #3: the official Appwrite CLI (npm `appwrite-cli`) accepts `model/appwrite.json` and pushes it into
 * the emulator with an API key, and `studio setup` then finds nothing to change: both tools agree.
 */
import { copyFile, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createAdminServices } from "../../../lib/appwrite/client.ts";
import { withLegacyDatabases } from "../../helpers/stack.ts";
import { applySchema, type AppwriteSchema } from "../../../lib/appwrite/setup.ts";
import schema from "../../../model/appwrite.json" with { type: "json" };
import { ROOT } from "../../helpers/fixtures.ts";
import { officialCliBench } from "../../helpers/appwrite-cli.ts";

const cli = officialCliBench("appwrite-cli");
const appwrite = cli.appwrite;

describe("the official Appwrite CLI against the emulator", () => {
  it("pushes the collections and the bucket of model/appwrite.json, and studio setup agrees", async () => {
    await copyFile(path.join(ROOT, "model/appwrite.json"), path.join(cli.work, "appwrite.json"));
    const config = JSON.parse(await readFile(path.join(cli.work, "appwrite.json"), "utf8")) as { projectId: string };
    config.projectId = cli.emulator.projectId;
    await writeFile(path.join(cli.work, "appwrite.json"), JSON.stringify(config));

    await cli.login();
    const collections = await appwrite(["push", "collections", "--all", "--force"]);
    expect(collections.code, collections.output).toBe(0);
    expect(collections.output).toContain(`Successfully pushed ${schema.collections.length} collections`);
    const buckets = await appwrite(["push", "buckets", "--all", "--force"]);
    expect(buckets.code, buckets.output).toBe(0);

    const services = withLegacyDatabases(createAdminServices(cli.emulator));
    const ventures = await services.databases.getCollection({ databaseId: "main_db", collectionId: "ventures" });
    expect(ventures.documentSecurity).toBe(true);
    expect(ventures.$permissions).toEqual(['create("users")']);
    expect(await applySchema(services, schema as AppwriteSchema)).toEqual([]);
  });
});
