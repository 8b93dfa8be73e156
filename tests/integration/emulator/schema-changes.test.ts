import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Databases, Permission, Query, Role } from "node-appwrite";
import { rejection, signedInClient, startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";

let env: TestEmulator;
let db: Databases;
const where = { databaseId: "app", collectionId: "items" };
// The SDK requires `xdefault` on attribute updates but types it without `null`, the value for "no default".
const NO_DEFAULT = null as unknown as string;

beforeAll(async () => {
  env = await startTestEmulator();
  db = new Databases(env.admin);
  await db.create({ databaseId: "app", name: "App" });
  await db.createCollection({
    ...where,
    name: "Items",
    permissions: [Permission.create(Role.users()), Permission.read(Role.any())],
    documentSecurity: true,
  });
  await db.createStringAttribute({ ...where, key: "name", size: 20, required: true });
  await db.createIntegerAttribute({ ...where, key: "qty", required: false, min: 0, max: 10 });
  await db.createStringAttribute({ ...where, key: "note", size: 40, required: false });
  await db.createIndex({ ...where, key: "by_name", type: "key" as never, attributes: ["name"] });
});

afterAll(async () => {
  await env.stop();
});

describe("upsert", () => {
  it("given a missing ID, when upserted, then 201 creates it; when upserted again, then it updates and keeps the rest", async () => {
    const created = await db.upsertDocument({ ...where, documentId: "u1", data: { name: "first", qty: 1 } });
    expect(created).toMatchObject({ $id: "u1", name: "first", qty: 1, note: null });
    const updated = await db.upsertDocument({ ...where, documentId: "u1", data: { qty: 2 } });
    expect(updated).toMatchObject({ $id: "u1", name: "first", qty: 2, $createdAt: created.$createdAt });
    expect((await db.listDocuments({ ...where, queries: [Query.equal("$id", "u1")] })).total).toBe(1);
  });

  it("given a session user, when it upserts its own document then someone else's, then the second is 401", async () => {
    const { client } = await signedInClient(env, "owner");
    const mine = await new Databases(client).upsertDocument({ ...where, documentId: "o1", data: { name: "mine" } });
    expect(mine.$permissions).toEqual(['read("user:owner")', 'update("user:owner")', 'delete("user:owner")']);
    expect((await new Databases(client).upsertDocument({ ...where, documentId: "o1", data: { qty: 3 } })).qty).toBe(3);
    const theirs = await rejection(
      new Databases(client).upsertDocument({ ...where, documentId: "u1", data: { qty: 9 } }),
    );
    expect([theirs.code, theirs.type]).toEqual([401, "user_unauthorized"]);
  });
});

describe("attribute and index changes", () => {
  it("given an attribute, when required/default/size change, then documents follow the new rules", async () => {
    const changed = await db.updateStringAttribute({
      ...where,
      key: "note",
      required: false,
      xdefault: "n/a",
      size: 10,
    });
    expect(changed).toMatchObject({ key: "note", size: 10, default: "n/a", required: false });
    const created = await db.createDocument({ ...where, documentId: "d1", data: { name: "defaulted" } });
    expect(created["note"]).toBe("n/a");
    const tooLong = await rejection(
      db.createDocument({ ...where, documentId: "d2", data: { name: "x", note: "more than ten" } }),
    );
    expect(tooLong.type).toBe("document_invalid_structure");
    const range = await db.updateIntegerAttribute({
      ...where,
      key: "qty",
      required: false,
      xdefault: NO_DEFAULT as unknown as number,
      max: 100,
    });
    expect(range).toMatchObject({ min: 0, max: 100 });
    expect((await db.updateDocument({ ...where, documentId: "d1", data: { qty: 50 } })).qty).toBe(50);
    const wrongType = await rejection(
      db.updateStringAttribute({ ...where, key: "qty", required: false, xdefault: NO_DEFAULT }),
    );
    expect([wrongType.code, wrongType.type]).toEqual([400, "attribute_type_invalid"]);
  });

  it("given a rename, then documents answer under the new key; shrinking below stored data is refused", async () => {
    await db.updateStringAttribute({ ...where, key: "note", required: false, xdefault: NO_DEFAULT, newKey: "remark" });
    const doc = await db.getDocument({ ...where, documentId: "d1" });
    expect(doc["remark"]).toBe("n/a");
    expect(doc).not.toHaveProperty("note");
    const shrink = await rejection(
      db.updateStringAttribute({ ...where, key: "remark", required: false, xdefault: NO_DEFAULT, size: 1 }),
    );
    expect([shrink.code, shrink.type]).toEqual([400, "attribute_invalid_resize"]);
  });

  it("given an indexed attribute, when deleted, then 409 index_dependency until the index is deleted", async () => {
    const blocked = await rejection(db.deleteAttribute({ ...where, key: "name" }));
    expect([blocked.code, blocked.type]).toEqual([409, "index_dependency"]);
    await db.deleteIndex({ ...where, key: "by_name" });
    const gone = await rejection(db.getIndex({ ...where, key: "by_name" }));
    expect([gone.code, gone.type]).toEqual([404, "index_not_found"]);
    await db.deleteAttribute({ ...where, key: "remark" });
    const doc = await db.getDocument({ ...where, documentId: "d1" });
    expect(doc).not.toHaveProperty("remark");
    const missing = await rejection(db.getAttribute({ ...where, key: "remark" }));
    expect([missing.code, missing.type]).toEqual([404, "attribute_not_found"]);
  });
});

describe("collection and database changes", () => {
  it("given a collection, when updated and then deleted, then its documents go with it", async () => {
    const updated = await db.updateCollection({ ...where, name: "Things", enabled: false });
    expect(updated).toMatchObject({ name: "Things", enabled: false, documentSecurity: true });
    expect(updated.$permissions).toEqual(['create("users")', 'read("any")']);
    const { client } = await signedInClient(env, "late");
    const disabled = await rejection(new Databases(client).listDocuments(where));
    expect([disabled.code, disabled.type]).toEqual([404, "collection_not_found"]);
    await db.deleteCollection(where);
    expect((await rejection(db.getCollection(where))).type).toBe("collection_not_found");
  });

  it("given a database, when renamed and deleted, then it is gone", async () => {
    expect((await db.update({ databaseId: "app", name: "Renamed" })).name).toBe("Renamed");
    await db.delete({ databaseId: "app" });
    expect((await rejection(db.get({ databaseId: "app" }))).type).toBe("database_not_found");
  });
});
