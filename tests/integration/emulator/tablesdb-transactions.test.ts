import Database from "better-sqlite3";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as node from "node-appwrite";
import * as web from "appwrite";
import { rejection, signedInClient } from "./helpers.ts";
import { rawRealtime } from "./realtime-client.ts";
import { STOCK as T, startStock } from "./stock-table.ts";
import type { StockFixture } from "./stock-table.ts";

// Issue #19 item 1: transactions through the unchanged node-appwrite and web SDK, behind a recording proxy
// whose every response is validated against the 1.8.x OpenAPI models.
const { Query } = node;

let fixture: StockFixture;
let env: StockFixture["env"];
let tables: node.TablesDB;
let databases: node.Databases;

beforeAll(async () => {
  fixture = await startStock();
  ({ env, tables, databases } = fixture);
  await tables.createRow({ ...T, rowId: "a", data: { name: "Apple", count: 7 } });
});

afterAll(async () => {
  expect(await fixture.stop()).toEqual([]);
});

describe("transactions", () => {
  it("stages row writes, reads them inside the transaction only, and commits them together", async () => {
    const tx = await tables.createTransaction();
    expect(tx).toMatchObject({ status: "pending", operations: 0 });
    const ttl = (Date.parse(tx.expiresAt) - Date.parse(tx.$createdAt)) / 1000;
    expect(ttl).toBe(300);
    const staged = await tables.createRow({ ...T, rowId: "t1", data: { name: "Staged" }, transactionId: tx.$id });
    expect(staged).toMatchObject({ $id: "t1", $tableId: "stock", name: "Staged" });
    expect((await rejection(tables.getRow({ ...T, rowId: "t1" }))).type).toBe("row_not_found");
    expect((await tables.getRow({ ...T, rowId: "t1", transactionId: tx.$id })).name).toBe("Staged");

    const withOps = await tables.createOperations({
      transactionId: tx.$id,
      operations: [
        { action: "update", databaseId: "shop", tableId: "stock", rowId: "a", data: { name: "Apricot" } },
        { action: "increment", databaseId: "shop", tableId: "stock", rowId: "a", data: { column: "count", value: 2 } },
        { action: "create", databaseId: "shop", tableId: "stock", rowId: "t2", data: { name: "Two" } },
      ],
    });
    expect(withOps.operations).toBe(4);
    const inside = await tables.listRows({ ...T, transactionId: tx.$id });
    expect(inside.rows.map((r) => [r.$id, r["name"], r["count"]])).toEqual([
      ["a", "Apricot", 9],
      ["t1", "Staged", 0],
      ["t2", "Two", 0],
    ]);
    expect((await tables.listRows(T)).total).toBe(1);

    const committed = await tables.updateTransaction({ transactionId: tx.$id, commit: true });
    expect(committed).toMatchObject({ status: "committed", operations: 4 });
    const after = await tables.listRows(T);
    expect(after.rows.map((r) => [r.$id, r["name"], r["count"]])).toEqual(
      inside.rows.map((r) => [r.$id, r["name"], r["count"]]),
    );
    const again = await rejection(tables.updateTransaction({ transactionId: tx.$id, commit: true }));
    expect([again.code, again.type]).toEqual([400, "transaction_not_ready"]);
  });

  it("rolls back: nothing staged is written", async () => {
    const tx = await tables.createTransaction({ ttl: 60 });
    await tables.upsertRow({ ...T, rowId: "r1", data: { name: "Never" }, transactionId: tx.$id });
    await tables.deleteRow({ ...T, rowId: "a", transactionId: tx.$id });
    expect((await tables.listRows({ ...T, transactionId: tx.$id })).rows.map((r) => r.$id)).toEqual(["t1", "t2", "r1"]);
    expect((await tables.updateTransaction({ transactionId: tx.$id, rollback: true })).status).toBe("failed");
    expect((await tables.listRows(T)).rows.map((r) => r.$id)).toEqual(["a", "t1", "t2"]);
    const listed = await tables.listTransactions({ queries: [Query.equal("status", "failed")] });
    expect(listed.transactions.map((t) => t.$id)).toEqual([tx.$id]);
    await tables.deleteTransaction({ transactionId: tx.$id });
    expect((await rejection(tables.getTransaction({ transactionId: tx.$id }))).type).toBe("transaction_not_found");
  });

  it("fails the commit as a whole on a conflict: a row changed after its operation was staged", async () => {
    const tx = await tables.createTransaction();
    await tables.createRow({ ...T, rowId: "t3", data: { name: "Three" }, transactionId: tx.$id });
    await tables.updateRow({ ...T, rowId: "t1", data: { count: 5 }, transactionId: tx.$id });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await tables.updateRow({ ...T, rowId: "t1", data: { name: "Changed meanwhile" } });
    const conflict = await rejection(tables.updateTransaction({ transactionId: tx.$id, commit: true }));
    expect([conflict.code, conflict.type]).toEqual([409, "transaction_conflict"]);
    expect((await tables.getTransaction({ transactionId: tx.$id })).status).toBe("failed");
    expect((await rejection(tables.getRow({ ...T, rowId: "t3" }))).type).toBe("row_not_found");
    expect((await tables.getRow({ ...T, rowId: "t1" }))["count"]).toBe(0);

    const tx2 = await tables.createTransaction();
    await tables.createRow({ ...T, rowId: "t4", data: { name: "Four", sku: "S1" }, transactionId: tx2.$id });
    await tables.createRow({ ...T, rowId: "t5", data: { name: "Five", sku: "S2" }, transactionId: tx2.$id });
    await tables.createRow({ ...T, rowId: "other", data: { name: "Other", sku: "S2" } });
    const clash = await rejection(tables.updateTransaction({ transactionId: tx2.$id, commit: true }));
    expect([clash.code, clash.type]).toEqual([409, "transaction_conflict"]);
    expect((await rejection(tables.getRow({ ...T, rowId: "t4" }))).type).toBe("row_not_found");
  });

  it("checks what is staged: errors at once, the operation limit, the TTL range and unknown IDs", async () => {
    const tx = await tables.createTransaction();
    const missing = await rejection(
      tables.updateRow({ ...T, rowId: "nope", data: { name: "x" }, transactionId: tx.$id }),
    );
    expect(missing.type).toBe("row_not_found");
    const invalid = await rejection(tables.createRow({ ...T, rowId: "x", data: { nope: 1 }, transactionId: tx.$id }));
    expect(invalid.type).toBe("row_invalid_structure");
    expect((await tables.getTransaction({ transactionId: tx.$id })).operations).toBe(0);
    const ops = Array.from({ length: 101 }, (_, i) => ({
      action: "create",
      databaseId: "shop",
      tableId: "stock",
      rowId: `many${i}`,
      data: { name: "n" },
    }));
    const limit = await rejection(tables.createOperations({ transactionId: tx.$id, operations: ops }));
    expect([limit.code, limit.type]).toEqual([400, "transaction_limit_exceeded"]);
    const noRow = await rejection(
      tables.createOperations({
        transactionId: tx.$id,
        operations: [{ action: "update", databaseId: "shop", tableId: "stock", data: { name: "x" } }],
      }),
    );
    expect([noRow.code, noRow.type, noRow.message]).toEqual([
      400,
      "general_bad_request",
      "Document ID is required for update operations",
    ]);
    const badAction = await rejection(
      tables.createOperations({
        transactionId: tx.$id,
        operations: [{ action: "merge", databaseId: "shop", tableId: "stock", rowId: "a" }],
      }),
    );
    expect(badAction.type).toBe("general_argument_invalid");
    const empty = await rejection(tables.createOperations({ transactionId: tx.$id, operations: [] }));
    expect([empty.type, empty.message]).toEqual(["general_bad_request", "Operations array cannot be empty"]);
    const ttl = await rejection(tables.createTransaction({ ttl: 30 }));
    expect(ttl.type).toBe("general_argument_invalid");
    const unknown = await rejection(tables.getTransaction({ transactionId: "nope" }));
    expect([unknown.code, unknown.type]).toEqual([404, "transaction_not_found"]);
    const legacy = await databases.getTransaction({ transactionId: tx.$id });
    expect(legacy.$id).toBe(tx.$id);
  });
});

