import type { Store } from "../db/store.ts";
import { rename } from "./tables-db-names.ts";

/**
 * What TablesDB declares and the legacy store cannot express (ARCHITECTURE decision 10), kept in a side table
 * `tablesdb_types`: a database created through TablesDB reports `type: "tablesdb"`, and a
 * `varchar`/`text`/`mediumtext`/`longtext` column (stored as a string attribute) reports its declared type.
 * Entries carry the resource's `$createdAt`, so a stale entry (resource deleted, ID reused) is ignored. With
 * them, the legacy models become TablesDB's `Database`, `Table` and `Column*` models.
 */

type Json = Record<string, unknown>;

/** A table's keys beside a collection's, and an index's. */
const TABLE_KEYS: Record<string, string> = { documentSecurity: "rowSecurity", attributes: "columns" };
export const INDEX_KEYS: Record<string, string> = { attributes: "columns" };

const prepared = new WeakSet<Store>();

function typesTable(store: Store): Store {
  if (!prepared.has(store)) {
    store.exec(
      "CREATE TABLE IF NOT EXISTS tablesdb_types (ref TEXT PRIMARY KEY, created_at TEXT NOT NULL, type TEXT NOT NULL)",
    );
    prepared.add(store);
  }
  return store;
}

/** Records that `ref` (created at `createdAt`) was declared as `type` through TablesDB. */
export function recordType(store: Store, ref: string, createdAt: unknown, type: string): void {
  typesTable(store)
    .stmt("INSERT OR REPLACE INTO tablesdb_types (ref, created_at, type) VALUES (?, ?, ?)")
    .run(ref, String(createdAt), type);
}

/** Declared types of refs starting with `prefix`, as `ref → {createdAt, type}`. */
export function typesUnder(store: Store, prefix: string): Map<string, { createdAt: string; type: string }> {
  const rows = typesTable(store)
    .stmt("SELECT ref, created_at, type FROM tablesdb_types WHERE substr(ref, 1, length(?)) = ?")
    .all(prefix, prefix) as { ref: string; created_at: string; type: string }[];
  return new Map(rows.map((r) => [r.ref, { createdAt: r.created_at, type: r.type }]));
}

function declared(
  types: Map<string, { createdAt: string; type: string }>,
  ref: string,
  createdAt: unknown,
): string | undefined {
  const entry = types.get(ref);
  return entry && entry.createdAt === createdAt ? entry.type : undefined;
}

/** The side table's ref of a database, and the prefix of a table's columns' refs. */
export const databaseRef = (databaseId: string) => `database:${databaseId}`;
export const columnPrefix = (databaseId: string, tableId: string) => `column:${databaseId}/${tableId}/`;

/** A legacy Database model as TablesDB's: `type` is `tablesdb` when created through TablesDB, else `legacy`. */
export function databaseModel(store: Store, db: Json): Json {
  const type = declared(
    typesUnder(store, databaseRef(String(db["$id"]))),
    databaseRef(String(db["$id"])),
    db["$createdAt"],
  );
  return { ...db, type: type ?? "legacy" };
}

/** A legacy attribute model as a TablesDB column: its declared text type, and `size` only for `varchar`. */
export function columnModel(
  types: Map<string, { createdAt: string; type: string }>,
  prefix: string,
  attribute: Json,
): Json {
  const type = declared(types, prefix + String(attribute["key"]), attribute["$createdAt"]);
  if (type === undefined) return attribute;
  const column: Json = { ...attribute, type };
  if (type !== "varchar") delete column["size"];
  return column;
}

/** A legacy Collection model as TablesDB's Table: renamed keys, columns with their declared types. */
export function tableModel(store: Store, collection: Json): Json {
  const prefix = columnPrefix(String(collection["databaseId"]), String(collection["$id"]));
  const types = typesUnder(store, prefix);
  const table = rename(collection, TABLE_KEYS);
  table["columns"] = (table["columns"] as Json[]).map((a) => columnModel(types, prefix, a));
  table["indexes"] = (table["indexes"] as Json[]).map((i) => rename(i, INDEX_KEYS));
  return table;
}
