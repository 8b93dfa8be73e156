import { findCollection, findDatabase, insertDatabase, toCollection, toDatabase } from "../db/catalog.ts";
import { dropCollection, insertCollection } from "../db/ddl.ts";
import type { CollectionRecord, DatabaseRecord } from "../db/catalog.ts";
import { runList } from "../db/list.ts";
import { nowDatetime } from "../datetime.ts";
import { AppwriteError } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import {
  boolParam,
  customIdParam,
  queriesParam,
  pathParam,
  searchParam,
  stringArrayParam,
  stringParam,
  totalParam,
} from "../http/params.ts";
import type { Router } from "../http/router.ts";
import { aggregatePermissions, CONTAINER_ACTIONS } from "../permissions.ts";
import { compileQueries } from "../queries.ts";
import type { FieldSpec, QuerySchema } from "../queries.ts";
import { collectionModel, databaseModel, loadDatabase } from "./models.ts";

const META_FIELDS: [string, FieldSpec][] = [
  ["$id", { column: "id", type: "string" }],
  ["$createdAt", { column: "created_at", type: "datetime" }],
  ["$updatedAt", { column: "updated_at", type: "datetime" }],
  ["$sequence", { column: "seq", type: "integer" }],
];

const DATABASE_QUERIES: QuerySchema = {
  fields: new Map([...META_FIELDS, ["name", { column: "name", type: "string" }]]),
  selectable: false,
};

const COLLECTION_QUERIES: QuerySchema = {
  fields: new Map([
    ...META_FIELDS,
    ["name", { column: "name", type: "string" }],
    ["enabled", { column: "enabled", type: "boolean" }],
    ["documentSecurity", { column: "document_security", type: "boolean" }],
  ]),
  selectable: false,
};

function searchCondition(term: string | undefined, columns: string[]) {
  if (term === undefined) return [];
  const words = term.split(/\s+/).filter((w) => w !== "");
  return words.map((word) => ({
    sql: columns.map((c) => `${c} LIKE ? ESCAPE '\\'`).join(" OR "),
    params: columns.map(() => `%${word.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`),
  }));
}

async function createDatabase(ctx: RequestContext) {
  const body = await ctx.body();
  const id = customIdParam(body, "databaseId");
  const name = stringParam(body, "name", { required: true, min: 1, max: 128 });
  const enabled = boolParam(body, "enabled", true);
  const store = ctx.app.store;
  if (findDatabase(store, id)) throw new AppwriteError("database_already_exists", undefined, [id]);
  insertDatabase(store, id, name, enabled, nowDatetime());
  return { status: 201, json: databaseModel(findDatabase(store, id) as DatabaseRecord) };
}

function listDatabases(ctx: RequestContext) {
  const q = compileQueries(queriesParam(ctx), DATABASE_QUERIES);
  const { rows, total } = runList<Parameters<typeof toDatabase>[0]>(
    ctx.app.store,
    {
      table: "databases",
      columns: "*",
      idColumn: "id",
      seqColumn: "seq",
      scope: searchCondition(searchParam(ctx), ["name", "id"]),
      noun: "Database",
    },
    q,
    totalParam(ctx),
  );
  return { status: 200, json: { total, databases: rows.map((r) => databaseModel(toDatabase(r))) } };
}

function getDatabase(ctx: RequestContext) {
  return { status: 200, json: databaseModel(loadDatabase(ctx, pathParam(ctx, "databaseId"))) };
}

async function createCollection(ctx: RequestContext) {
  const db = loadDatabase(ctx, pathParam(ctx, "databaseId"));
  const body = await ctx.body();
  const id = customIdParam(body, "collectionId");
  const name = stringParam(body, "name", { required: true, min: 1, max: 128 });
  const permissions = aggregatePermissions(stringArrayParam(body, "permissions") ?? [], CONTAINER_ACTIONS);
  const documentSecurity = boolParam(body, "documentSecurity", false);
  const enabled = boolParam(body, "enabled", true);
  for (const inline of ["attributes", "indexes"]) {
    const value = body[inline];
    if (Array.isArray(value) && value.length > 0) {
      throw new AppwriteError(
        "general_not_implemented",
        `Creating ${inline} together with the collection is not supported by the emulator.`,
      );
    }
  }
  const store = ctx.app.store;
  if (findCollection(store, db, id)) throw new AppwriteError("collection_already_exists", undefined, [id]);
  insertCollection(store, db, { id, name, enabled, documentSecurity, permissions }, nowDatetime());
  return { status: 201, json: collectionModel(findCollection(store, db, id) as CollectionRecord) };
}

