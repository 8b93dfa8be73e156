/**
 * `studio setup`: applies `model/appwrite.json` (the official Appwrite CLI's format) to any Appwrite
 * endpoint, idempotently. Missing resources are created; collections and buckets whose settings drifted are
 * updated; attributes and indexes are waited for until Appwrite reports them `available` (REFERENCE §3:
 * creation answers 202 `processing`). A second run writes nothing.
 */
import { OrderBy, type Compression, type TablesDB, type TablesDBIndexType } from "node-appwrite";
import type { Models } from "node-appwrite";
import { isNotFound, type AdminServices } from "./client.ts";
import { AbortError, EXIT } from "../errors.ts";
import { VARCHAR_MAX_SIZE } from "../../model/appwrite.ts";

export interface SchemaAttribute {
  key: string;
  type: "string" | "integer" | "boolean" | "datetime";
  format?: "email" | "url" | "datetime" | "enum";
  /** The values of an `enum` attribute. */
  elements?: string[];
  required: boolean;
  array?: boolean;
  size?: number;
  min?: number;
  max?: number;
  default?: string | number | boolean | null;
  /** Plain strings only, as Appwrite's `AttributeString` returns it (and `appwrite pull` writes it). */
  encrypt?: boolean;
}

export interface SchemaIndex {
  key: string;
  type: "key" | "unique" | "fulltext";
  /** Written by `appwrite pull`; ignored when applying. */
  status?: string;
  attributes: string[];
  orders?: ("ASC" | "DESC")[];
}

export interface SchemaCollection {
  $id: string;
  $permissions: string[];
  databaseId: string;
  name: string;
  enabled: boolean;
  documentSecurity: boolean;
  attributes: SchemaAttribute[];
  indexes: SchemaIndex[];
}

export interface SchemaBucket {
  $id: string;
  $permissions: string[];
  fileSecurity: boolean;
  name: string;
  enabled: boolean;
  maximumFileSize: number;
  allowedFileExtensions: string[];
  compression: "none" | "gzip" | "zstd";
  encryption: boolean;
  antivirus: boolean;
}

/** The parts of an `appwrite.json` this product applies. */
export interface AppwriteSchema {
  databases: { $id: string; name: string; enabled?: boolean }[];
  collections: SchemaCollection[];
  buckets: SchemaBucket[];
}

export interface SetupOptions {
  /** Called with one line per change made (e.g. `created attribute ventures.slug`). */
  onChange?: (message: string) => void;
  /**
   * Index keys an older schema had: deleted once the collection's own indexes are available, unless the
   * schema still lists them (decision 0008: `slug_unique` became `slug_locale_unique`).
   */
  retiredIndexes?: readonly string[];
  /** Runs after each collection is applied (data migrations: `backfillLocale`); reports changes with `record`. */
  migrate?: (collectionId: string, record: (message: string) => void) => Promise<void>;
  /** How long to wait for attributes and indexes to become available, in ms (default 60 000). */
  timeoutMs?: number;
}

/** Thrown when Appwrite reports an attribute or index as failed, or it stays unavailable past the timeout. */
export class SchemaSetupError extends AbortError {
  override name = "SchemaSetupError";
  constructor(message: string) {
    super(message, {
      exitCode: EXIT.backend,
      nextSteps:
        "Look at the collection in the Appwrite console (an attribute stuck or failed), fix or delete it, then run studio setup again.",
    });
  }
}

async function getOrNull<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");

/**
 * Applies `schema` through `services` (an API key with the databases, tables and buckets scopes), with
 * Appwrite's TablesDB: each collection of the file becomes a table, each attribute a column.
 * @returns the list of changes made; empty when everything already matched.
 * @throws {SchemaSetupError} when an attribute or index fails or times out; {AppwriteException} on other API errors.
 */
export async function applySchema(
  services: AdminServices,
  schema: AppwriteSchema,
  options: SetupOptions = {},
): Promise<string[]> {
  const changes: string[] = [];
  const record = (message: string) => {
    changes.push(message);
    options.onChange?.(message);
  };
  const { tablesDB, storage } = services;

  for (const database of schema.databases) {
    const existing = await getOrNull(() => tablesDB.get({ databaseId: database.$id }));
    if (!existing) {
      await tablesDB.create({ databaseId: database.$id, name: database.name, enabled: database.enabled ?? true });
      record(`created database ${database.$id}`);
    }
  }

  for (const collection of schema.collections) {
    await applyCollection(services, collection, record, options.timeoutMs ?? 60_000, options.retiredIndexes ?? []);
    await options.migrate?.(collection.$id, record);
  }

  for (const bucket of schema.buckets) {
    const existing = await getOrNull(() => storage.getBucket({ bucketId: bucket.$id }));
    const settings = {
      bucketId: bucket.$id,
      name: bucket.name,
      permissions: bucket.$permissions,
      fileSecurity: bucket.fileSecurity,
      enabled: bucket.enabled,
      maximumFileSize: bucket.maximumFileSize,
      allowedFileExtensions: bucket.allowedFileExtensions,
      compression: bucket.compression as Compression,
      encryption: bucket.encryption,
      antivirus: bucket.antivirus,
    };
    if (!existing) {
      await storage.createBucket(settings);
      record(`created bucket ${bucket.$id}`);
    } else if (bucketDrifted(existing, bucket)) {
      await storage.updateBucket(settings);
      record(`updated bucket ${bucket.$id}`);
    }
  }
  return changes;
}

function bucketDrifted(existing: Models.Bucket, wanted: SchemaBucket): boolean {
  return (
    existing.name !== wanted.name ||
    existing.fileSecurity !== wanted.fileSecurity ||
    existing.enabled !== wanted.enabled ||
    existing.maximumFileSize !== wanted.maximumFileSize ||
    !sameSet(existing.allowedFileExtensions, wanted.allowedFileExtensions) ||
    !sameSet(existing.$permissions, wanted.$permissions)
  );
}

