/**
 * Whether an Appwrite installation has the schema the code expects (issue #32 item 1: the readiness check),
 * read-only: every database, table, column (available), index and bucket of `model/appwrite.json` exists.
 * Settings that drifted (a table's name, a bucket's extensions) are `studio setup`'s to fix and not reported:
 * the site still runs with them.
 */
import { isNotFound, type AdminServices } from "./client.ts";
import type { AppwriteSchema } from "./setup.ts";

/**
 * What `schema` has that the installation behind `services` lacks, one line each (`table ventures: column
 * locale missing`); empty when it is current. Needs an API key with the databases, tables and buckets read
 * scopes (`studio setup`'s key has them).
 * @throws {AppwriteException} when Appwrite cannot be read (other than a missing resource: a 404 is a line).
 */
export async function schemaDifferences(
  services: Pick<AdminServices, "tablesDB" | "storage">,
  schema: AppwriteSchema,
): Promise<string[]> {
  const missing: string[] = [];
  const found = async (what: string, read: () => Promise<unknown>) => {
    try {
      await read();
      return true;
    } catch (error) {
      if (!isNotFound(error)) throw error;
      missing.push(`${what} missing`);
      return false;
    }
  };
  const { tablesDB, storage } = services;
  for (const database of schema.databases)
    await found(`database ${database.$id}`, () => tablesDB.get({ databaseId: database.$id }));
  for (const collection of schema.collections) {
    const ids = { databaseId: collection.databaseId, tableId: collection.$id };
    if (!(await found(`table ${collection.$id}`, () => tablesDB.getTable(ids)))) continue;
    const columns = new Map(
      (await tablesDB.listColumns(ids)).columns.map((c) => {
        const column = c as { key: string; status: string };
        return [column.key, column.status] as const;
      }),
    );
    for (const attribute of collection.attributes) {
      const status = columns.get(attribute.key);
      if (status === undefined) missing.push(`table ${collection.$id}: column ${attribute.key} missing`);
      else if (status !== "available") missing.push(`table ${collection.$id}: column ${attribute.key} ${status}`);
    }
    const indexes = new Set((await tablesDB.listIndexes(ids)).indexes.map((index) => index.key));
    for (const index of collection.indexes) {
      if (!indexes.has(index.key)) missing.push(`table ${collection.$id}: index ${index.key} missing`);
    }
  }
  for (const bucket of schema.buckets)
    await found(`bucket ${bucket.$id}`, () => storage.getBucket({ bucketId: bucket.$id }));
  return missing;
}
