/**
 * Reads for lists that outgrow one Appwrite answer (issue #18 item 3, 10,000 posts): counts past Appwrite's
 * `total` cap, numbered pages of a kind's items with the language fallback of decision 0008, and windows of
 * rows in slug order for the sitemap's parts. Everything is read as the caller's client (a guest's on the
 * public site, SECURITY C55), on the orders the kind's indexes cover (`model/model.ts`).
 */
import { Query, type Models } from "node-appwrite";
import { summaryFields, type ContentKind, type ContentLocale } from "../../model/model.ts";
import {
  listOrder,
  pickVersions,
  toRecord,
  type ContentReader,
  type ItemSummary,
  type Localized,
} from "./content-store.ts";
import { PAGE_SIZE } from "./paginate.ts";
import { countKey, countRows, list, type KeptCounts } from "./row-counts.ts";

// Counting moved to row-counts.ts; its users import it from here as before.
export { APPWRITE_COUNT_CAP, KeptCounts, countKey, countRows } from "./row-counts.ts";

/** Rows a sitemap read asks for at once: two fields a row, well under Appwrite's 5,000 `Query.limit` bound. */
const SITEMAP_READ_ROWS = 1000;

/**
 * Up to `count` rows of `kind` from row `offset` in `queries`' order (which must end on a unique key): the
 * first page by offset, then by cursor (`Query.cursorAfter`), `pageSize` rows at a time; with the `total`
 * of the first answer (Appwrite's, capped at 5,000: see `countRows`).
 */
async function readWindow(
  services: ContentReader,
  kind: ContentKind,
  queries: string[],
  offset: number,
  count: number,
  pageSize = PAGE_SIZE,
): Promise<{ rows: Models.DefaultRow[]; total: number }> {
  const rows: Models.DefaultRow[] = [];
  let total = 0;
  if (count <= 0) return { rows, total };
  while (rows.length < count) {
    const limit = Math.min(pageSize, count - rows.length);
    const cursor = rows.at(-1)?.$id;
    const page = await list(
      services.tablesDB,
      kind,
      [...queries, Query.limit(limit), cursor ? Query.cursorAfter(cursor) : Query.offset(offset)],
      !cursor,
    );
    if (!cursor) total = page.total;
    rows.push(...page.rows);
    if (page.rows.length < limit) break;
  }
  return { rows, total };
}

/**
 * Rows `offset` to `offset + count` of `kind` in `listOrder`, read from the list's end (`listOrder(kind,
 * true)`, oldest first) when they lie in its second half, with `total` the list's rows (a kept count): the
 * offset Appwrite skips is then the rows after them, not before, so the last page costs what the first
 * does (issue #33 item 6: a list of 200,000 rows; an offset is a scan of every row it skips). `queries`:
 * filters and `select`, no order. Rows come back in `listOrder`; `total` is the one given.
 */
export async function readFromEnd(
  services: ContentReader,
  kind: ContentKind,
  queries: string[],
  total: number,
  offset: number,
  count: number,
): Promise<{ rows: Models.DefaultRow[]; total: number }> {
  const end = Math.min(total, offset + count);
  const window = await readWindow(services, kind, [...queries, ...listOrder(kind, true)], total - end, end - offset);
  return { rows: window.rows.reverse(), total };
}

/** One numbered page of a list: its items, its number and how many pages there are (at least 1). */
export interface ItemPage<T> {
  items: T[];
  page: number;
  pages: number;
}

/**
 * Page `page` (from 1) of `kind`'s items as shown in `locale` (`pickVersions`), `rowsPerPage` language
 * versions a page. Rows are ordered by `listOrder` (posts: published date, then slug and locale), so the
 * versions of an item sit side by side; an item belongs to the page holding its *last* version, so no item
 * shows on two pages and no page is empty. A page therefore shows rowsPerPage/2 items when every item has
 * both languages, up to rowsPerPage when each has one. `pages` counts past Appwrite's cap (`countRows`, with
 * the counts `kept` there). Returns null for a page past the last (page 1 of an empty list exists, with no items).
 */
