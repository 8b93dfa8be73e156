/**
 * SECURITY C75: the official Appwrite CLI (npm `appwrite-cli` 12) cannot wipe the project with the committed
 * schema. `appwrite push tables --all --force` deletes every database the file has no `tablesDB` entry for
 * ("(deleted locally)"): with a file holding only `databases`/`collections` it deleted `main_db` and all its
 * content. `model/appwrite.json` now holds both forms, so `push tables` and `push collections`, twice each,
 * change nothing: the database, its tables and every row stay; and both `pull tables` and `pull collections`
 * write the committed file back, key order included.
 *
 * The server is the embedded one as `studio` and `npm run emulator` open it on a new data folder, and the CLI
 * gets the committed file unchanged (its `projectId` is the one that server takes): the README's steps with
 * nothing to guess. No network: the CLI talks to the loopback endpoint only.
 */
import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEmbeddedEmulator, type EmbeddedEmulator } from "../../embedded-appwrite/embedded.ts";
import { createAdminServices } from "../../lib/appwrite/client.ts";
import { listPages } from "../../lib/appwrite/paginate.ts";
import { applySchema, type AppwriteSchema } from "../../lib/appwrite/setup.ts";
import { push } from "../../lib/publish/push.ts";
import { DATABASE_ID, PROJECT_ID } from "../../model/content.ts";
import schema from "../../model/appwrite.json" with { type: "json" };
import { runAppwriteCli } from "../helpers/appwrite-cli.ts";
import { FIXTURE_CONTENT, ROOT, withLegacyDatabases, type TestServices } from "../helpers/stack.ts";

const SCHEMA_FILE = path.join(ROOT, "model/appwrite.json");

let dataDir: string;
let work: string;
let emulator: EmbeddedEmulator;
let services: TestServices;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "appwrite-cli-tables-data-"));
  work = await mkdtemp(path.join(tmpdir(), "appwrite-cli-tables-"));
  emulator = await openEmbeddedEmulator({ dataDir, port: 0 });
  services = withLegacyDatabases(createAdminServices(emulator));
  await applySchema(services, schema as AppwriteSchema);
});
afterAll(async () => {
  await emulator?.close();
  for (const dir of [dataDir, work]) if (dir) await rm(dir, { recursive: true, force: true });
});

const appwrite = (args: string[]) => runAppwriteCli(work, args);

/** Every table of `main_db` with its columns and indexes, and every row of each, by table id. */
async function snapshot(): Promise<Record<string, { table: unknown; rows: unknown[] }>> {
  const out: Record<string, { table: unknown; rows: unknown[] }> = {};
  const { tables } = await services.tablesDB.listTables({ databaseId: DATABASE_ID });
  for (const table of tables) {
    const rows: unknown[] = [];
    const pages = listPages((queries) =>
      services.tablesDB.listRows({ databaseId: DATABASE_ID, tableId: table.$id, queries }).then((page) => page.rows),
    );
    for await (const page of pages) rows.push(...page);
    out[table.$id] = { table, rows };
  }
  return out;
}

describe("the official CLI with the committed schema cannot wipe the project (C75)", () => {
  it("push tables and push collections, twice each, change and delete nothing; both pulls write the file back", async () => {
    expect(emulator.projectId, "the embedded server takes the committed file's project id").toBe(PROJECT_ID);
    expect(schema.projectId).toBe(PROJECT_ID);
    const pushed = await push(services, { contentDir: FIXTURE_CONTENT });
    expect(pushed.created).toBe(5);
    const before = await snapshot();
    expect(Object.keys(before)).toHaveLength(schema.collections.length);

    await copyFile(SCHEMA_FILE, path.join(work, "appwrite.json"));
    // No --project-id: the CLI takes the project from the file (README "The official Appwrite CLI").
    const client = await appwrite(["client", "--endpoint", emulator.endpoint, "--key", emulator.apiKey]);
    expect(client.code, client.output).toBe(0);

    for (const [command, noun] of [
      ["tables", "tables"],
      ["collections", "collections"],
      ["tables", "tables"],
      ["collections", "collections"],
    ] as const) {
      const result = await appwrite(["push", command, "--all", "--force"]);
      expect(result.code, `push ${command}: ${result.output}`).toBe(0);
      expect(result.output, `push ${command}`).toMatch(new RegExp(`Successfully pushed \\d+ ${noun}`));
      expect(result.output, `push ${command}`).not.toMatch(
        /\(deleted locally\)|Deleted |Updated |Created |applied changes|pending changes|recreating|deleting|changed from/,
      );
      expect((await services.tablesDB.get({ databaseId: DATABASE_ID })).$id, `push ${command}`).toBe(DATABASE_ID);
      expect(await snapshot(), `push ${command}: every table, column, index and row unchanged`).toEqual(before);
    }

    const committed = await readFile(SCHEMA_FILE, "utf8");
    for (const command of ["tables", "collections"]) {
      const pulled = await appwrite(["pull", command, "--all"]);
      expect(pulled.code, pulled.output).toBe(0);
      const written = JSON.parse(await readFile(path.join(work, "appwrite.json"), "utf8")) as unknown;
      // Key order included; only the indentation differs (the CLI indents with 4 spaces, Prettier with 2).
      expect(JSON.stringify(written, null, 2), `pull ${command}`).toBe(JSON.stringify(JSON.parse(committed), null, 2));
    }
  }, 120_000);
});