describe("an expired transaction", () => {
  it("answers 410 transaction_expired to staging and to a commit, and writes nothing", async () => {
    const tx = await tables.createTransaction({ ttl: 60 });
    await tables.createRow({ ...T, rowId: "late", data: { name: "Late" }, transactionId: tx.$id });
    // Sixty seconds are the shortest TTL: age the stored transaction instead of waiting for it.
    const db = new Database(join(env.dataDir, "emulator.sqlite"));
    try {
      db.prepare("UPDATE transactions SET expires_at = ? WHERE id = ?").run("2000-01-01T00:00:00.000+00:00", tx.$id);
    } finally {
      db.close();
    }
    const staged = await rejection(
      tables.createRow({ ...T, rowId: "later", data: { name: "Later" }, transactionId: tx.$id }),
    );
    expect([staged.code, staged.type]).toEqual([410, "transaction_expired"]);
    const commit = await rejection(tables.updateTransaction({ transactionId: tx.$id, commit: true }));
    expect([commit.code, commit.type]).toEqual([410, "transaction_expired"]);
    expect((await rejection(tables.getRow({ ...T, rowId: "late" }))).type).toBe("row_not_found");
  });
});

describe("transactions through the web SDK", () => {
  it("lets a signed-in user stage and commit rows, and hides the transaction from other users", async () => {
    const owner = await signedInClient(env, "buyer");
    const other = await signedInClient(env, "other");
    const webClient = (secret: string) =>
      new web.Client().setEndpoint(fixture.endpoint).setProject(env.emulator.projectId).setSession(secret);
    const mine = new web.TablesDB(webClient(owner.secret));
    const theirs = new web.TablesDB(webClient(other.secret));
    const socket = rawRealtime(env.emulator.endpoint, `project=${env.emulator.projectId}&channels[]=rows`);
    await socket.next("connected");
    const tx = await mine.createTransaction();
    await mine.createRow({ ...T, rowId: "w1", data: { name: "Web" }, transactionId: tx.$id });
    const hidden = await theirs.getTransaction({ transactionId: tx.$id }).catch((e: unknown) => e);
    expect(hidden).toMatchObject({ code: 404, type: "transaction_not_found" });
    const bulk = await mine
      .createOperations({
        transactionId: tx.$id,
        operations: [{ action: "bulkDelete", databaseId: "shop", tableId: "stock", data: {} }],
      })
      .catch((e: unknown) => e);
    expect(bulk).toMatchObject({ code: 401, type: "user_unauthorized" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(
      socket.messages.filter((m) => m.type === "event"),
      "no event before the commit",
    ).toEqual([]);

    expect((await mine.updateTransaction({ transactionId: tx.$id, commit: true })).status).toBe("committed");
    const event = await socket.next("event");
    expect(event.data?.["payload"]).toMatchObject({ $id: "w1", $tableId: "stock" });
    socket.close();
    const row = await mine.getRow({ ...T, rowId: "w1" });
    expect(row.$permissions).toContain('update("user:buyer")');
  });
});
