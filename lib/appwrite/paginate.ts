/**
 * Cursor pagination over an Appwrite list endpoint (REFERENCE §2 "Query syntax", pagination: `Query.limit(n)` and
 * `Query.cursorAfter(<last $id>)`, stable whatever is written meanwhile, unlike offsets).
 */
import { Query, type Models, type TablesDB } from "node-appwrite";

/** Largest page Appwrite returns without raising its limit. */
export const PAGE_SIZE = 100;

export interface PageOptions {
  /** Queries sent with every page (filters, order, select). */
  queries?: readonly string[];
  /** Stop after this many items (default: all). */
  max?: number;
  /** Items a page (default `PAGE_SIZE`); larger for small rows read in bulk (`Query.select` of a few columns). */
  pageSize?: number;
}

/**
 * Yields the pages of a list, in order, until a short page or `max` items.
 * @param fetchPage lists one page with the given queries, e.g.
 *   `(queries) => storage.listFiles({ bucketId, queries }).then((page) => page.files)`.
 * @throws whatever `fetchPage` throws (an `AppwriteException` for a missing collection or bucket).
 */
export async function* listPages<T extends { $id: string }>(
  fetchPage: (queries: string[]) => Promise<T[]>,
  options: PageOptions = {},
): AsyncGenerator<T[]> {
  const max = options.max ?? Infinity;
  let seen = 0;
  let cursor: string | undefined;
  while (seen < max) {
    const limit = Math.min(options.pageSize ?? PAGE_SIZE, max - seen);
    const items = await fetchPage([
      ...(options.queries ?? []),
      Query.limit(limit),
      ...(cursor ? [Query.cursorAfter(cursor)] : []),
    ]);
    if (items.length > 0) yield items;
    seen += items.length;
    if (items.length < limit) return;
    cursor = items.at(-1)!.$id;
  }
}

/** Every item of a list (see `listPages`), in one array. */
export async function listAll<T extends { $id: string }>(
  fetchPage: (queries: string[]) => Promise<T[]>,
  options: PageOptions = {},
): Promise<T[]> {
  const all: T[] = [];
  for await (const page of listPages(fetchPage, options)) all.push(...page);
  return all;
}

/**
 * The rows of a table whose `column` is one of `values`, read `batch` values a request (`Query.equal` with an
 * array: REFERENCE §2, one request per batch, no count: `total: false`).
 * @param tablesDB the TablesDB service of the caller (API key or session: its permissions apply).
 * @param options.rowsPerValue rows one value can match (an item's versions: one per locale), for `Query.limit`.
 * @param options.select columns to read (`Query.select`); all when absent.
 * @returns the rows found, batch by batch (a value matching nothing is left out).
 * @throws AppwriteException from `listRows` (a missing table, a refused session).
 */
export async function rowsWhereIn(
  tablesDB: TablesDB,
  table: { databaseId: string; tableId: string },
  column: string,
  values: readonly string[],
  options: { batch: number; rowsPerValue?: number; select?: string[] },
): Promise<Models.DefaultRow[]> {
  const rows: Models.DefaultRow[] = [];
  for (let i = 0; i < values.length; i += options.batch) {
    const chunk = values.slice(i, i + options.batch);
    const page = await tablesDB.listRows({
      ...table,
      total: false,
      queries: [
        Query.equal(column, [...chunk]),
        Query.limit(chunk.length * (options.rowsPerValue ?? 1)),
        ...(options.select ? [Query.select(options.select)] : []),
      ],
    });
    rows.push(...page.rows);
  }
  return rows;
}
