/**
 * The official Appwrite CLI (npm `appwrite-cli`) against the emulator's TablesDB and health endpoints:
 * `push tables` of model/appwrite.json rewritten in the TablesDB form (`tablesDB`, `tables`,
 * `rowSecurity`, `columns`), row commands, and `health get-*`.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Client, TablesDB } from "node-appwrite";
import schema from "../../../model/appwrite.json" with { type: "json" };
import { officialCliBench, schemaTables } from "../../helpers/appwrite-cli.ts";

const cli = officialCliBench("tablesdb-cli");
const appwrite = cli.appwrite;

describe("the official Appwrite CLI against TablesDB and health", () => {
  it("pushes the schema as tables, writes and lists rows, and reads health", async () => {
    const config = {
      projectId: cli.emulator.projectId,
      projectName: schema.projectName,
      tablesDB: schema.databases,
      tables: schemaTables(),
    };
    await writeFile(path.join(cli.work, "appwrite.json"), JSON.stringify(config));
    await cli.login();
    const pushed = await appwrite(["push", "tables", "--all", "--force"]);
    expect(pushed.code, pushed.output).toBe(0);
    expect(pushed.output).toContain(`Successfully pushed ${schema.collections.length} tables`);

    const tables = new TablesDB(
      new Client().setEndpoint(cli.emulator.endpoint).setProject(cli.emulator.projectId).setKey(cli.emulator.apiKey),
    );
    for (const collection of schema.collections) {
      const table = await tables.getTable({ databaseId: collection.databaseId, tableId: collection.$id });
      expect(table.rowSecurity).toBe(collection.documentSecurity);
      expect(table.columns.map((c) => c.key)).toEqual(collection.attributes.map((a) => a.key));
      expect(table.indexes.map((i) => i.key)).toEqual(collection.indexes.map((i) => i.key));
    }

    const db = await appwrite(["tables-db", "create", "--database-id", "cli", "--name", "CLI"]);
    expect(db.output).toContain("type : tablesdb");
    await appwrite(["tables-db", "create-table", "--database-id", "cli", "--table-id", "t", "--name", "T"]);
    const column = await appwrite([
      "tables-db",
      "create-float-column",
      "--database-id",
      "cli",
      "--table-id",
      "t",
      "--key",
      "f",
      "--required",
      "false",
    ]);
    expect(column.output).toContain("type : double");
    const row = await appwrite([
      "tables-db",
      "create-row",
      "--database-id",
      "cli",
      "--table-id",
      "t",
      "--row-id",
      "r1",
      "--data",
      '{"f":1.5}',
    ]);
    expect(row.code, row.output).toBe(0);
    expect(row.output).toContain("$tableId : t");
    const rows = await appwrite(["tables-db", "list-rows", "--database-id", "cli", "--table-id", "t"]);
    expect(rows.output).toContain("total : 1");

    const health = await appwrite(["health", "get-db"]);
    expect(health.code, health.output).toBe(0);
    expect(health.output).toMatch(/database\s+│\s+\d+\s+│\s+pass/);
    const time = await appwrite(["health", "get-time"]);
    expect(time.output).toContain("diff : 0");
    const queue = await appwrite(["health", "get-queue-mails"]);
    expect(queue.output).toContain("size : 0");
  }, 120_000); // the CLI creates every table, column and index one request at a time
});
