/**
 * `studio setup` for this product: `applySchema` plus the migrations of the content model (decision 0008).
 * An installation from before language versions gets the `locale` and provenance columns and the
 * (`slug`, `locale`) unique index from the schema; then every content document without a locale is marked
 * English (`locale: "en"`), and the retired `slug_unique` index is removed; image files named before uploads
 * were named after their ids are renamed (`neutralizeImageNames`); submissions from before the inbox get the
 * state `new` and the studio team's permissions (`backfillSubmissions`, issue #31). Idempotent: a second run finds nothing to
 * change.
 */
import { Query } from "node-appwrite";
import { CONTENT_MODEL, DEFAULT_CONTENT_LOCALE, RETIRED_INDEXES, SUBMISSION_MODEL } from "../../model/model.ts";
import { DATABASE_ID, IMAGES_BUCKET_ID } from "../../model/content.ts";
import type { AdminServices } from "./client.ts";
import { neutralizeImageNames } from "./image-names.ts";
import { listPages } from "./paginate.ts";
import { applySchema, type AppwriteSchema, type SetupOptions } from "./setup.ts";
import { backfillSubmissions } from "./submissions.ts";

const CONTENT_COLLECTIONS = new Set<string>(Object.values(CONTENT_MODEL).map((spec) => spec.collectionId));
const SUBMISSION_TABLES = new Set<string>(Object.values(SUBMISSION_MODEL).map((spec) => spec.collectionId));

/**
 * Sets `locale` to the default locale (`en`) on every document of a content collection that has none
 * (documents written before the column existed: Appwrite adds a column without filling it in).
 * @returns how many documents were updated.
 * @throws {AppwriteException} when Appwrite refuses a read or a write.
 */
export async function backfillLocale(services: AdminServices, collectionId: string): Promise<number> {
  const { tablesDB } = services;
  let updated = 0;
  // Each page is re-read from the start: updated documents leave the `isNull` filter, so no cursor is needed.
  for (;;) {
    const pages = listPages(
      (queries) =>
        tablesDB
          .listRows({ databaseId: DATABASE_ID, tableId: collectionId, queries, total: false })
          .then((page) => page.rows),
      { queries: [Query.isNull("locale"), Query.select(["$id"])], max: 100 },
    );
    const first = await pages.next();
    const documents = first.done ? [] : first.value;
    if (documents.length === 0) return updated;
    for (const doc of documents) {
      await tablesDB.updateRow({
        databaseId: DATABASE_ID,
        tableId: collectionId,
        rowId: doc.$id,
        data: { locale: DEFAULT_CONTENT_LOCALE },
      });
      updated++;
    }
  }
}

/**
 * Applies `schema` (see `applySchema`) with the content model's migrations: retired indexes
 * (`RETIRED_INDEXES`) are deleted once their replacements are available, documents without a locale
 * become English (`backfillLocale`), and the images bucket's files get neutral names (`neutralizeImageNames`),
 * each reported as a change.
 * @returns the changes made; empty when the installation was already up to date.
 * @throws as `applySchema` and `backfillLocale`.
 */
export async function applyContentSchema(
  services: AdminServices,
  schema: AppwriteSchema,
  options: Omit<SetupOptions, "retiredIndexes" | "migrate"> = {},
): Promise<string[]> {
  const changes = await applySchema(services, schema, {
    ...options,
    retiredIndexes: RETIRED_INDEXES,
    migrate: async (collectionId, record) => {
      if (SUBMISSION_TABLES.has(collectionId)) {
        const moved = await backfillSubmissions(services, collectionId);
        if (moved > 0)
          record(`gave ${moved} submission(s) of ${collectionId} the state "new" and the team's permissions`);
        return;
      }
      if (!CONTENT_COLLECTIONS.has(collectionId)) return;
      const updated = await backfillLocale(services, collectionId);
      if (updated > 0) record(`set locale "en" on ${updated} document(s) of ${collectionId}`);
    },
  });
  if (schema.buckets.some((bucket) => bucket.$id === IMAGES_BUCKET_ID)) {
    const renamed = await neutralizeImageNames(services);
    if (renamed > 0) {
      const message = `renamed ${renamed} image file(s) of ${IMAGES_BUCKET_ID} after their ids`;
      changes.push(message);
      options.onChange?.(message);
    }
  }
  return changes;
}
