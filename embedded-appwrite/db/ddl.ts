import { attributeColumn, documentTable } from "./catalog.ts";
import type { AttributeRecord, CollectionRecord, DatabaseRecord, IndexRecord } from "./catalog.ts";
import type { Store } from "./store.ts";

/** FTS5 table backing fulltext index `key` of collection `seq` (names are validated keys). */
export function fulltextTable(collectionSeq: number, key: string): string {
  if (!/^[A-Za-z0-9_]{1,36}$/.test(key)) throw new Error(`unsafe index key ${key}`);
  return `"fts_${Math.trunc(collectionSeq)}_${key}"`;
}

function systemColumn(key: string): string {
  if (key === "$id") return "_id";
  if (key === "$createdAt") return "_createdAt";
  if (key === "$updatedAt") return "_updatedAt";
  return attributeColumn(key);
}

/**
 * Insert a collection and create its document table (`_seq` insertion order, `_id` unique,
 * `_createdAt`/`_updatedAt` indexed, `_permissions` JSON and `_read` JSON of read roles).
 */
export function insertCollection(
  store: Store,
  database: DatabaseRecord,
  fields: { id: string; name: string; enabled: boolean; documentSecurity: boolean; permissions: string[] },
  now: string,
): void {
  store.transaction(() => {
    const result = store
      .stmt(
        "INSERT INTO collections (database_seq, id, name, enabled, document_security, permissions, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(
        database.seq,
        fields.id,
        fields.name,
        fields.enabled ? 1 : 0,
        fields.documentSecurity ? 1 : 0,
        JSON.stringify(fields.permissions),
        now,
        now,
      );
    const seq = Number(result.lastInsertRowid);
    const table = documentTable(seq);
    store.exec(`
      CREATE TABLE ${table} (
        _seq INTEGER PRIMARY KEY AUTOINCREMENT,
        _id TEXT NOT NULL UNIQUE,
        _createdAt TEXT NOT NULL,
        _updatedAt TEXT NOT NULL,
        _permissions TEXT NOT NULL,
        _read TEXT NOT NULL
      );
      CREATE INDEX "doc_${seq}_created" ON ${table} (_createdAt);
      CREATE INDEX "doc_${seq}_updated" ON ${table} (_updatedAt);
    `);
  });
}

/** Drop a collection: its fulltext tables, its document table and its metadata (attributes and indexes cascade). */
export function dropCollection(store: Store, collection: CollectionRecord): void {
  store.transaction(() => {
    for (const index of collection.indexes) if (index.type === "fulltext") dropIndex(store, collection, index);
    store.exec(`DROP TABLE IF EXISTS ${documentTable(collection.seq)}`);
    store.stmt("DELETE FROM collections WHERE seq = ?").run(collection.seq);
  });
}

/** What the `min` column holds: an integer's minimum, a double's, or an enum's elements (JSON). */
function storedMin(attribute: AttributeRecord): string | null {
  if (attribute.format === "enum") return JSON.stringify(attribute.elements ?? []);
  if (attribute.range) return String(attribute.range.min);
  return attribute.min === null ? null : attribute.min.toString();
}

/** What the `max` column holds: an integer's or a double's maximum. */
function storedMax(attribute: AttributeRecord): string | null {
  if (attribute.range) return String(attribute.range.max);
  return attribute.max === null ? null : attribute.max.toString();
}

/** SQLite column type of an attribute (arrays are JSON text). */
function sqlType(attribute: AttributeRecord): string {
  if (attribute.array) return "TEXT";
  if (attribute.type === "double") return "REAL";
  return attribute.type === "integer" || attribute.type === "boolean" ? "INTEGER" : "TEXT";
}

/** Add an attribute: its metadata row and a column on the document table. */
export function insertAttribute(store: Store, collection: CollectionRecord, attribute: AttributeRecord): void {
  store.transaction(() => {
    store
      .stmt(
        "INSERT INTO attributes (collection_seq, key, position, type, format, size, required, array, default_json, min, max, encrypt, created_at, updated_at) VALUES (?, ?, (SELECT COUNT(*) FROM attributes WHERE collection_seq = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(
        collection.seq,
        attribute.key,
        collection.seq,
        attribute.type,
        attribute.format,
        attribute.size,
        attribute.required ? 1 : 0,
        attribute.array ? 1 : 0,
        attribute.default === null ? null : JSON.stringify(attribute.default),
        storedMin(attribute),
        storedMax(attribute),
        attribute.encrypt ? 1 : 0,
        attribute.createdAt,
        attribute.updatedAt,
      );
    store.exec(
      `ALTER TABLE ${documentTable(collection.seq)} ADD COLUMN ${attributeColumn(attribute.key)} ${sqlType(attribute)}`,
    );
  });
}

/**
 * Change an attribute's definition (`required`, `default`, `size`, `min`, `max`) and, when
 * `newKey` differs, rename it and its column. The caller checks index dependencies.
 */
