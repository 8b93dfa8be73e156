/**
 * A language's own list (issue #35: "Arabic lists put Arabic versions first"): the versions written in one
 * locale, a numbered page at a time, without the other language's items, so an Arabic reader's pages hold
 * Arabic posts however many posts exist only in English. One filtered read per page (`locale` equal, in
 * `listOrder`), counted past Appwrite's cap as the full list is (`countRows`).
 */
import { Query } from "node-appwrite";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL, summaryFields, type ContentKind, type ContentLocale } from "../../model/model.ts";
import { countRows, type ItemPage, type KeptCounts } from "./content-pages.ts";
import { listOrder, toRecord, type ContentReader, type ItemSummary, type Localized } from "./content-store.ts";

/**
 * Page `page` (from 1) of `kind`'s versions written in `locale`, newest first, `perPage` a page (≤ 100,
 * Appwrite's page bound here), each with `locales: [locale]` (the list never says which other versions exist).
 * Returns null for a page past the last; page 1 of an empty list exists, with no items.
 */
export async function readVersionPage<K extends ContentKind>(
  services: ContentReader,
  kind: K,
  locale: ContentLocale,
  page: number,
  perPage: number,
  kept?: KeptCounts,
): Promise<ItemPage<Localized<ItemSummary<K>>> | null> {
  const filters = [Query.equal("locale", locale)];
  const fields = summaryFields(kind);
  const found = await services.tablesDB.listRows({
    databaseId: DATABASE_ID,
    tableId: CONTENT_MODEL[kind].collectionId,
    queries: [
      ...filters,
      Query.select(fields),
      ...listOrder(kind),
      Query.limit(perPage),
      Query.offset((page - 1) * perPage),
    ],
  });
  let total = await countRows(services, kind, filters, found.total, kept);
  // A kept count may lag writes by its age (`KeptCounts`): when the rows just read disagree with it, count again.
  if (kept && found.rows.length > 0 !== (page - 1) * perPage < total) {
    kept.forget();
    total = await countRows(services, kind, filters, found.total, kept);
  }
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (page > pages) return null;
  const items = found.rows.map(
    (doc) => ({ ...toRecord(kind, doc, fields), locale, locales: [locale] }) as Localized<ItemSummary<K>>,
  );
  return { items, page, pages };
}