async function applyCollection(
  { tablesDB }: AdminServices,
  collection: SchemaCollection,
  record: (message: string) => void,
  timeoutMs: number,
  retired: readonly string[],
): Promise<void> {
  const ids = { databaseId: collection.databaseId, tableId: collection.$id };
  const existing = await getOrNull(() => tablesDB.getTable(ids));
  const settings = {
    ...ids,
    name: collection.name,
    permissions: collection.$permissions,
    rowSecurity: collection.documentSecurity,
    enabled: collection.enabled,
  };
  if (!existing) {
    await tablesDB.createTable(settings);
    record(`created collection ${collection.$id}`);
  } else if (
    existing.name !== collection.name ||
    existing.rowSecurity !== collection.documentSecurity ||
    existing.enabled !== collection.enabled ||
    !sameSet(existing.$permissions, collection.$permissions)
  ) {
    await tablesDB.updateTable(settings);
    record(`updated collection ${collection.$id}`);
  }

  const columns = await tablesDB.listColumns(ids);
  const haveAttributes = new Set(columns.columns.map((a) => (a as { key: string }).key));
  for (const attribute of collection.attributes) {
    if (haveAttributes.has(attribute.key)) continue;
    await createColumn(tablesDB, ids, attribute);
    record(`created attribute ${collection.$id}.${attribute.key}`);
  }
  await waitAvailable(`attributes of ${collection.$id}`, timeoutMs, async () =>
    (await tablesDB.listColumns(ids)).columns.map((a) => a as { key: string; status: string; error?: string }),
  );

  const indexes = await tablesDB.listIndexes(ids);
  const haveIndexes = new Set(indexes.indexes.map((i) => i.key));
  for (const index of collection.indexes) {
    if (haveIndexes.has(index.key)) continue;
    await tablesDB.createIndex({
      ...ids,
      key: index.key,
      type: index.type as TablesDBIndexType,
      columns: index.attributes,
      orders: index.orders?.map((o) => (o === "DESC" ? OrderBy.Desc : OrderBy.Asc)),
    });
    record(`created index ${collection.$id}.${index.key}`);
  }
  await waitAvailable(`indexes of ${collection.$id}`, timeoutMs, async () => (await tablesDB.listIndexes(ids)).indexes);
  for (const key of retired) {
    if (!haveIndexes.has(key) || collection.indexes.some((i) => i.key === key)) continue;
    await tablesDB.deleteIndex({ ...ids, key });
    record(`deleted index ${collection.$id}.${key} (replaced)`);
  }
}

export { VARCHAR_MAX_SIZE };

/** Creates the TablesDB column that `attribute` (a `model/appwrite.json` attribute) describes. */
async function createColumn(
  tablesDB: TablesDB,
  ids: { databaseId: string; tableId: string },
  attribute: SchemaAttribute,
): Promise<void> {
  const common = { ...ids, key: attribute.key, required: attribute.required, array: attribute.array ?? false };
  const xdefault = attribute.required ? undefined : (attribute.default ?? undefined);
  switch (attribute.type) {
    case "string":
      if (attribute.format === "enum") {
        await tablesDB.createEnumColumn({
          ...common,
          elements: attribute.elements ?? [],
          xdefault: xdefault as string | undefined,
        });
      } else if (attribute.format === "email") {
        await tablesDB.createEmailColumn({ ...common, xdefault: xdefault as string | undefined });
      } else if (attribute.format === "url") {
        await tablesDB.createUrlColumn({ ...common, xdefault: xdefault as string | undefined });
      } else {
        const size = attribute.size ?? 256;
        const string = {
          ...common,
          size,
          xdefault: xdefault as string | undefined,
          encrypt: attribute.encrypt ?? false,
        };
        if (size <= VARCHAR_MAX_SIZE) {
          await tablesDB.createVarcharColumn(string);
        } else {
          // No 1.9 column keeps a size above varchar's (text is 65,535, mediumtext 16,777,215): until
          // `model/appwrite.json` names the 1.9 type, the size the file states is kept with the legacy
          // string column, so `appwrite pull collections` writes the file back unchanged (the one deprecated
          // call left, allowed here alone).
          // oxlint-disable-next-line typescript/no-deprecated -- see above: no 1.9 column keeps this size
          await tablesDB.createStringColumn(string);
        }
      }
      return;
    case "datetime":
      await tablesDB.createDatetimeColumn({ ...common, xdefault: xdefault as string | undefined });
      return;
    case "integer":
      await tablesDB.createIntegerColumn({
        ...common,
        min: attribute.min,
        max: attribute.max,
        xdefault: xdefault as number | undefined,
      });
      return;
    case "boolean":
      await tablesDB.createBooleanColumn({ ...common, xdefault: xdefault as boolean | undefined });
      return;
  }
}

async function waitAvailable(
  what: string,
  timeoutMs: number,
  load: () => Promise<{ key: string; status: string; error?: string }[]>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const items = await load();
    const failed = items.find((i) => i.status === "failed" || i.status === "stuck");
    if (failed)
      throw new SchemaSetupError(`Appwrite could not create ${failed.key} (${what}): ${failed.error || failed.status}`);
    if (items.every((i) => i.status === "available")) return;
    if (Date.now() > deadline) {
      const pending = items.filter((i) => i.status !== "available").map((i) => `${i.key}=${i.status}`);
      throw new SchemaSetupError(
        `Timed out after ${timeoutMs} ms waiting for ${what} to become available: ${pending.join(", ")}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
