import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Databases, ID, Permission, Role, Users } from "node-appwrite";
import { rejection, startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";

let env: TestEmulator;
let admin: Databases;
let guest: Databases;

beforeAll(async () => {
  env = await startTestEmulator();
  admin = new Databases(env.admin);
  guest = new Databases(env.guest);
  await admin.create({ databaseId: "db", name: "DB" });
  const collections = [
    { collectionId: "private", permissions: [], documentSecurity: false },
    { collectionId: "docsec", permissions: [], documentSecurity: true },
    {
      collectionId: "open",
      permissions: [Permission.create(Role.any()), Permission.read(Role.any())],
      documentSecurity: false,
    },
    { collectionId: "off", permissions: [Permission.read(Role.any())], documentSecurity: false, enabled: false },
  ];
  for (const c of collections) {
    await admin.createCollection({ databaseId: "db", name: c.collectionId, ...c });
    await admin.createStringAttribute({
      databaseId: "db",
      collectionId: c.collectionId,
      key: "title",
      size: 50,
      required: false,
    });
  }
  await admin.createDocument({
    databaseId: "db",
    collectionId: "private",
    documentId: "p1",
    data: { title: "secret" },
  });
  await admin.createDocument({
    databaseId: "db",
    collectionId: "docsec",
    documentId: "shared",
    data: { title: "shared" },
    permissions: [Permission.read(Role.any())],
  });
  await admin.createDocument({
    databaseId: "db",
    collectionId: "docsec",
    documentId: "hidden",
    data: { title: "hidden" },
  });
  await admin.createDocument({ databaseId: "db", collectionId: "off", documentId: "o1", data: { title: "off" } });
});

afterAll(async () => {
  await env.stop();
});

describe("guest access to documents (REFERENCE §6)", () => {
  it("given a collection without read and documentSecurity off, when a guest lists, then 401 user_unauthorized", async () => {
    const error = await rejection(guest.listDocuments({ databaseId: "db", collectionId: "private" }));
    expect([error.code, error.type]).toEqual([401, "user_unauthorized"]);
  });

  it("given an unreadable document, when a guest gets it, then 404 document_not_found, while the key reads it", async () => {
    const error = await rejection(guest.getDocument({ databaseId: "db", collectionId: "private", documentId: "p1" }));
    expect([error.code, error.type]).toEqual([404, "document_not_found"]);
    const doc = await admin.getDocument({ databaseId: "db", collectionId: "private", documentId: "p1" });
    expect(doc["title"]).toBe("secret");
  });

  it("given documentSecurity, when a guest lists, then only readable documents count", async () => {
    const list = await guest.listDocuments({ databaseId: "db", collectionId: "docsec" });
    expect(list.total).toBe(1);
    expect(list.documents.map((d) => d.$id)).toEqual(["shared"]);
    const shared = await guest.getDocument({ databaseId: "db", collectionId: "docsec", documentId: "shared" });
    expect(shared.$id).toBe("shared");
    const hidden = await rejection(
      guest.getDocument({ databaseId: "db", collectionId: "docsec", documentId: "hidden" }),
    );
    expect(hidden.code).toBe(404);
  });

  it("given no collection create permission, when a guest creates, then 401", async () => {
    const error = await rejection(
      guest.createDocument({
        databaseId: "db",
        collectionId: "private",
        documentId: ID.unique(),
        data: { title: "x" },
      }),
    );
    expect([error.code, error.type]).toEqual([401, "user_unauthorized"]);
  });

  it('given create("any"), when a guest creates, then 201 with only roles it holds', async () => {
    const doc = await guest.createDocument({
      databaseId: "db",
      collectionId: "open",
      documentId: ID.unique(),
      data: { title: "hi" },
      permissions: [Permission.read(Role.any())],
    });
    expect(doc.$permissions).toEqual(['read("any")']);
    const error = await rejection(
      guest.createDocument({
        databaseId: "db",
        collectionId: "open",
        documentId: ID.unique(),
        data: { title: "hi" },
        permissions: [Permission.read(Role.user("someone"))],
      }),
    );
    expect([error.code, error.type]).toEqual([401, "user_unauthorized"]);
  });

  it("given a private document, when a guest updates or deletes it, then 401; a missing one gives 404", async () => {
    const update = await rejection(
      guest.updateDocument({ databaseId: "db", collectionId: "private", documentId: "p1", data: { title: "x" } }),
    );
    expect([update.code, update.type]).toEqual([401, "user_unauthorized"]);
    const remove = await rejection(
      guest.deleteDocument({ databaseId: "db", collectionId: "private", documentId: "p1" }),
    );
    expect(remove.code).toBe(401);
    const missing = await rejection(
      guest.deleteDocument({ databaseId: "db", collectionId: "private", documentId: "ghost" }),
    );
    expect([missing.code, missing.type]).toEqual([404, "document_not_found"]);
  });

  it("given a disabled collection, then guests get 404 and the key still reads it", async () => {
    const error = await rejection(guest.listDocuments({ databaseId: "db", collectionId: "off" }));
    expect([error.code, error.type]).toEqual([404, "collection_not_found"]);
    const list = await admin.listDocuments({ databaseId: "db", collectionId: "off" });
    expect(list.total).toBe(1);
  });
});

describe("scopes", () => {
  it("given no API key, when calling users or creating a database, then 401 general_unauthorized_scope", async () => {
    const users = await rejection(new Users(env.guest).list());
    expect([users.code, users.type]).toEqual([401, "general_unauthorized_scope"]);
    const create = await rejection(guest.create({ databaseId: "x", name: "x" }));
    expect([create.code, create.type]).toEqual([401, "general_unauthorized_scope"]);
  });
});
