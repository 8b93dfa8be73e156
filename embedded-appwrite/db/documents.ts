import type { FieldSpec, QuerySchema } from "../queries.ts";
import { fromColumn, toColumn } from "../values.ts";
import { attributeColumn, documentTable } from "./catalog.ts";
import type { CollectionRecord } from "./catalog.ts";
import { fulltextTable } from "./ddl.ts";
import type { Store } from "./store.ts";

/** A stored document: system fields plus attribute values as Appwrite returns them. */
export interface DocumentRecord {
  seq: number;
  id: string;
  createdAt: string;
  updatedAt: string;
  permissions: string[];
  data: Record<string, unknown>;
}

/** A raw row of a document table. */
export type DocumentRow = Record<string, unknown> & {
  _seq: number;
  _id: string;
  _createdAt: string;
  _updatedAt: string;
  _permissions: string;
};

/** Column list selecting every system field and attribute of `collection`. */
export function documentColumns(collection: CollectionRecord): string {
  return [
    "_seq",
    "_id",
    "_createdAt",
    "_updatedAt",
    "_permissions",
    ...collection.attributes.map((a) => attributeColumn(a.key)),
  ].join(", ");
}

/** Convert a document-table row to a record. */
export function toDocument(collection: CollectionRecord, row: DocumentRow): DocumentRecord {
  const data: Record<string, unknown> = {};
  for (const attribute of collection.attributes) {
    data[attribute.key] = fromColumn(attribute, row[`a_${attribute.key}`]);
  }
  return {
    seq: row._seq,
    id: row._id,
    createdAt: row._createdAt,
    updatedAt: row._updatedAt,
    permissions: JSON.parse(row._permissions) as string[],
    data,
  };
}

/** Query schema of a collection: its attributes plus `$id`, `$createdAt`, `$updatedAt`, `$sequence`. */
export function documentQuerySchema(collection: CollectionRecord): QuerySchema {
  const fields = new Map<string, FieldSpec>([
    ["$id", { column: "_id", type: "string" }],
    ["$createdAt", { column: "_createdAt", type: "datetime" }],
    ["$updatedAt", { column: "_updatedAt", type: "datetime" }],
    ["$sequence", { column: "_seq", type: "integer" }],
  ]);
  for (const a of collection.attributes) {
    const index = collection.indexes.find(
      (i) => i.type === "fulltext" && i.attributes.length === 1 && i.attributes[0] === a.key,
    );
    const fulltext = index ? { table: fulltextTable(collection.seq, index.key), rowid: "_seq" } : undefined;
    fields.set(a.key, { column: attributeColumn(a.key), type: a.type, array: a.array, fulltext });
  }
  return { fields, selectable: true };
}

/**
 * The SQL of one query per collection record, built once: records are immutable and replaced when the schema
 * changes (`Store.cached`), so a record's SQL never goes stale (issue #33 item 4: the column list was joined
 * again for every read and write).
 */
function sqlFor(cache: WeakMap<CollectionRecord, string>, collection: CollectionRecord, build: () => string): string {
  let sql = cache.get(collection);
  if (sql === undefined) {
    sql = build();
    cache.set(collection, sql);
  }
  return sql;
}
const findSql = new WeakMap<CollectionRecord, string>();
const insertSql = new WeakMap<CollectionRecord, string>();
const updateSql = new WeakMap<CollectionRecord, string>();

/** `SELECT` of every column of document `?` (by `_id`) of `collection`, in `documentColumns` order. */
export function findDocumentSql(collection: CollectionRecord): string {
  return sqlFor(
    findSql,
    collection,
    () => `SELECT ${documentColumns(collection)} FROM ${documentTable(collection.seq)} WHERE _id = ?`,
  );
}

/** The document `id`, or `undefined`. */
export function findDocument(store: Store, collection: CollectionRecord, id: string): DocumentRecord | undefined {
  const row = store.stmt(findDocumentSql(collection)).raw(false).get(id) as DocumentRow | undefined;
  return row ? toDocument(collection, row) : undefined;
}

function readRoles(permissions: readonly string[]): string {
  return JSON.stringify(permissions.filter((p) => p.startsWith('read("')).map((p) => p.slice(6, -2)));
}

/**
 * Insert a validated document. Throws better-sqlite3's `SQLITE_CONSTRAINT_UNIQUE` error on a
 * duplicate `$id` or a unique-index clash (the caller maps it to an Appwrite error).
 */
export function insertDocument(store: Store, collection: CollectionRecord, doc: Omit<DocumentRecord, "seq">): void {
  const sql = sqlFor(insertSql, collection, () => {
    const columns = [
      "_id",
      "_createdAt",
      "_updatedAt",
      "_permissions",
      "_read",
      ...collection.attributes.map((a) => attributeColumn(a.key)),
    ];
    return `INSERT INTO ${documentTable(collection.seq)} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
  });
  const values = [
    doc.id,
    doc.createdAt,
    doc.updatedAt,
    JSON.stringify(doc.permissions),
    readRoles(doc.permissions),
    ...collection.attributes.map((a) => toColumn(a, doc.data[a.key])),
  ];
  store.stmt(sql).run(...values);
}

/** Replace every field of the stored document `doc.seq` (same errors as `insertDocument`). */
export function updateDocument(store: Store, collection: CollectionRecord, doc: DocumentRecord): void {
  const sql = sqlFor(updateSql, collection, () => {
    const assignments = [
      "_updatedAt = ?",
      "_permissions = ?",
      "_read = ?",
      ...collection.attributes.map((a) => `${attributeColumn(a.key)} = ?`),
    ];
    return `UPDATE ${documentTable(collection.seq)} SET ${assignments.join(", ")} WHERE _seq = ?`;
  });
  store
    .stmt(sql)
    .run(
      doc.updatedAt,
      JSON.stringify(doc.permissions),
      readRoles(doc.permissions),
      ...collection.attributes.map((a) => toColumn(a, doc.data[a.key])),
      doc.seq,
    );
}

/** Delete the stored document with internal sequence `seq`. */
export function deleteDocument(store: Store, collection: CollectionRecord, seq: number): void {
  store.stmt(`DELETE FROM ${documentTable(collection.seq)} WHERE _seq = ?`).run(seq);
}
