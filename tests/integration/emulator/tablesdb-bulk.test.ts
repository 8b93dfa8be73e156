import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as node from "node-appwrite";
import { rejection } from "./helpers.ts";
import { rawRealtime, until } from "./realtime-client.ts";
import { STOCK as T, startStock } from "./stock-table.ts";
import type { StockFixture } from "./stock-table.ts";

// Issue #19 item 1: bulk row operations through the unchanged node-appwrite, behind a recording proxy whose
// every response is validated against the 1.8.x OpenAPI models.
const { Permission, Query, Role } = node;

let fixture: StockFixture;
let env: StockFixture["env"];
let tables: node.TablesDB;
let databases: node.Databases;

beforeAll(async () => {
  fixture = await startStock();
  ({ env, tables, databases } = fixture);
});

afterAll(async () => {
  expect(await fixture.stop()).toEqual([]);
});

describe("bulk row operations (API key)", () => {
  it("creates, upserts, updates and deletes rows in bulk, seen through the Databases API too", async () => {
    const created = await tables.createRows({
      ...T,
      rows: [
        { $id: "a", name: "Apple", count: 1 },
        { $id: "b", name: "Banana", $permissions: [Permission.read(Role.users())] },
      ],
    });
    expect(created.total).toBe(2);
    expect(created.rows.map((r) => [r.$id, r.$tableId, r["count"]])).toEqual([
      ["a", "stock", 1],
      ["b", "stock", 0],
    ]);
    expect(created.rows[1]?.$permissions).toEqual(['read("users")']);

    const upserted = await tables.upsertRows({
      ...T,
      rows: [
        { $id: "a", count: 7 },
        { $id: "c", name: "Cherry" },
      ],
    });
    expect(upserted.rows.map((r) => [r.$id, r["name"], r["count"]])).toEqual([
      ["a", "Apple", 7],
      ["c", "Cherry", 0],
    ]);

    const updated = await tables.updateRows({ ...T, data: { count: 3 }, queries: [Query.notEqual("$id", "a")] });
    expect([updated.total, updated.rows.map((r) => r.$id)]).toEqual([2, ["b", "c"]]);
    const docs = await databases.listDocuments({ databaseId: T.databaseId, collectionId: T.tableId });
    expect(docs.documents.map((d) => [d.$id, d["count"]])).toEqual([
      ["a", 7],
      ["b", 3],
      ["c", 3],
    ]);

    const deleted = await tables.deleteRows({ ...T, queries: [Query.equal("count", 3)] });
    expect([deleted.total, deleted.rows.map((r) => r.$id)]).toEqual([2, ["b", "c"]]);
    expect((await tables.listRows(T)).rows.map((r) => r.$id)).toEqual(["a"]);
    const bulkDocs = await databases.createDocuments({
      databaseId: T.databaseId,
      collectionId: T.tableId,
      documents: [{ $id: "d", name: "Date" }],
    });
    expect(bulkDocs.documents[0]?.$collectionId).toBe("stock");
    await tables.deleteRows({ ...T, queries: [Query.equal("$id", "d")] });
  });

  it("is all or nothing: one bad row fails the call and writes none", async () => {
    const bad = await rejection(
      tables.createRows({
        ...T,
        rows: [
          { $id: "ok", name: "Fine" },
          { $id: "bad", nope: 1 },
        ],
      }),
    );
    expect([bad.code, bad.type]).toEqual([400, "row_invalid_structure"]);
    expect((await rejection(tables.getRow({ ...T, rowId: "ok" }))).type).toBe("row_not_found");
    const tooMany = await rejection(
      tables.createRows({ ...T, rows: Array.from({ length: 101 }, (_, i) => ({ name: `n${i}` })) }),
    );
    expect(tooMany.type).toBe("general_argument_invalid");
  });

  it("publishes one row event per row after the commit, and none for a bulk call that failed", async () => {
    const socket = rawRealtime(env.emulator.endpoint, `project=${env.emulator.projectId}&channels[]=rows`);
    await socket.next("connected");
    await rejection(
      tables.createRows({
        ...T,
        rows: [
          { $id: "e0", name: "Fine" },
          { $id: "e9", nope: 1 },
        ],
      }),
    );
    await tables.createRows({
      ...T,
      rows: [
        { $id: "e1", name: "One" },
        { $id: "e2", name: "Two" },
      ],
    });
    await until(() => (socket.messages.filter((m) => m.type === "event").length >= 2 ? true : undefined), "events");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const events = socket.messages.filter((m) => m.type === "event").map((m) => m.data?.["payload"]);
    expect(events).toMatchObject([
      { $id: "e1", $tableId: "stock" },
      { $id: "e2", $tableId: "stock" },
    ]);
    socket.close();
    await tables.deleteRows({ ...T, queries: [Query.startsWith("$id", "e")] });
  });

  it("answers 401 general_unauthorized_scope to a caller without a key", async () => {
    const response = await fetch(`${env.emulator.endpoint}/tablesdb/shop/tables/stock/rows`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-appwrite-project": env.emulator.projectId },
      body: JSON.stringify({ rows: [{ name: "Guest" }] }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { type: string }).type).toBe("general_unauthorized_scope");
  });
});
