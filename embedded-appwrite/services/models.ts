import type { AttributeRecord, CollectionRecord, DatabaseRecord, IndexRecord } from "../db/catalog.ts";
import { AppwriteError } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { findCollectionPath, findDatabase } from "../db/catalog.ts";

/** Appwrite `Database` model (REFERENCE §3; `type` is `legacy` for `/databases`). */
export function databaseModel(db: DatabaseRecord): Record<string, unknown> {
  return {
    $id: db.id,
    name: db.name,
    $createdAt: db.createdAt,
    $updatedAt: db.updatedAt,
    enabled: db.enabled,
    type: "legacy",
    status: "ready",
  };
}

/**
 * Appwrite `Attribute*` model for one attribute: common fields plus `size`/`encrypt` for
 * strings, `format` for email/url/datetime, `min`/`max` for integers (REFERENCE §3).
 * Status is always `available`: attributes are created synchronously.
 */
export function attributeModel(a: AttributeRecord): Record<string, unknown> {
  const base = {
    key: a.key,
    type: a.type,
    status: "available",
    error: "",
    required: a.required,
    array: a.array,
    $createdAt: a.createdAt,
    $updatedAt: a.updatedAt,
  };
  if (a.type === "double") return { ...base, min: a.range?.min, max: a.range?.max, default: a.default };
  if (a.format === "enum") return { ...base, elements: a.elements ?? [], format: "enum", default: a.default };
  if (a.type === "string" && a.format !== "") return { ...base, format: a.format, default: a.default };
  if (a.type === "string") return { ...base, size: a.size, default: a.default, encrypt: a.encrypt };
  if (a.type === "integer") return { ...base, min: a.min, max: a.max, default: a.default };
  if (a.type === "datetime") return { ...base, format: "datetime", default: a.default };
  return { ...base, default: a.default };
}

/** Appwrite `Index` model; `$id` follows AW's `<databaseSeq>_<collectionSeq>_<key>` shape. */
export function indexModel(collection: CollectionRecord, index: IndexRecord): Record<string, unknown> {
  return {
    $id: `${collection.databaseSeq}_${collection.seq}_${index.key}`,
    $createdAt: index.createdAt,
    $updatedAt: index.updatedAt,
    key: index.key,
    type: index.type,
    status: "available",
    error: "",
    attributes: index.attributes,
    lengths: index.lengths,
    orders: index.orders,
  };
}

const BYTES_MAX = 65535;

function attributeBytes(a: AttributeRecord): number {
  if (a.array) return 20;
  if (a.type === "string") return a.format === "" ? Math.min(a.size, 16381) * 4 + 2 : 2000;
  return a.type === "boolean" ? 1 : 8;
}

/** Appwrite `Collection` model, with its attributes and indexes (REFERENCE §3). */
export function collectionModel(c: CollectionRecord): Record<string, unknown> {
  return {
    $id: c.id,
    $createdAt: c.createdAt,
    $updatedAt: c.updatedAt,
    $permissions: c.permissions,
    databaseId: c.databaseId,
    name: c.name,
    enabled: c.enabled,
    documentSecurity: c.documentSecurity,
    attributes: c.attributes.map(attributeModel),
    indexes: c.indexes.map((i) => indexModel(c, i)),
    bytesMax: BYTES_MAX,
    bytesUsed: c.attributes.reduce((sum, a) => sum + attributeBytes(a), 0),
  };
}

/**
 * Load the database `id`. Missing, or disabled for a non-key caller → 404 `database_not_found`
 * (REFERENCE §4 "A disabled database or collection … is reported as not found").
 */
export function loadDatabase(ctx: RequestContext, id: string): DatabaseRecord {
  const db = findDatabase(ctx.app.store, id);
  if (!db || (!db.enabled && !ctx.caller.isKey)) {
    throw new AppwriteError("database_not_found", undefined, [id]);
  }
  return db;
}

/** Load collection `collectionId` of database `databaseId`; 404 as for `loadDatabase`. */
export function loadCollection(ctx: RequestContext, databaseId: string, collectionId: string): CollectionRecord {
  const { database: db, collection } = findCollectionPath(ctx.app.store, databaseId, collectionId);
  if (!db || (!db.enabled && !ctx.caller.isKey)) {
    throw new AppwriteError("database_not_found", undefined, [databaseId]);
  }
  if (!collection || (!collection.enabled && !ctx.caller.isKey)) {
    throw new AppwriteError("collection_not_found", undefined, [collectionId]);
  }
  return collection;
}