export function updateAttribute(
  store: Store,
  collection: CollectionRecord,
  oldKey: string,
  attribute: AttributeRecord,
): void {
  store.transaction(() => {
    store
      .stmt(
        "UPDATE attributes SET key = ?, size = ?, required = ?, default_json = ?, min = ?, max = ?, updated_at = ? WHERE collection_seq = ? AND key = ?",
      )
      .run(
        attribute.key,
        attribute.size,
        attribute.required ? 1 : 0,
        attribute.default === null ? null : JSON.stringify(attribute.default),
        storedMin(attribute),
        storedMax(attribute),
        attribute.updatedAt,
        collection.seq,
        oldKey,
      );
    if (oldKey !== attribute.key) {
      store.exec(
        `ALTER TABLE ${documentTable(collection.seq)} RENAME COLUMN ${attributeColumn(oldKey)} TO ${attributeColumn(attribute.key)}`,
      );
    }
  });
}

/** Remove an attribute and its column. The caller checks that no index uses it. */
export function dropAttribute(store: Store, collection: CollectionRecord, key: string): void {
  store.transaction(() => {
    store.stmt("DELETE FROM attributes WHERE collection_seq = ? AND key = ?").run(collection.seq, key);
    store.exec(`ALTER TABLE ${documentTable(collection.seq)} DROP COLUMN ${attributeColumn(key)}`);
  });
}

function createFulltext(store: Store, collection: CollectionRecord, index: IndexRecord): void {
  const fts = fulltextTable(collection.seq, index.key);
  const name = fts.slice(1, -1);
  const table = documentTable(collection.seq);
  const col = systemColumn(index.attributes[0] ?? "");
  store.exec(`
    CREATE VIRTUAL TABLE ${fts} USING fts5(value, tokenize = 'unicode61');
    INSERT INTO ${fts} (rowid, value) SELECT _seq, ${col} FROM ${table} WHERE ${col} IS NOT NULL;
    CREATE TRIGGER "${name}_ai" AFTER INSERT ON ${table} WHEN new.${col} IS NOT NULL BEGIN
      INSERT INTO ${fts} (rowid, value) VALUES (new._seq, new.${col});
    END;
    CREATE TRIGGER "${name}_ad" AFTER DELETE ON ${table} BEGIN
      DELETE FROM ${fts} WHERE rowid = old._seq;
    END;
    CREATE TRIGGER "${name}_au" AFTER UPDATE OF ${col} ON ${table} BEGIN
      DELETE FROM ${fts} WHERE rowid = old._seq;
      INSERT INTO ${fts} (rowid, value) SELECT new._seq, new.${col} WHERE new.${col} IS NOT NULL;
    END;
  `);
}

/**
 * Add an index: its metadata row and a real SQLite index (`UNIQUE` for `unique`), or for
 * `fulltext` an FTS5 table kept in step by triggers. Throws SQLite's constraint error when
 * existing documents violate a unique index.
 */
export function insertIndex(store: Store, collection: CollectionRecord, index: IndexRecord): void {
  const columns = index.attributes
    .map((key, i) => `${systemColumn(key)} ${(index.orders[i] ?? "ASC") === "DESC" ? "DESC" : "ASC"}`)
    .join(", ");
  store.transaction(() => {
    store
      .stmt(
        "INSERT INTO indexes (collection_seq, key, position, type, attributes, orders, lengths, created_at, updated_at) VALUES (?, ?, (SELECT COUNT(*) FROM indexes WHERE collection_seq = ?), ?, ?, ?, ?, ?, ?)",
      )
      .run(
        collection.seq,
        index.key,
        collection.seq,
        index.type,
        JSON.stringify(index.attributes),
        JSON.stringify(index.orders),
        JSON.stringify(index.lengths),
        index.createdAt,
        index.updatedAt,
      );
    if (index.type === "fulltext") {
      // Only a single-attribute fulltext index can serve `search` (REFERENCE §2).
      if (index.attributes.length === 1) createFulltext(store, collection, index);
      return;
    }
    store.exec(
      `CREATE ${index.type === "unique" ? "UNIQUE " : ""}INDEX "ix_${collection.seq}_${index.key}" ON ${documentTable(collection.seq)} (${columns})`,
    );
  });
}

/** Drop an index (or a fulltext index's FTS table and triggers) and its metadata row. */
export function dropIndex(store: Store, collection: CollectionRecord, index: IndexRecord): void {
  store.transaction(() => {
    store.stmt("DELETE FROM indexes WHERE collection_seq = ? AND key = ?").run(collection.seq, index.key);
    if (index.type === "fulltext") {
      const fts = fulltextTable(collection.seq, index.key);
      const name = fts.slice(1, -1);
      store.exec(`
        DROP TRIGGER IF EXISTS "${name}_ai";
        DROP TRIGGER IF EXISTS "${name}_ad";
        DROP TRIGGER IF EXISTS "${name}_au";
        DROP TABLE IF EXISTS ${fts};
      `);
      return;
    }
    store.exec(`DROP INDEX IF EXISTS "ix_${collection.seq}_${index.key}"`);
  });
}
