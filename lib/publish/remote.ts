/**
 * Reading what Appwrite holds for `studio push` and `pull`: every row of a content table by version key, with
 * a missing schema reported as such, and a one-line description of an Appwrite failure for their reports.
 */
import { AppwriteException, type Models } from "node-appwrite";
import { DATABASE_ID } from "../../schemas/content.ts";
import { documentVersionKey } from "../../schemas/model.ts";
import type { AdminServices } from "../appwrite/client.ts";
import { listPages } from "../appwrite/paginate.ts";
import { AbortError, EXIT } from "../errors.ts";

/** Appwrite has no database or collection to push into: the schema was never applied there. */
export class SchemaMissingError extends AbortError {
  override name = "SchemaMissingError";
  constructor(message: string) {
    super(message, { exitCode: EXIT.backend });
  }
}

/**
 * Every document of a collection, by version key (`documentVersionKey`: the slug for English, `slug@ar` for
 * Arabic), read with cursor pagination (REFERENCE §2).
 * @throws {SchemaMissingError} when the database or collection does not exist.
 */
export async function listBySlug(
  services: AdminServices,
  collectionId: string,
): Promise<Map<string, Models.DefaultRow>> {
  const bySlug = new Map<string, Models.DefaultRow>();
  const pages = listPages((queries) =>
    services.tablesDB
      .listRows({ databaseId: DATABASE_ID, tableId: collectionId, queries, total: false })
      .then((page) => page.rows)
      .catch((error: unknown) => {
        if (
          error instanceof AppwriteException &&
          ["database_not_found", "table_not_found", "collection_not_found"].includes(error.type)
        ) {
          const what = error.type === "database_not_found" ? `database ${DATABASE_ID}` : `collection ${collectionId}`;
          throw new SchemaMissingError(`${services.target.endpoint} has no ${what}: run \`studio setup\` first.`);
        }
        throw error;
      }),
  );
  for await (const documents of pages) for (const doc of documents) bySlug.set(documentVersionKey(doc), doc);
  return bySlug;
}

/** A one-line description of a failure, with Appwrite's error type when there is one. */
export function describeError(error: unknown): string {
  if (error instanceof AppwriteException) return `${error.message}${error.type ? ` (${error.type})` : ""}`;
  return error instanceof Error ? error.message : String(error);
}
