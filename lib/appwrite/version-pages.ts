/**
 * A language's own list (issue #35: "Arabic lists put Arabic versions first"): the versions written in one
 * locale, a numbered page at a time, without the other language's items, so an Arabic reader's pages hold
 * Arabic posts however many posts exist only in English. One filtered read per page (`locale` equal, in
 * `listOrder`), counted past Appwrite's cap as the full list is (`countRows`).
 */
import { Query } from "node-appwrite";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL, summaryFields, type ContentKind, type ContentLocale } from "../../model/model.ts";
import { countKey, countRows, readFromEnd, type ItemPage, type KeptCounts } from "./content-pages.ts";
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
  const start = (page - 1) * perPage;
  // A page in the list's second half, with its count kept: read from the end (`readFromEnd`, issue #33 item 6).
  const known = kept?.get(countKey(kind, filters));
  const near = known !== undefined && start > known / 2 && start < known;
  const found = near
    ? await readFromEnd(services, kind, [...filters, Query.select(fields)], known, start, perPage)
    : await services.tablesDB.listRows({
        databaseId: DATABASE_ID,
        tableId: CONTENT_MODEL[kind].collectionId,
        queries: [...filters, Query.select(fields), ...listOrder(kind), Query.limit(perPage), Query.offset(start)],
      });
  let total = near ? known : await countRows(services, kind, filters, found.total, kept);
  // A kept count may lag writes by its age (`KeptCounts`): when the rows just read disagree with it, count again.
  if (kept && found.rows.length > 0 !== start < total) {
    kept.forget();
    if (near) return readVersionPage(services, kind, locale, page, perPage, kept);
    total = await countRows(services, kind, filters, found.total, kept);
  }
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (page > pages) return null;
  const items = found.rows.map(
    (doc) => ({ ...toRecord(kind, doc, fields), locale, locales: [locale] }) as Localized<ItemSummary<K>>,
  );
  return { items, page, pages };
}
