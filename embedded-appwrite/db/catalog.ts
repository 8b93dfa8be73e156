import type { Store } from "./store.ts";

/** A database record (Appwrite `Database` model, REFERENCE §3). */
export interface DatabaseRecord {
  seq: number;
  id: string;
  name: string;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Attribute types this emulator stores (email/url/enum are `string` with a `format`; float is `double`). */
export type AttributeType = "string" | "integer" | "double" | "boolean" | "datetime";

/** An attribute definition (Appwrite `Attribute*` models, REFERENCE §3). */
export interface AttributeRecord {
  key: string;
  type: AttributeType;
  format: "" | "email" | "url" | "enum";
  size: number;
  required: boolean;
  array: boolean;
  default: unknown;
  min: bigint | null;
  max: bigint | null;
  /** Allowed values of an `enum` string (stored as JSON in the `min` column). */
  elements?: string[];
  /** Bounds of a `double` (stored as decimal text in the `min`/`max` columns). */
  range?: { min: number; max: number };
  encrypt: boolean;
  createdAt: string;
  updatedAt: string;
}

/** An index definition (Appwrite `Index` model). */
export interface IndexRecord {
  key: string;
  type: "key" | "unique" | "fulltext";
  attributes: string[];
  orders: string[];
  lengths: number[];
  createdAt: string;
  updatedAt: string;
}

/** A collection with its attributes and indexes (Appwrite `Collection` model). */
export interface CollectionRecord {
  seq: number;
  databaseSeq: number;
  databaseId: string;
  id: string;
  name: string;
  enabled: boolean;
  documentSecurity: boolean;
  permissions: string[];
  createdAt: string;
  updatedAt: string;
  attributes: AttributeRecord[];
  indexes: IndexRecord[];
}

interface DatabaseRow {
  seq: number;
  id: string;
  name: string;
  enabled: number;
  created_at: string;
  updated_at: string;
}

/** Map a `databases` row to a record. */
export function toDatabase(row: DatabaseRow): DatabaseRecord {
  return {
    seq: row.seq,
    id: row.id,
    name: row.name,
    enabled: row.enabled === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The database with public ID `id`, or `undefined`. */
export function findDatabase(store: Store, id: string): DatabaseRecord | undefined {
  return store.cached(`database:${id}`, () => {
    const row = store.stmt("SELECT * FROM databases WHERE id = ?").get(id) as DatabaseRow | undefined;
    return row ? toDatabase(row) : undefined;
  });
}

/** Insert a database; the caller checks the ID is free. */
export function insertDatabase(store: Store, id: string, name: string, enabled: boolean, now: string): void {
  store
    .stmt("INSERT INTO databases (id, name, enabled, created_at, updated_at) VALUES (?, ?, ?, ?, ?)")
    .run(id, name, enabled ? 1 : 0, now, now);
}

/** Name of the SQLite table holding a collection's documents (from its internal sequence). */
export function documentTable(collectionSeq: number): string {
  return `"doc_${Math.trunc(collectionSeq)}"`;
}

/** Quoted column name of attribute `key` (keys are validated to `[A-Za-z0-9_]{1,36}`). */
export function attributeColumn(key: string): string {
  if (!/^[A-Za-z0-9_]{1,36}$/.test(key)) throw new Error(`unsafe attribute key ${key}`);
  return `"a_${key}"`;
}

interface CollectionRow {
  seq: number;
  database_seq: number;
  id: string;
  name: string;
  enabled: number;
  document_security: number;
  permissions: string;
  created_at: string;
  updated_at: string;
}

interface AttributeRow {
  key: string;
  type: AttributeType;
  format: "" | "email" | "url" | "enum";
  size: number;
  required: number;
  array: number;
  default_json: string | null;
  min: string | null;
  max: string | null;
  encrypt: number;
  created_at: string;
  updated_at: string;
}

interface IndexRow {
  key: string;
  type: "key" | "unique" | "fulltext";
  attributes: string;
  orders: string;
  lengths: string;
  created_at: string;
  updated_at: string;
}

/** Map a `collections` row (plus its attributes and indexes) to a record. */
export function toCollection(store: Store, row: CollectionRow, databaseId: string): CollectionRecord {
  const attributes = (
    store.stmt("SELECT * FROM attributes WHERE collection_seq = ? ORDER BY position").all(row.seq) as AttributeRow[]
  ).map((a) => ({
    key: a.key,
    type: a.type,
    format: a.format,
    size: a.size,
    required: a.required === 1,
    array: a.array === 1,
    default: a.default_json === null ? null : (JSON.parse(a.default_json) as unknown),
    min: a.min === null || a.type !== "integer" ? null : BigInt(a.min),
    max: a.max === null || a.type !== "integer" ? null : BigInt(a.max),
    ...(a.format === "enum" ? { elements: JSON.parse(a.min ?? "[]") as string[] } : {}),
    ...(a.type === "double" ? { range: { min: Number(a.min), max: Number(a.max) } } : {}),
    encrypt: a.encrypt === 1,
    createdAt: a.created_at,
    updatedAt: a.updated_at,
  }));
  const indexes = (
    store.stmt("SELECT * FROM indexes WHERE collection_seq = ? ORDER BY position").all(row.seq) as IndexRow[]
  ).map((i) => ({
    key: i.key,
    type: i.type,
    attributes: JSON.parse(i.attributes) as string[],
    orders: JSON.parse(i.orders) as string[],
    lengths: JSON.parse(i.lengths) as number[],
    createdAt: i.created_at,
    updatedAt: i.updated_at,
  }));
  return {
    seq: row.seq,
    databaseSeq: row.database_seq,
    databaseId,
    id: row.id,
    name: row.name,
    enabled: row.enabled === 1,
    documentSecurity: row.document_security === 1,
    permissions: JSON.parse(row.permissions) as string[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    attributes,
    indexes,
  };
}

/** The collection `id` in `database`, or `undefined` (memoised until the schema changes: `Store.cached`). */
export function findCollection(store: Store, database: DatabaseRecord, id: string): CollectionRecord | undefined {
  return store.cached(`collection:${database.seq}:${id}`, () => {
    const row = store.stmt("SELECT * FROM collections WHERE database_seq = ? AND id = ?").get(database.seq, id) as
      CollectionRow | undefined;
    return row ? toCollection(store, row, database.id) : undefined;
  });
}

/**
 * The database `databaseId` and its collection `collectionId` (either `undefined` when missing), found
 * with one `Store.cached` lookup (one schema-version read) instead of one per record.
 */
export function findCollectionPath(
  store: Store,
  databaseId: string,
  collectionId: string,
): { database?: DatabaseRecord; collection?: CollectionRecord } {
  const key = `collection-path:${JSON.stringify([databaseId, collectionId])}`;
  const found = store.cached(key, () => {
    const database = findDatabase(store, databaseId);
    return { database, collection: database && findCollection(store, database, collectionId) };
  });
  return found ?? {};
}
