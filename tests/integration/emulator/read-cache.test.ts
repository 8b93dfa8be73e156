/**
 * An API key's repeated document/row read is answered from the reply kept for the same request while the
 * database is unchanged (`services/read-cache.ts`, `Store.changeMark`; issue #33 item 4). What must hold: a
 * repeat runs no query, and no reply is ever stale: not after a write through either API, not after another
 * connection to the data folder committed (as a second process would), and a read through a transaction
 * (staged writes) neither sees a kept reply nor leaves one behind.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Query, TablesDB } from "node-appwrite";
import { findCollection, findDatabase } from "../../../embedded-appwrite/db/catalog.ts";
import { findDocument, updateDocument } from "../../../embedded-appwrite/db/documents.ts";
import { Store } from "../../../embedded-appwrite/db/store.ts";
import { startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";

let env: TestEmulator;
let tables: TablesDB;
const T = { databaseId: "kept", tableId: "notes" };
const rows = `/tablesdb/${T.databaseId}/tables/${T.tableId}/rows`;
const list = `${rows}?queries[0]=${encodeURIComponent(Query.orderAsc("rank"))}`;

beforeAll(async () => {
  env = await startTestEmulator();
  tables = new TablesDB(env.admin);
  await tables.create({ databaseId: T.databaseId, name: "Kept" });
  await tables.createTable({ ...T, name: "Notes" });
  await tables.createStringColumn({ ...T, key: "title", size: 100, required: true });
  await tables.createIntegerColumn({ ...T, key: "rank", required: false });
  await tables.createRow({ ...T, rowId: "a", data: { title: "A", rank: 1 } });
  await tables.createRow({ ...T, rowId: "b", data: { title: "B", rank: 2 } });
});

afterAll(async () => {
  vi.restoreAllMocks();
  await env.stop();
});

async function text(path: string): Promise<string> {
  const headers = { "X-Appwrite-Project": env.emulator.projectId, "X-Appwrite-Key": env.emulator.apiKey };
  const response = await fetch(`${env.emulator.endpoint}${path}`, { headers });
  expect(response.status, path).toBe(200);
  return response.text();
}

function titles(listText: string): string[] {
  return (JSON.parse(listText) as { rows: { title: string }[] }).rows.map((r) => r.title);
}

describe("kept read replies", () => {
  it("given a row read and a list, when both are repeated with no write in between, then the repeats run no query and answer the same bytes", async () => {
    const firstGet = await text(`${rows}/a`);
    const firstList = await text(list);
    const statements = vi.spyOn(Store.prototype, "stmt");
    try {
      expect(await text(`${rows}/a`)).toBe(firstGet);
      expect(await text(list)).toBe(firstList);
      expect(statements).not.toHaveBeenCalled();
    } finally {
      statements.mockRestore();
    }
  });

  it("given kept replies, when rows are updated, created and deleted through the API, then each repeat answers the change", async () => {
    expect(titles(await text(list))).toEqual(["A", "B"]);
    await tables.updateRow({ ...T, rowId: "a", data: { title: "A2" } });
    expect(JSON.parse(await text(`${rows}/a`))).toMatchObject({ title: "A2" });
    expect(titles(await text(list))).toEqual(["A2", "B"]);
    await tables.createRow({ ...T, rowId: "c", data: { title: "C", rank: 3 } });
    expect(titles(await text(list))).toEqual(["A2", "B", "C"]);
    await tables.deleteRow({ ...T, rowId: "c" });
    expect(titles(await text(list))).toEqual(["A2", "B"]);
  });

  it("given kept replies, when another connection to the data folder commits a change, then the repeats answer it", async () => {
    expect(JSON.parse(await text(`${rows}/b`))).toMatchObject({ title: "B" });
    expect(titles(await text(list))).toEqual(["A2", "B"]);
    const other = new Store(env.dataDir);
    try {
      const collection = findCollection(other, findDatabase(other, T.databaseId)!, T.tableId)!;
      const doc = findDocument(other, collection, "b")!;
      other.transaction(() =>
        updateDocument(other, collection, { ...doc, data: { ...doc.data, title: "B from elsewhere" } }),
      );
    } finally {
      other.close();
    }
    expect(JSON.parse(await text(`${rows}/b`))).toMatchObject({ title: "B from elsewhere" });
    expect(titles(await text(list))).toEqual(["A2", "B from elsewhere"]);
  });

  it("given a transaction with a staged row, when the table is read through it and then without it, then only the read through it sees the staged row", async () => {
    expect(titles(await text(list))).toEqual(["A2", "B from elsewhere"]);
    const tx = await tables.createTransaction();
    await tables.createRow({ ...T, rowId: "s", data: { title: "Staged", rank: 0 }, transactionId: tx.$id });
    const inside = await text(`${list}&transactionId=${tx.$id}`);
    expect(titles(inside)).toEqual(["Staged", "A2", "B from elsewhere"]);
    expect(titles(await text(list))).toEqual(["A2", "B from elsewhere"]);
    expect(titles(await text(`${list}&transactionId=${tx.$id}`))).toEqual(["Staged", "A2", "B from elsewhere"]);
    await tables.updateTransaction({ transactionId: tx.$id, rollback: true });
    expect(titles(await text(list))).toEqual(["A2", "B from elsewhere"]);
  });
});
