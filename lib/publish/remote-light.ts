/**
 * What `studio push` reads of Appwrite at scale (issue #33 item 6: 100,000 posts in two languages, 200,000
 * rows, in < 1 GB and a re-push < 30 s): every row's identity first (`$id`, `$updatedAt`, slug and locale;
 * Appwrite keeps the `$` attributes under `Query.select`, REFERENCE §2), then the whole row only of the items
 * whose plan reads more than that. An item unchanged on both sides since the lock (same document, same
 * `$updatedAt`, same source hash) is never read in full: a re-push of unchanged content reads no bodies, and
 * the push does not hold 200,000 bodies in memory.
 */
import { Query, type Models } from "node-appwrite";
import { CONTENT_KINDS, DATABASE_ID, type ContentKind } from "../../model/content.ts";
import { CONTENT_KIND_NAMES } from "../../model/model.ts";
import type { AdminServices } from "../appwrite/client.ts";
import { listPages, rowsWhereIn } from "../appwrite/paginate.ts";
import type { ContentItem } from "../content/read.ts";
import { itemKey } from "../content/versions.ts";
import type { ProjectLock } from "./lock.ts";
import { sourceHash } from "./plan.ts";
import { listBySlug } from "./remote.ts";

/** The columns of the first, light read: with them, Appwrite returns the `$` attributes too. */
const IDENTITY_COLUMNS = ["slug", "locale"];
/** Rows asked for by id at once (`Query.equal` takes up to 100 values, `APP_DATABASE_QUERY_MAX_VALUES`). */
const IDS_A_REQUEST = 100;

export type RemoteRows = Record<ContentKind, Map<string, Models.DefaultRow>>;

/**
 * Every row of every kind by version key, whole where `planPush` may read its fields, else only its identity:
 * a row is read whole unless the lock has its entry for that very document and `$updatedAt` and the item's
 * file is there with the lock's source hash (the plan's "unchanged" fast path, which reads nothing else).
 * Rows the lock does not know, edited in Appwrite, changed locally, or whose file is gone are read whole.
 * `hashOf`: the items' `sourceHash` (push passes its stubs' hashes, computed when each file was read).
 * @throws {SchemaMissingError} when a table does not exist; whatever `listRows` throws (Appwrite gone).
 */
export async function readRemoteForPush(
  services: AdminServices,
  items: readonly ContentItem[],
  lock: ProjectLock,
  hashOf: (item: ContentItem) => string = sourceHash,
): Promise<RemoteRows> {
  const local = new Map(items.map((item) => [`${item.kind}\n${itemKey(item)}`, item]));
  const kinds = await Promise.all(
    CONTENT_KIND_NAMES.map(async (kind) => {
      const rows = await listBySlug(services, CONTENT_KINDS[kind].collectionId, IDENTITY_COLUMNS);
      const wanted = new Map<string, string>(); // $id → version key
      for (const [key, row] of rows) {
        const entry = lock[kind][key];
        const item = local.get(`${kind}\n${key}`);
        const unchanged =
          entry !== undefined &&
          entry.id === row.$id &&
          entry.updatedAt === row.$updatedAt &&
          item !== undefined &&
          entry.hash === hashOf(item);
        if (!unchanged) wanted.set(row.$id, key);
      }
      for (const row of await rowsById(services, kind, [...wanted.keys()])) rows.set(wanted.get(row.$id)!, row);
      return [kind, rows] as const;
    }),
  );
  return Object.fromEntries(kinds) as RemoteRows;
}

/** The whole rows of `kind` with these ids (a missing one is left out), `IDS_A_REQUEST` ids a request. */
function rowsById(services: AdminServices, kind: ContentKind, ids: readonly string[]): Promise<Models.DefaultRow[]> {
  const table = { databaseId: DATABASE_ID, tableId: CONTENT_KINDS[kind].collectionId };
  return rowsWhereIn(services.tablesDB, table, "$id", ids, { batch: IDS_A_REQUEST });
}

/**
 * Calls `each` with every row of `kind` as Appwrite holds it now, with only `columns` (and the `$`
 * attributes), a page at a time: nothing is held beyond one page.
 */
export async function forEachRow(
  services: AdminServices,
  kind: ContentKind,
  columns: string[],
  each: (row: Models.DefaultRow) => void,
): Promise<void> {
  const pages = listPages(
    (queries) =>
      services.tablesDB
        .listRows({ databaseId: DATABASE_ID, tableId: CONTENT_KINDS[kind].collectionId, queries, total: false })
        .then((page) => page.rows),
    { queries: [Query.select(columns)] },
  );
  for await (const page of pages) for (const row of page) each(row);
}