function listCollections(ctx: RequestContext) {
  const db = loadDatabase(ctx, pathParam(ctx, "databaseId"));
  const q = compileQueries(queriesParam(ctx), COLLECTION_QUERIES);
  const { rows, total } = runList<Parameters<typeof toCollection>[1]>(
    ctx.app.store,
    {
      table: "collections",
      columns: "*",
      idColumn: "id",
      seqColumn: "seq",
      scope: [{ sql: "database_seq = ?", params: [db.seq] }, ...searchCondition(searchParam(ctx), ["name", "id"])],
      noun: "Collection",
    },
    q,
    totalParam(ctx),
  );
  const collections = rows.map((r) => collectionModel(toCollection(ctx.app.store, r, db.id)));
  return { status: 200, json: { total, collections } };
}

function getCollection(ctx: RequestContext) {
  const db = loadDatabase(ctx, pathParam(ctx, "databaseId"));
  const id = pathParam(ctx, "collectionId");
  const collection = findCollection(ctx.app.store, db, id);
  if (!collection) throw new AppwriteError("collection_not_found", undefined, [id]);
  return { status: 200, json: collectionModel(collection) };
}

async function updateDatabase(ctx: RequestContext) {
  const db = loadDatabase(ctx, pathParam(ctx, "databaseId"));
  const body = await ctx.body();
  const name = stringParam(body, "name", { required: true, min: 1, max: 128 });
  const enabled = boolParam(body, "enabled", db.enabled);
  ctx.app.store
    .stmt("UPDATE databases SET name = ?, enabled = ?, updated_at = ? WHERE seq = ?")
    .run(name, enabled ? 1 : 0, nowDatetime(), db.seq);
  return { status: 200, json: databaseModel(findDatabase(ctx.app.store, db.id) as DatabaseRecord) };
}

function deleteDatabase(ctx: RequestContext) {
  const db = loadDatabase(ctx, pathParam(ctx, "databaseId"));
  const store = ctx.app.store;
  store.transaction(() => {
    const ids = store.stmt("SELECT id FROM collections WHERE database_seq = ?").all(db.seq) as { id: string }[];
    for (const { id } of ids) dropCollection(store, findCollection(store, db, id) as CollectionRecord);
    store.stmt("DELETE FROM databases WHERE seq = ?").run(db.seq);
  });
  return { status: 204, empty: true as const };
}

/** `PUT …/collections/{id}`: name (required), permissions, documentSecurity, enabled; omitted ones are kept. */
async function updateCollection(ctx: RequestContext) {
  const db = loadDatabase(ctx, pathParam(ctx, "databaseId"));
  const id = pathParam(ctx, "collectionId");
  const collection = findCollection(ctx.app.store, db, id);
  if (!collection) throw new AppwriteError("collection_not_found", undefined, [id]);
  const body = await ctx.body();
  const name = stringParam(body, "name", { required: true, min: 1, max: 128 });
  const requested = stringArrayParam(body, "permissions");
  const permissions = requested ? aggregatePermissions(requested, CONTAINER_ACTIONS) : collection.permissions;
  ctx.app.store
    .stmt(
      "UPDATE collections SET name = ?, permissions = ?, document_security = ?, enabled = ?, updated_at = ? WHERE seq = ?",
    )
    .run(
      name,
      JSON.stringify(permissions),
      boolParam(body, "documentSecurity", collection.documentSecurity) ? 1 : 0,
      boolParam(body, "enabled", collection.enabled) ? 1 : 0,
      nowDatetime(),
      collection.seq,
    );
  return { status: 200, json: collectionModel(findCollection(ctx.app.store, db, id) as CollectionRecord) };
}

function deleteCollection(ctx: RequestContext) {
  const db = loadDatabase(ctx, pathParam(ctx, "databaseId"));
  const id = pathParam(ctx, "collectionId");
  const collection = findCollection(ctx.app.store, db, id);
  if (!collection) throw new AppwriteError("collection_not_found", undefined, [id]);
  dropCollection(ctx.app.store, collection);
  return { status: 204, empty: true as const };
}

/**
 * Databases and collections (legacy API; REFERENCE §4 "Databases"):
 * `POST/GET /databases`, `GET/PUT/DELETE /databases/{databaseId}`,
 * `POST/GET /databases/{databaseId}/collections`, `GET/PUT/DELETE …/collections/{collectionId}`.
 * API key only (guests lack the `databases.*`/`collections.*` scopes).
 */
export function register(router: Router): void {
  router.add("POST", "/databases", "databases.write", createDatabase);
  router.add("GET", "/databases", "databases.read", listDatabases);
  router.add("GET", "/databases/:databaseId", "databases.read", getDatabase);
  router.add("PUT", "/databases/:databaseId", "databases.write", updateDatabase);
  router.add("DELETE", "/databases/:databaseId", "databases.write", deleteDatabase);
  router.add("POST", "/databases/:databaseId/collections", "collections.write", createCollection);
  router.add("GET", "/databases/:databaseId/collections", "collections.read", listCollections);
  router.add("GET", "/databases/:databaseId/collections/:collectionId", "collections.read", getCollection);
  router.add("PUT", "/databases/:databaseId/collections/:collectionId", "collections.write", updateCollection);
  router.add("DELETE", "/databases/:databaseId/collections/:collectionId", "collections.write", deleteCollection);
}
