import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, Databases, Functions, ID, Permission, Query, Role } from "node-appwrite";
import { rejection, startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;

let env: TestEmulator;
let db: Databases;

beforeAll(async () => {
  env = await startTestEmulator();
  db = new Databases(env.admin);
  await db.create({ databaseId: "main", name: "Main" });
  await db.createCollection({
    databaseId: "main",
    collectionId: "posts",
    name: "Posts",
    permissions: [Permission.read(Role.any())],
  });
  await db.createStringAttribute({ databaseId: "main", collectionId: "posts", key: "title", size: 20, required: true });
  await db.createStringAttribute({ databaseId: "main", collectionId: "posts", key: "slug", size: 64, required: false });
  await db.createEmailAttribute({ databaseId: "main", collectionId: "posts", key: "contact", required: false });
  await db.createUrlAttribute({ databaseId: "main", collectionId: "posts", key: "link", required: false });
  await db.createDatetimeAttribute({ databaseId: "main", collectionId: "posts", key: "publishedAt", required: false });
  await db.createIntegerAttribute({
    databaseId: "main",
    collectionId: "posts",
    key: "year",
    required: false,
    min: 1900,
    max: 2100,
  });
  await db.createBooleanAttribute({
    databaseId: "main",
    collectionId: "posts",
    key: "draft",
    required: false,
    xdefault: false,
  });
  await db.createStringAttribute({
    databaseId: "main",
    collectionId: "posts",
    key: "tags",
    size: 32,
    required: false,
    array: true,
  });
  await db.createIndex({
    databaseId: "main",
    collectionId: "posts",
    key: "slug_unique",
    type: "unique" as never,
    attributes: ["slug"],
  });
  await db.createIndex({
    databaseId: "main",
    collectionId: "posts",
    key: "year_key",
    type: "key" as never,
    attributes: ["year"],
    orders: ["desc" as never],
  });
  const movies = [
    { title: "Captain America", slug: "captain", year: 1944, tags: ["Chris Evans"] },
    { title: "Spider-Man", slug: "spider", year: 2002, tags: ["Tom Holland"] },
    { title: "Iron Man", slug: "iron", year: 2008, tags: ["Tom", "Robert"] },
  ];
  for (const [i, data] of movies.entries()) {
    await db.createDocument({ databaseId: "main", collectionId: "posts", documentId: `movie${i + 1}`, data });
  }
});

afterAll(async () => {
  await env.stop();
});

describe("databases and collections", () => {
  it("given a database, when fetched and listed, then it has the legacy Database model", async () => {
    const got = await db.get({ databaseId: "main" });
    expect(got).toMatchObject({ $id: "main", name: "Main", enabled: true, type: "legacy" });
    expect(got.$createdAt).toMatch(DATETIME);
    const list = await db.list();
    expect(list.total).toBe(1);
    expect(list.databases[0]?.$id).toBe("main");
  });

  it("given an existing database ID, when created again, then 409 database_already_exists", async () => {
    const error = await rejection(db.create({ databaseId: "main", name: "Again" }));
    expect(error.code).toBe(409);
    expect(error.type).toBe("database_already_exists");
  });

  it("given a collection, when fetched, then attributes and indexes appear in the model", async () => {
    const col = await db.getCollection({ databaseId: "main", collectionId: "posts" });
    expect(col).toMatchObject({
      $id: "posts",
      databaseId: "main",
      enabled: true,
      documentSecurity: false,
      $permissions: ['read("any")'],
    });
    expect(col.attributes.map((a) => (a as { key: string }).key)).toEqual([
      "title",
      "slug",
      "contact",
      "link",
      "publishedAt",
      "year",
      "draft",
      "tags",
    ]);
    expect(col.indexes.map((i) => i.key)).toEqual(["slug_unique", "year_key"]);
    expect(typeof col.bytesMax).toBe("number");
    const list = await db.listCollections({ databaseId: "main", queries: [Query.equal("name", "Posts")] });
    expect(list.total).toBe(1);
  });

  it("given attributes, when read back, then each has its type model and status available", async () => {
    const title = await db.getAttribute({ databaseId: "main", collectionId: "posts", key: "title" });
    expect(title).toMatchObject({
      key: "title",
      type: "string",
      size: 20,
      required: true,
      status: "available",
      default: null,
    });
    const contact = await db.getAttribute({ databaseId: "main", collectionId: "posts", key: "contact" });
    expect(contact).toMatchObject({ type: "string", format: "email" });
    const year = await db.getAttribute({ databaseId: "main", collectionId: "posts", key: "year" });
    expect(year).toMatchObject({ type: "integer", min: 1900, max: 2100 });
    const list = await db.listAttributes({ databaseId: "main", collectionId: "posts" });
    expect(list.total).toBe(8);
    const missing = await rejection(db.getAttribute({ databaseId: "main", collectionId: "posts", key: "nope" }));
    expect([missing.code, missing.type]).toEqual([404, "attribute_not_found"]);
  });

  it("given indexes, when read back, then get and list return the Index model", async () => {
    const index = await db.getIndex({ databaseId: "main", collectionId: "posts", key: "year_key" });
    expect(index).toMatchObject({
      key: "year_key",
      type: "key",
      attributes: ["year"],
      orders: ["DESC"],
      status: "available",
    });
    const list = await db.listIndexes({ databaseId: "main", collectionId: "posts" });
    expect(list.total).toBe(2);
  });

  it("given a duplicate attribute key, when created, then 409 attribute_already_exists", async () => {
    const error = await rejection(
      db.createStringAttribute({ databaseId: "main", collectionId: "posts", key: "title", size: 5, required: false }),
    );
    expect([error.code, error.type]).toEqual([409, "attribute_already_exists"]);
  });
});

describe("documents", () => {
  it("given a created document, then it carries system fields, defaults and nulls", async () => {
    const doc = await db.getDocument({ databaseId: "main", collectionId: "posts", documentId: "movie1" });
    expect(doc).toMatchObject({
      $id: "movie1",
      $collectionId: "posts",
      $databaseId: "main",
      $permissions: [],
      title: "Captain America",
      draft: false,
      contact: null,
      publishedAt: null,
    });
    expect(typeof doc.$sequence).toBe("string");
    expect(doc.$createdAt).toMatch(DATETIME);
  });

  it("given unique(), when creating, then the server generates the ID and normalises datetimes to UTC", async () => {
    const doc = await db.createDocument({
      databaseId: "main",
      collectionId: "posts",
      documentId: ID.unique(),
      data: {
        title: "Dated",
        publishedAt: "1975-06-12 14:12:55+02:00",
        contact: "a@b.co",
        link: "https://example.com/x",
      },
      permissions: [Permission.read(Role.any()), Permission.write(Role.user("u1"))],
    });
    expect(doc.publishedAt).toBe("1975-06-12T12:12:55.000+00:00");
    expect(doc.$permissions).toEqual(['read("any")', 'update("user:u1")', 'delete("user:u1")']);
    const generated = await db.createDocument({
      databaseId: "main",
      collectionId: "posts",
      documentId: "unique()",
      data: { title: "Gen" },
    });
    expect(generated.$id).toMatch(/^[0-9a-f]{20}$/);
    await db.deleteDocument({ databaseId: "main", collectionId: "posts", documentId: doc.$id });
    await db.deleteDocument({ databaseId: "main", collectionId: "posts", documentId: generated.$id });
  });

  it("given an existing ID, when created again, then 409 document_already_exists", async () => {
    const error = await rejection(
      db.createDocument({ databaseId: "main", collectionId: "posts", documentId: "movie1", data: { title: "x" } }),
    );
    expect([error.code, error.type]).toEqual([409, "document_already_exists"]);
  });

  it('given a unique index, when a value repeats, then 409 without "requested ID" in the message', async () => {
    const error = await rejection(
      db.createDocument({
        databaseId: "main",
        collectionId: "posts",
        documentId: "dup",
        data: { title: "Dup", slug: "spider" },
      }),
    );
    expect([error.code, error.type]).toEqual([409, "document_unique_constraint_violation"]);
    expect(error.message).not.toContain("requested ID");
  });

  it.each([
    [{ slug: "no-title" }, 'Invalid document structure: Missing required attribute "title"'],
    [{ title: "x", nope: 1 }, 'Invalid document structure: Unknown attribute: "nope"'],
    [
      { title: "x", contact: "not-an-email" },
      'Invalid document structure: Attribute "contact" has invalid format. Value must be a valid email address',
    ],
    [
      { title: "x", link: "nope" },
      'Invalid document structure: Attribute "link" has invalid format. Value must be a valid URL',
    ],
    [
      { title: "x", publishedAt: "yesterday" },
      'Invalid document structure: Attribute "publishedAt" has invalid type. Value must be valid date between 1000-01-01 00:00:00 and 9999-12-31 23:59:59.',
    ],
    [
      { title: "x", year: "soon" },
      'Invalid document structure: Attribute "year" has invalid format. Value must be a valid integer',
    ],
    [
      { title: "x", year: 1800 },
      'Invalid document structure: Attribute "year" has invalid format. Value must be a valid range between 1,900 and 2,100',
    ],
    [
      { title: "x", draft: "yes" },
      'Invalid document structure: Attribute "draft" has invalid type. Value must be a valid boolean',
    ],
    [
      { title: "x".repeat(21) },
      'Invalid document structure: Attribute "title" has invalid type. Value must be a valid string and no longer than 20 chars',
    ],
  ])("given invalid data %j, when creating, then 400 document_invalid_structure", async (data, message) => {
    const error = await rejection(
      db.createDocument({ databaseId: "main", collectionId: "posts", documentId: ID.unique(), data }),
    );
    expect([error.code, error.type, error.message]).toEqual([400, "document_invalid_structure", message]);
  });

  it("given a document, when updated partially, then other fields stay and $updatedAt moves", async () => {
    const before = await db.createDocument({
      databaseId: "main",
      collectionId: "posts",
      documentId: "upd",
      data: { title: "Old", year: 2000 },
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const after = await db.updateDocument({
      databaseId: "main",
      collectionId: "posts",
      documentId: "upd",
      data: { title: "New" },
    });
    expect(after).toMatchObject({ title: "New", year: 2000, $createdAt: before.$createdAt });
    expect(after.$updatedAt > before.$updatedAt).toBe(true);
    const withPermissions = await db.updateDocument({
      databaseId: "main",
      collectionId: "posts",
      documentId: "upd",
      permissions: [Permission.read(Role.any())],
    });
    expect(withPermissions.$permissions).toEqual(['read("any")']);
    await db.deleteDocument({ databaseId: "main", collectionId: "posts", documentId: "upd" });
    const gone = await rejection(db.getDocument({ databaseId: "main", collectionId: "posts", documentId: "upd" }));
    expect([gone.code, gone.type, gone.message]).toEqual([
      404,
      "document_not_found",
      "Document with the requested ID 'upd' could not be found.",
    ]);
  });

  it("given no data and no permissions, when updating, then 400 document_missing_payload", async () => {
    const error = await rejection(
      db.updateDocument({ databaseId: "main", collectionId: "posts", documentId: "movie1" }),
    );
    expect([error.code, error.type]).toEqual([400, "document_missing_payload"]);
  });
});

describe("document queries", () => {
  const ids = async (queries: string[]) =>
    (await db.listDocuments({ databaseId: "main", collectionId: "posts", queries })).documents.map((d) => d.$id);

  it("given no queries, then documents come in creation order with total", async () => {
    const list = await db.listDocuments({ databaseId: "main", collectionId: "posts" });
    expect(list.total).toBe(3);
    expect(list.documents.map((d) => d.$id)).toEqual(["movie1", "movie2", "movie3"]);
  });

  it("given filters, then they select the matching documents", async () => {
    expect(await ids([Query.equal("slug", ["spider", "iron"])])).toEqual(["movie2", "movie3"]);
    expect(await ids([Query.notEqual("slug", "spider")])).toEqual(["movie1", "movie3"]);
    expect(await ids([Query.lessThan("year", 2002)])).toEqual(["movie1"]);
    expect(await ids([Query.lessThanEqual("year", 2002)])).toEqual(["movie1", "movie2"]);
    expect(await ids([Query.greaterThan("year", 2002)])).toEqual(["movie3"]);
    expect(await ids([Query.greaterThanEqual("year", 2002)])).toEqual(["movie2", "movie3"]);
    expect(await ids([Query.contains("title", "spi")])).toEqual(["movie2"]);
    expect(await ids([Query.contains("tags", "Tom")])).toEqual(["movie3"]);
    expect(await ids([Query.startsWith("title", "Iron")])).toEqual(["movie3"]);
    expect(await ids([Query.isNull("contact")])).toEqual(["movie1", "movie2", "movie3"]);
    expect(await ids([Query.isNotNull("contact")])).toEqual([]);
    expect(await ids([Query.greaterThan("$createdAt", "1976-06-12")])).toHaveLength(3);
  });

  it("given orders, limit and offset, then pages follow the order", async () => {
    expect(await ids([Query.orderDesc("year")])).toEqual(["movie3", "movie2", "movie1"]);
    expect(await ids([Query.orderAsc("$id")])).toEqual(["movie1", "movie2", "movie3"]);
    expect(await ids([Query.orderDesc("$createdAt"), Query.limit(1)])).toEqual(["movie3"]);
    expect(await ids([Query.limit(2), Query.offset(1)])).toEqual(["movie2", "movie3"]);
    const page = await db.listDocuments({ databaseId: "main", collectionId: "posts", queries: [Query.limit(1)] });
    expect(page.total).toBe(3);
    const noTotal = await db.listDocuments({ databaseId: "main", collectionId: "posts", total: false });
    expect(noTotal.total).toBe(0);
  });

  it("given cursors, then pagination continues after or before the cursor", async () => {
    expect(await ids([Query.cursorAfter("movie1")])).toEqual(["movie2", "movie3"]);
    expect(await ids([Query.cursorAfter("movie3")])).toEqual([]);
    expect(await ids([Query.cursorBefore("movie3")])).toEqual(["movie1", "movie2"]);
    expect(await ids([Query.orderDesc("year"), Query.cursorAfter("movie3"), Query.limit(1)])).toEqual(["movie2"]);
    const error = await rejection(ids([Query.cursorAfter("ghost")]));
    expect([error.code, error.type, error.message]).toEqual([
      400,
      "general_cursor_not_found",
      "Document 'ghost' for the 'cursor' value not found.",
    ]);
  });

  it("given select, then only the selected attributes and system fields are returned", async () => {
    const list = await db.listDocuments({
      databaseId: "main",
      collectionId: "posts",
      queries: [Query.select(["title"]), Query.limit(1)],
    });
    const doc = list.documents[0] as Record<string, unknown>;
    expect(doc["title"]).toBe("Captain America");
    expect(doc).not.toHaveProperty("slug");
    expect(doc).toMatchObject({ $id: "movie1", $databaseId: "main", $collectionId: "posts" });
  });

  it("given bad queries, then 400 general_query_invalid with the reference messages", async () => {
    const unknown = await rejection(ids([Query.equal("nope", "x")]));
    expect([unknown.code, unknown.type, unknown.message]).toEqual([
      400,
      "general_query_invalid",
      "Invalid query: Attribute not found in schema: nope",
    ]);
    const badValue = await rejection(ids([Query.equal("year", "abc")]));
    expect(badValue.message).toBe('Invalid query: Query value is invalid for attribute "year"');
    const syntax = await rejection(ids(["{not json"]));
    expect(syntax.message).toBe("Invalid query: Syntax error");
    const tooMany = await rejection(
      ids([
        Query.equal(
          "slug",
          Array.from({ length: 501 }, (_, i) => `s${i}`),
        ),
      ]),
    );
    expect(tooMany.message).toBe("Invalid query: Query on attribute has greater than 500 values: slug");
  });
});

describe("routes and errors", () => {
  it("given an unknown route, then 404 general_route_not_found; an unimplemented Appwrite route gives 405", async () => {
    const unknown = await rejection(env.admin.call("GET", new URL(`${env.emulator.endpoint}/nope`)));
    expect([unknown.code, unknown.type]).toEqual([404, "general_route_not_found"]);
    const notImplemented = await rejection(new Functions(env.admin).list());
    expect([notImplemented.code, notImplemented.type]).toEqual([405, "general_not_implemented"]);
    expect(JSON.parse(notImplemented.response)).toMatchObject({ code: 405, version: "1.9.6" });
  });

  it("given a missing database or collection, then 404 with the ID in the message", async () => {
    const database = await rejection(db.get({ databaseId: "ghost" }));
    expect([database.code, database.type, database.message]).toEqual([
      404,
      "database_not_found",
      "Database with the requested ID 'ghost' could not be found.",
    ]);
    const collection = await rejection(db.listDocuments({ databaseId: "main", collectionId: "ghost" }));
    expect([collection.code, collection.type]).toEqual([404, "collection_not_found"]);
  });

  it("given a wrong key or project, then 401 user_unauthorized or 404 project_not_found", async () => {
    const badKey = new Databases(
      new Client().setEndpoint(env.emulator.endpoint).setProject(env.emulator.projectId).setKey("wrong"),
    );
    const keyError = await rejection(badKey.list());
    expect([keyError.code, keyError.type]).toEqual([401, "user_unauthorized"]);
    const badProject = new Databases(
      new Client().setEndpoint(env.emulator.endpoint).setProject("other").setKey(env.emulator.apiKey),
    );
    const projectError = await rejection(badProject.list());
    expect([projectError.code, projectError.type]).toEqual([404, "project_not_found"]);
  });

  it("given the health and ping routes, then they answer like Appwrite", async () => {
    const response = await fetch(`${env.emulator.endpoint}/health/version`);
    expect(await response.json()).toEqual({ version: "1.9.6" });
    expect(await env.admin.ping()).toEqual({ message: "Pong!" });
  });
});