export async function readItemPage<K extends ContentKind>(
  services: ContentReader,
  kind: K,
  locale: ContentLocale,
  page: number,
  rowsPerPage: number,
  kept?: KeptCounts,
): Promise<ItemPage<Localized<ItemSummary<K>>> | null> {
  const start = (page - 1) * rowsPerPage;
  const fields = summaryFields(kind);
  // One row before the page (an item's earlier version) and one after (a version continuing on the next page).
  const [from, size] = [Math.max(0, start - 1), rowsPerPage + (start > 0 ? 2 : 1)];
  // A page in the list's second half, with its count kept: read from the end (`readFromEnd`).
  const known = kept?.get(countKey(kind, []));
  const near = known !== undefined && start > known / 2 && start < known;
  const window = near
    ? await readFromEnd(services, kind, [Query.select(fields)], known, from, size)
    : await readWindow(services, kind, [Query.select(fields), ...listOrder(kind)], from, size);
  let total = near ? known : await countRows(services, kind, [], window.total, kept);
  // A kept count may lag writes by its age: when it disagrees with the rows just read (rows past it, or none
  // where it says there are some), count again.
  const rowsFromStart = window.rows.length - (start > 0 ? 1 : 0);
  if (kept && rowsFromStart > 0 !== start < total) {
    kept.forget();
    if (near) return readItemPage(services, kind, locale, page, rowsPerPage, kept);
    total = await countRows(services, kind, [], window.total, kept);
  }
  const rows = window.rows;
  const pages = Math.max(1, Math.ceil(total / rowsPerPage));
  if (page > pages) return null;
  const records = rows.map((doc) => toRecord(kind, doc, fields) as ItemSummary<K> & { slug: string; locale: string });
  const first = start > 0 ? 1 : 0; // index in `records` of the page's first row
  const last = first + rowsPerPage - 1; // index of its last row
  let shown = records.slice(first, last + 1);
  // An item whose last version lies on the next page shows there, not here.
  const continuing = records[last + 1];
  if (continuing && continuing.slug === records[last]?.slug) shown = shown.filter((r) => r.slug !== continuing.slug);
  // The page's first item may have its earlier version on the previous page: it shows here, in either language.
  if (first === 1 && records[0]!.slug === records[1]?.slug) shown = [records[0]!, ...shown];
  return { items: pickVersions(shown, locale), page, pages };
}

/** A language version in the sitemap: its item's slug, locale, last change and the locales its item exists in. */
export interface VersionEntry {
  slug: string;
  locale: ContentLocale;
  updatedAt: string;
  locales: ContentLocale[];
}

/**
 * Rows `start` to `start + count` of `kind` in slug then locale order (the `slug_locale_unique` index), each
 * with the locales its item exists in (read from the rows either side: versions of an item are adjacent).
 */
export async function readVersionWindow(
  services: ContentReader,
  kind: ContentKind,
  start: number,
  count: number,
): Promise<VersionEntry[]> {
  if (count <= 0) return [];
  const order = [Query.select(["slug", "locale"]), Query.orderAsc("slug"), Query.orderAsc("locale")];
  const { rows } = await readWindow(
    services,
    kind,
    order,
    Math.max(0, start - 1),
    count + (start > 0 ? 2 : 1),
    SITEMAP_READ_ROWS,
  );
  const records = rows.map(
    (doc) =>
      ({ ...toRecord(kind, doc, ["slug", "locale"]), updatedAt: doc.$updatedAt }) as {
        slug: string;
        locale: ContentLocale;
        updatedAt: string;
      },
  );
  const first = start > 0 ? 1 : 0;
  return records.slice(first, first + count).map((record, i) => {
    const siblings = records.slice(Math.max(0, first + i - 1), first + i + 2).filter((r) => r.slug === record.slug);
    const locales = [...new Set(siblings.map((r) => r.locale))].sort() as ContentLocale[];
    return { slug: record.slug, locale: record.locale, updatedAt: record.updatedAt, locales };
  });
}

/**
 * The `limit` newest versions of `kind` written in `locale` (no fallback: a feed in `locale` carries that
 * language only), in `listOrder`, with their summary fields: one request, `limit` ≤ 100.
 */
export async function readLatestVersions<K extends ContentKind>(
  services: ContentReader,
  kind: K,
  locale: ContentLocale,
  limit: number,
): Promise<Localized<ItemSummary<K>>[]> {
  const fields = summaryFields(kind);
  const { rows } = await list(
    services.tablesDB,
    kind,
    [Query.equal("locale", locale), Query.select(fields), ...listOrder(kind), Query.limit(limit)],
    false,
  );
  return rows.map(
    (doc) => ({ ...toRecord(kind, doc, fields), locale, locales: [locale] }) as Localized<ItemSummary<K>>,
  );
}
