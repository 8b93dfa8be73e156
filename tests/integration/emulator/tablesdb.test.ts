import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as node from "node-appwrite";
import * as web from "appwrite";
import { rejection, startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";
import { SpecValidator, startRecorder } from "./openapi.ts";
import { rawRealtime, until } from "./realtime-client.ts";

// TablesDB through the unchanged node-appwrite (and web SDK for rows), behind a recording proxy
// whose every response is validated against the 1.8.x OpenAPI models; plus the shared store
// (rows are documents, tables collections) and the health endpoints.
const SPECS = [
  "/work/shared/appwrite/openapi/open-api3-1.8.x-server.json",
  "/work/shared/appwrite/openapi/open-api3-1.8.x-client.json",
];
const { ID, Permission, Query, Role } = node;

let env: TestEmulator;
let recorder: Awaited<ReturnType<typeof startRecorder>>;
let admin: node.Client;
let tables: node.TablesDB;
let databases: node.Databases;
const validator = new SpecValidator(SPECS);

beforeAll(async () => {
  env = await startTestEmulator();
  recorder = await startRecorder(env.emulator.endpoint);
  admin = new node.Client()
    .setEndpoint(recorder.endpoint)
    .setProject(env.emulator.projectId)
    .setKey(env.emulator.apiKey);
  tables = new node.TablesDB(admin);
  databases = new node.Databases(admin);
  await tables.create({ databaseId: "shop", name: "Shop" });
  await tables.createTable({
    databaseId: "shop",
    tableId: "items",
    name: "Items",
    permissions: [Permission.read(Role.any()), Permission.create(Role.users())],
    rowSecurity: true,
  });
  const t = { databaseId: "shop", tableId: "items" };
  await tables.createStringColumn({ ...t, key: "title", size: 64, required: true });
  await tables.createIntegerColumn({ ...t, key: "rank", required: false, min: 0, max: 1000, xdefault: 5 });
  await tables.createBooleanColumn({ ...t, key: "open", required: false });
  await tables.createDatetimeColumn({ ...t, key: "due", required: false });
  await tables.createEmailColumn({ ...t, key: "owner", required: false });
  await tables.createUrlColumn({ ...t, key: "link", required: false });
  await tables.createVarcharColumn({ ...t, key: "code", size: 16, required: false });
  await tables.createTextColumn({ ...t, key: "body", required: false });
  await tables.createMediumtextColumn({ ...t, key: "notes", required: false });
  await tables.createLongtextColumn({ ...t, key: "blob", required: false });
  await tables.createFloatColumn({ ...t, key: "price", required: false, min: 0, max: 100.5, xdefault: 1.5 });
  await tables.createEnumColumn({ ...t, key: "state", elements: ["draft", "live"], required: false });
  await tables.createIndex({ ...t, key: "by_rank", type: node.TablesDBIndexType.Key, columns: ["rank"] });
});

afterAll(async () => {
  // `/health/version` is not in the specs (the CLI calls it; it answers `{version}`).
  const problems = recorder.log
    .filter((exchange) => exchange.path !== "/v1/health/version")
    .flatMap((exchange) => validator.check(exchange));
  await recorder.close();
  await env.stop();
  expect(problems).toEqual([]);
});

describe("TablesDB through node-appwrite", () => {
  it("given a database and a table, then they read back with the TablesDB models", async () => {
    const db = await tables.get({ databaseId: "shop" });
    expect(db).toMatchObject({ $id: "shop", name: "Shop", type: "tablesdb", enabled: true });
    expect((await tables.list()).databases.map((d) => d.$id)).toContain("shop");
    const table = await tables.getTable({ databaseId: "shop", tableId: "items" });
    expect(table).toMatchObject({ $id: "items", databaseId: "shop", rowSecurity: true, enabled: true });
    expect(table).not.toHaveProperty("documentSecurity");
    expect(table.columns.map((c) => [c.key, c.type])).toEqual([
      ["title", "string"],
      ["rank", "integer"],
      ["open", "boolean"],
      ["due", "datetime"],
      ["owner", "string"],
      ["link", "string"],
      ["code", "varchar"],
      ["body", "text"],
      ["notes", "mediumtext"],
      ["blob", "longtext"],
      ["price", "double"],
      ["state", "string"],
    ]);
    expect(table.columns[10]).toMatchObject({ min: 0, max: 100.5, default: 1.5 });
    expect(table.columns[11]).toMatchObject({ format: "enum", elements: ["draft", "live"] });
    expect(table.indexes[0]).toMatchObject({ key: "by_rank", type: "key", columns: ["rank"] });
    const list = await tables.listTables({ databaseId: "shop" });
    expect(list.total).toBe(1);
    expect(list.tables[0]?.$id).toBe("items");
    const updated = await tables.updateTable({
      databaseId: "shop",
      tableId: "items",
      name: "Things",
      rowSecurity: true,
    });
    expect(updated.name).toBe("Things");
  });

  it("given columns and indexes, then they are listed, read, updated and deleted", async () => {
    const t = { databaseId: "shop", tableId: "items" };
    const columns = await tables.listColumns(t);
    expect(columns.total).toBe(12);
    const state = await tables.updateEnumColumn({
      ...t,
      key: "state",
      elements: ["draft", "live", "gone"],
      required: false,
      xdefault: "draft",
    });
    expect(state).toMatchObject({ elements: ["draft", "live", "gone"], default: "draft" });
    const price = await tables.updateFloatColumn({
      ...t,
      key: "price",
      required: false,
      xdefault: 2,
      min: 0,
      max: 200,
    });
    expect(price).toMatchObject({ type: "double", min: 0, max: 200, default: 2 });
    expect(await tables.getColumn({ ...t, key: "code" })).toMatchObject({ key: "code", type: "varchar", size: 16 });
    const text = await tables.getColumn({ ...t, key: "body" });
    expect(text).toMatchObject({ type: "text" });
    expect(text).not.toHaveProperty("size");
    const renamed = await tables.updateVarcharColumn({ ...t, key: "code", required: false, xdefault: "x", size: 20 });
    expect(renamed).toMatchObject({ type: "varchar", size: 20 });
    await tables.updateIntegerColumn({ ...t, key: "rank", required: false, xdefault: 1, min: 0, max: 1000 });
    expect((await tables.listIndexes(t)).indexes.map((i) => i.columns)).toEqual([["rank"]]);
    expect(await tables.getIndex({ ...t, key: "by_rank" })).toMatchObject({ columns: ["rank"] });
    await tables.createIndex({ ...t, key: "tmp", type: node.TablesDBIndexType.Unique, columns: ["code"] });
    await tables.deleteIndex({ ...t, key: "tmp" });
    await tables.createBooleanColumn({ ...t, key: "gone", required: false });
    await tables.deleteColumn({ ...t, key: "gone" });
    const missing = await rejection(tables.getColumn({ ...t, key: "gone" }));
    expect([missing.code, missing.type, missing.message]).toEqual([
      404,
      "column_not_found",
      "Column with the requested key 'gone' could not be found.",
    ]);
    const dependent = await rejection(tables.deleteColumn({ ...t, key: "rank" }));
    expect(dependent.type).toBe("column_index_dependency");
    expect((await rejection(tables.getIndex({ ...t, key: "nope" }))).type).toBe("column_index_not_found");
    expect((await rejection(tables.createStringColumn({ ...t, key: "title", size: 3, required: false }))).type).toBe(
      "column_already_exists",
    );
  });

  it("given rows, then create, get, list with queries, update, upsert and delete work", async () => {
    const t = { databaseId: "shop", tableId: "items" };
    const row = await tables.createRow({
      ...t,
      rowId: "r1",
      data: { title: "First", rank: 3, open: true, code: "A1", body: "long text" },
      permissions: [Permission.update(Role.any())],
    });
    expect(row).toMatchObject({ $id: "r1", $tableId: "items", $databaseId: "shop", title: "First", rank: 3 });
    expect(row).not.toHaveProperty("$collectionId");
    await tables.createRow({
      ...t,
      rowId: ID.unique(),
      data: { title: "Second", rank: 7, price: 9.25, state: "live" },
    });
    const floats = await tables.listRows({
      ...t,
      queries: [Query.greaterThan("price", 9), Query.equal("state", "live")],
    });
    expect(floats.rows.map((r) => [r.title, r.price])).toEqual([["Second", 9.25]]);
    const badEnum = await rejection(
      tables.createRow({ ...t, rowId: ID.unique(), data: { title: "x", state: "nope" } }),
    );
    expect([badEnum.type, badEnum.message]).toEqual([
      "row_invalid_structure",
      'Invalid document structure: Attribute "state" has invalid format. Value must be one of (draft, live, gone)',
    ]);
    const badFloat = await rejection(tables.createRow({ ...t, rowId: ID.unique(), data: { title: "x", price: 500 } }));
    expect(badFloat.type).toBe("row_invalid_structure");
    await tables.createRow({ ...t, rowId: ID.unique(), data: { title: "Third", rank: 9, open: false } });
    const listed = await tables.listRows({
      ...t,
      queries: [Query.greaterThan("rank", 4), Query.orderDesc("rank"), Query.select(["title", "rank"])],
    });
    expect(listed.total).toBe(2);
    expect(listed.rows.map((r) => r.title)).toEqual(["Third", "Second"]);
    expect(listed.rows[0]?.$tableId).toBe("items");
    expect((await tables.getRow({ ...t, rowId: "r1" })).body).toBe("long text");
    expect((await tables.updateRow({ ...t, rowId: "r1", data: { rank: 4 } })).rank).toBe(4);
    expect((await tables.upsertRow({ ...t, rowId: "r9", data: { title: "Upserted" } })).$tableId).toBe("items");
    expect((await tables.upsertRow({ ...t, rowId: "r9", data: { rank: 99 } })).title).toBe("Upserted");
    await tables.deleteRow({ ...t, rowId: "r9" });
    const gone = await rejection(tables.getRow({ ...t, rowId: "r9" }));
    expect([gone.code, gone.type, gone.message]).toEqual([
      404,
      "row_not_found",
      "Row with the requested ID 'r9' could not be found.",
    ]);
    const dup = await rejection(tables.createRow({ ...t, rowId: "r1", data: { title: "x" } }));
    expect(dup.type).toBe("row_already_exists");
    const bad = await rejection(tables.createRow({ ...t, rowId: ID.unique(), data: { nope: 1 } }));
    expect(bad.type).toBe("row_invalid_structure");
    expect((await rejection(tables.getTable({ databaseId: "shop", tableId: "nope" }))).message).toBe(
      "Table with the requested ID 'nope' could not be found.",
    );
    expect((await rejection(tables.getTable({ databaseId: "nope", tableId: "x" }))).type).toBe("database_not_found");
  });

  it("given row security, then a guest sees only rows it may read, through the web SDK too", async () => {
    const t = { databaseId: "shop", tableId: "private" };
    await tables.createTable({ ...t, name: "Private", rowSecurity: true, permissions: [] });
    await tables.createStringColumn({ ...t, key: "title", size: 32, required: true });
    await tables.createRow({ ...t, rowId: "public", data: { title: "p" }, permissions: [Permission.read(Role.any())] });
    await tables.createRow({ ...t, rowId: "hidden", data: { title: "h" } });
    const guest = new web.TablesDB(new web.Client().setEndpoint(recorder.endpoint).setProject(env.emulator.projectId));
    const seen = await guest.listRows(t);
    expect(seen.rows.map((r) => r.$id)).toEqual(["public"]);
    expect((await guest.getRow({ ...t, rowId: "public" })).$tableId).toBe("private");
    const hidden = await guest.getRow({ ...t, rowId: "hidden" }).catch((e: unknown) => e as web.AppwriteException);
    expect(hidden).toMatchObject({ code: 404, type: "row_not_found" });
    const denied = await guest
      .createRow({ ...t, rowId: "x", data: { title: "x" } })
      .catch((e: unknown) => e as web.AppwriteException);
    expect(denied).toMatchObject({ code: 401, type: "user_unauthorized" });
  });

  it("given a guest, then table management needs a key", async () => {
    const guest = new node.TablesDB(
      new node.Client().setEndpoint(recorder.endpoint).setProject(env.emulator.projectId),
    );
    const error = await rejection(guest.listTables({ databaseId: "shop" }));
    expect([error.code, error.type, error.message]).toEqual([
      401,
      "general_unauthorized_scope",
      'User (role: guests) missing scopes (["tables.read","collections.read"])',
    ]);
  });
});

describe("counters", () => {
  it("given numeric columns, then increment and decrement work through both APIs with their bounds", async () => {
    const t = { databaseId: "shop", tableId: "items" };
    await tables.createRow({ ...t, rowId: "counter", data: { title: "Counter", rank: 10, price: 1 } });
    const up = await tables.incrementRowColumn({ ...t, rowId: "counter", column: "rank", value: 5, max: 20 });
    expect(up).toMatchObject({ $tableId: "items", rank: 15 });
    expect((await tables.decrementRowColumn({ ...t, rowId: "counter", column: "price", value: 0.25 })).price).toBe(
      0.75,
    );
    const doc = await databases.incrementDocumentAttribute({
      databaseId: "shop",
      collectionId: "items",
      documentId: "counter",
      attribute: "rank",
    });
    expect(doc).toMatchObject({ $collectionId: "items", rank: 16 });
    const over = await rejection(
      tables.incrementRowColumn({ ...t, rowId: "counter", column: "rank", value: 10, max: 20 }),
    );
    expect([over.code, over.type]).toEqual([400, "column_limit_exceeded"]);
    const under = await rejection(
      databases.decrementDocumentAttribute({
        databaseId: "shop",
        collectionId: "items",
        documentId: "counter",
        attribute: "rank",
        value: 20,
        min: 0,
      }),
    );
    expect(under.type).toBe("attribute_limit_exceeded");
    expect((await rejection(tables.incrementRowColumn({ ...t, rowId: "counter", column: "title" }))).type).toBe(
      "column_type_invalid",
    );
    expect((await rejection(tables.incrementRowColumn({ ...t, rowId: "nope", column: "rank" }))).type).toBe(
      "row_not_found",
    );
    const guest = new node.TablesDB(
      new node.Client().setEndpoint(recorder.endpoint).setProject(env.emulator.projectId),
    );
    expect((await rejection(guest.incrementRowColumn({ ...t, rowId: "counter", column: "rank" }))).code).toBe(401);
    await tables.deleteRow({ ...t, rowId: "counter" });
  });
});

describe("one store behind Databases and TablesDB", () => {
  it("given a row written through TablesDB, then Databases reads it as a document, and back", async () => {
    await tables.createRow({ databaseId: "shop", tableId: "items", rowId: "shared", data: { title: "From rows" } });
    const doc = await databases.getDocument({ databaseId: "shop", collectionId: "items", documentId: "shared" });
    expect(doc).toMatchObject({ $id: "shared", $collectionId: "items", title: "From rows" });
    await databases.updateDocument({
      databaseId: "shop",
      collectionId: "items",
      documentId: "shared",
      data: { title: "From documents" },
    });
    await databases.createDocument({
      databaseId: "shop",
      collectionId: "items",
      documentId: "doc2",
      data: { title: "Doc" },
    });
    expect((await tables.getRow({ databaseId: "shop", tableId: "items", rowId: "shared" })).title).toBe(
      "From documents",
    );
    const rows = await tables.listRows({
      databaseId: "shop",
      tableId: "items",
      queries: [Query.equal("$id", ["doc2"])],
    });
    expect(rows.rows.map((r) => r.title)).toEqual(["Doc"]);
    const collection = await databases.getCollection({ databaseId: "shop", collectionId: "items" });
    expect(collection.documentSecurity).toBe(true);
    expect(collection.attributes.map((a) => a.key)).toContain("code");
    await databases.createFloatAttribute({ databaseId: "shop", collectionId: "items", key: "weight", required: false });
    await databases.createEnumAttribute({
      databaseId: "shop",
      collectionId: "items",
      key: "size",
      elements: ["s", "m"],
      required: false,
    });
    const doc3 = await databases.createDocument({
      databaseId: "shop",
      collectionId: "items",
      documentId: "doc3",
      data: { title: "Heavy", weight: 2.5, size: "m" },
    });
    expect(doc3).toMatchObject({ weight: 2.5, size: "m" });
    expect(await tables.getRow({ databaseId: "shop", tableId: "items", rowId: "doc3" })).toMatchObject({ weight: 2.5 });
  });

  it("given a legacy database and collection, then TablesDB serves them as a table", async () => {
    await databases.create({ databaseId: "old", name: "Old" });
    await databases.createCollection({ databaseId: "old", collectionId: "c", name: "C", documentSecurity: false });
    await databases.createIntegerAttribute({ databaseId: "old", collectionId: "c", key: "n", required: false });
    const db = await tables.get({ databaseId: "old" });
    expect(db.type).toBe("legacy");
    const table = await tables.getTable({ databaseId: "old", tableId: "c" });
    expect(table.rowSecurity).toBe(false);
    expect(table.columns[0]).toMatchObject({ key: "n", type: "integer" });
    await tables.createRow({ databaseId: "old", tableId: "c", rowId: "x", data: { n: 1 } });
    expect((await databases.listDocuments({ databaseId: "old", collectionId: "c" })).total).toBe(1);
    await tables.deleteTable({ databaseId: "old", tableId: "c" });
    expect((await rejection(databases.getCollection({ databaseId: "old", collectionId: "c" }))).type).toBe(
      "collection_not_found",
    );
    await tables.delete({ databaseId: "old" });
  });
});

describe("realtime for rows", () => {
  it("given a subscriber to a table's rows, then TablesDB writes arrive as Row payloads and Databases ones as Documents", async () => {
    const channel = "tablesdb.shop.tables.items.rows";
    const socket = rawRealtime(env.emulator.endpoint, `project=${env.emulator.projectId}&channels[]=${channel}`);
    await socket.next("connected");
    const events = () => socket.messages.filter((m) => m.type === "event").map((m) => m.data ?? {});
    await tables.createRow({ databaseId: "shop", tableId: "items", rowId: "live", data: { title: "Live" } });
    const created = await until(() => events()[0], "row event");
    expect(created["events"]).toContain("tablesdb.shop.tables.items.rows.live.create");
    expect(created["channels"]).toContain(channel);
    expect(created["payload"]).toMatchObject({ $id: "live", $tableId: "items", title: "Live" });
    expect(created["payload"]).not.toHaveProperty("$collectionId");
    await databases.updateDocument({
      databaseId: "shop",
      collectionId: "items",
      documentId: "live",
      data: { rank: 2 },
    });
    const updated = await until(() => events()[1], "document event");
    expect(updated["events"]).toContain("databases.shop.collections.items.documents.live.update");
    expect(updated["payload"]).toMatchObject({ $id: "live", $collectionId: "items", rank: 2 });
    await tables.deleteRow({ databaseId: "shop", tableId: "items", rowId: "live" });
    expect((await until(() => events()[2], "delete event"))["payload"]).toMatchObject({ $tableId: "items" });
    socket.close();
  });
});

describe("health", () => {
  it("given an API key, then the health endpoints answer with their models", async () => {
    const headers = { "X-Appwrite-Project": env.emulator.projectId, "X-Appwrite-Key": env.emulator.apiKey };
    const health = async (path: string, key = true) => {
      const response = await fetch(`${recorder.endpoint}${path}`, {
        headers: key ? headers : { "X-Appwrite-Project": env.emulator.projectId },
      });
      return { http: response.status, ...((await response.json()) as Record<string, unknown>) };
    };
    expect(await health("/health")).toEqual({ http: 200, name: "http", ping: 0, status: "pass" });
    expect(await health("/health/version")).toEqual({ http: 200, version: "1.9.6" });
    expect(await health("/health/db")).toMatchObject({ total: 1, statuses: [{ status: "pass" }] });
    expect(await health("/health/cache")).toMatchObject({ total: 1 });
    expect(await health("/health/pubsub")).toMatchObject({ total: 1 });
    expect(await health("/health/storage")).toMatchObject({ name: "storage", status: "pass" });
    expect(await health("/health/storage/local")).toMatchObject({ name: "local", status: "pass" });
    const time = (await health("/health/time")) as unknown as { localTime: number; diff: number };
    expect(Math.abs(time.localTime - Date.now() / 1000)).toBeLessThan(5);
    expect(await health("/health/anti-virus")).toEqual({ http: 200, version: "", status: "disabled" });
    expect(await health("/health/queue/mails")).toEqual({ http: 200, size: 0 });
    expect(await health("/health/queue/failed/v1-database")).toEqual({ http: 200, size: 0 });
    expect(await health("/health/db", false)).toMatchObject({ http: 401, type: "general_unauthorized_scope" });
    expect(await health("/health/certificate?domain=example.com")).toMatchObject({
      http: 405,
      type: "general_not_implemented",
    });
  });
});
