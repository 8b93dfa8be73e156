/**
 * The inbox's reads and writes (issue #31 items 1–2) over both submission tables: one list, newest first,
 * filtered by kind, state and a search over name, e-mail and text. Every function takes the `TablesDB` it
 * acts through: a team member's session client in the admin (Appwrite's `team:studio` permissions then
 * decide what exists, SECURITY C65) or the API key in `studio` and the site's own work (retention).
 */
import { AppwriteException, Query, type TablesDB } from "node-appwrite";
import { DATABASE_ID } from "../../model/content.ts";
import { INBOX_KINDS, TEXT_FIELD, stateOf, type InboxKind, type InboxState } from "../../model/inbox.ts";
import { SUBMISSION_MODEL } from "../../model/site-models.ts";

/** One submission as the inbox shows it. `createdAt` is Appwrite's ISO 8601 `$createdAt`. */
export interface InboxItem {
  kind: InboxKind;
  id: string;
  createdAt: string;
  name: string;
  email: string;
  /** What the visitor wrote: the application's project idea or the contact message. */
  text: string;
  /** The language of the page the visitor used (`en` for rows from before the inbox). */
  locale: string;
  state: InboxState;
  readAt: string | null;
}

/** What to list: any of kind, state and a search text (trimmed; empty = none). */
export interface InboxFilter {
  kind?: InboxKind;
  state?: InboxState;
  q?: string;
}

/** The longest search text, in characters (a longer one is cut: it could never match a field anyway). */
export const MAX_SEARCH = 200;

function toItem(kind: InboxKind, row: Record<string, unknown>): InboxItem {
  const str = (key: string) => (typeof row[key] === "string" ? (row[key] as string) : "");
  return {
    kind,
    id: str("$id"),
    createdAt: str("$createdAt"),
    name: str("name"),
    email: str("email"),
    text: str(TEXT_FIELD[kind]),
    locale: str("locale") || "en",
    state: stateOf(row),
    readAt: str("readAt") || null,
  };
}

/** The queries of `filter` on `kind`'s table (a row without a state counts as `new`). */
function filterQueries(kind: InboxKind, filter: InboxFilter): string[] {
  const queries: string[] = [];
  if (filter.state === "new") queries.push(Query.or([Query.equal("state", "new"), Query.isNull("state")]));
  else if (filter.state) queries.push(Query.equal("state", filter.state));
  const q = filter.q?.trim().slice(0, MAX_SEARCH);
  if (q) {
    queries.push(Query.or(["name", "email", TEXT_FIELD[kind]].map((field) => Query.contains(field, q))));
  }
  return queries;
}

const kindsOf = (filter: InboxFilter): InboxKind[] => (filter.kind ? [filter.kind] : INBOX_KINDS);
const tableOf = (kind: InboxKind) => SUBMISSION_MODEL[kind].collectionId;

/**
 * One page of the inbox: the items matching `filter`, newest first across both tables, and how many match.
 * `page` counts from 1; `pageSize` items per page (1–100).
 * @throws {AppwriteException} when Appwrite refuses or fails.
 */
export async function listInbox(
  tablesDB: TablesDB,
  filter: InboxFilter,
  page = 1,
  pageSize = 25,
): Promise<{ items: InboxItem[]; total: number }> {
  const size = Math.min(100, Math.max(1, Math.floor(pageSize)));
  const wanted = Math.max(1, Math.floor(page)) * size;
  const lists = await Promise.all(
    kindsOf(filter).map(async (kind) => {
      const rows: InboxItem[] = [];
      let total = 0;
      // Each table's first `wanted` rows are enough for the merged page; read them 100 at a time.
      for (let offset = 0; offset < wanted; offset += 100) {
        const result = await tablesDB.listRows({
          databaseId: DATABASE_ID,
          tableId: tableOf(kind),
          queries: [
            ...filterQueries(kind, filter),
            Query.orderDesc("$createdAt"),
            Query.limit(Math.min(100, wanted - offset)),
            Query.offset(offset),
          ],
        });
        total = result.total;
        rows.push(...result.rows.map((row) => toItem(kind, row as unknown as Record<string, unknown>)));
        if (result.rows.length < 100) break;
      }
      return { rows, total };
    }),
  );
  const merged = lists.flatMap((l) => l.rows).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return { items: merged.slice(wanted - size, wanted), total: lists.reduce((sum, l) => sum + l.total, 0) };
}

/**
 * Every item matching `filter`, newest first (the CSV export), at most `max` (default 10,000).
 * @throws {AppwriteException} when Appwrite refuses or fails.
 */
export async function allInboxItems(tablesDB: TablesDB, filter: InboxFilter, max = 10_000): Promise<InboxItem[]> {
  const all: InboxItem[] = [];
  for (const kind of kindsOf(filter)) {
    let cursor: string | undefined;
    while (all.length < max) {
      const result = await tablesDB.listRows({
        databaseId: DATABASE_ID,
        tableId: tableOf(kind),
        queries: [
          ...filterQueries(kind, filter),
          Query.orderDesc("$createdAt"),
          Query.limit(100),
          ...(cursor ? [Query.cursorAfter(cursor)] : []),
        ],
        total: false,
      });
      all.push(...result.rows.map((row) => toItem(kind, row as unknown as Record<string, unknown>)));
      if (result.rows.length < 100) break;
      cursor = result.rows.at(-1)?.$id;
    }
  }
  return all.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, max);
}

/** How many submissions are `new` (the admin navigation's unread count). @throws {AppwriteException} */
export async function unreadCount(tablesDB: TablesDB): Promise<number> {
  const counts = await Promise.all(
    INBOX_KINDS.map((kind) =>
      tablesDB
        .listRows({
          databaseId: DATABASE_ID,
          tableId: tableOf(kind),
          queries: [...filterQueries(kind, { state: "new" }), Query.limit(1), Query.select(["$id"])],
        })
        .then((r) => r.total),
    ),
  );
  return counts.reduce((a, b) => a + b, 0);
}

/**
 * One submission, or null when it does not exist or `tablesDB` may not read it (Appwrite answers 404 for
 * both, so a stranger learns nothing).
 * @throws {AppwriteException} for any other failure.
 */
export async function getInboxItem(tablesDB: TablesDB, kind: InboxKind, id: string): Promise<InboxItem | null> {
  try {
    const row = await tablesDB.getRow({ databaseId: DATABASE_ID, tableId: tableOf(kind), rowId: id });
    return toItem(kind, row as unknown as Record<string, unknown>);
  } catch (error) {
    if (error instanceof AppwriteException && error.code === 404) return null;
    throw error;
  }
}

/**
 * Sets the state of a submission; opening a `new` one makes it `read` and stamps `readAt` (issue #31 item 1).
 * @throws {AppwriteException} 404 when it does not exist or may not be changed through `tablesDB`.
 */
export async function setInboxState(
  tablesDB: TablesDB,
  item: Pick<InboxItem, "kind" | "id" | "readAt">,
  state: InboxState,
): Promise<void> {
  const data: Record<string, unknown> = { state };
  if (!item.readAt && state !== "new") data["readAt"] = new Date().toISOString();
  await tablesDB.updateRow({ databaseId: DATABASE_ID, tableId: tableOf(item.kind), rowId: item.id, data });
}

/** Who deleted what, for the log line every deletion writes (issue #31 item 2: "never silent"). */
export interface DeletionLog {
  /** Who: a user's e-mail, `studio` or `retention`. */
  by: string;
  /** Writes one line (default `console.info`). */
  write?: (line: string) => void;
}

/**
 * Deletes submissions, each logged as `[inbox] <by> deleted <kind> <id> (received <createdAt>)`.
 * @returns how many were deleted; one that is already gone is skipped (and not counted).
 * @throws {AppwriteException} when Appwrite refuses a deletion otherwise (401 for a stranger's session).
 */
export async function deleteInboxItems(
  tablesDB: TablesDB,
  items: readonly Pick<InboxItem, "kind" | "id" | "createdAt">[],
  log: DeletionLog,
): Promise<number> {
  const write = log.write ?? ((line: string) => console.info(line));
  let deleted = 0;
  for (const item of items) {
    try {
      await tablesDB.deleteRow({ databaseId: DATABASE_ID, tableId: tableOf(item.kind), rowId: item.id });
    } catch (error) {
      if (error instanceof AppwriteException && error.code === 404) continue;
      throw error;
    }
    deleted++;
    write(`[inbox] ${log.by} deleted ${item.kind} ${item.id} (received ${item.createdAt})`);
  }
  return deleted;
}

/**
 * Retention (issue #31 item 2): deletes every submission received more than `days` days before `now`, each
 * logged by `retention`. `days` ≤ 0 does nothing (retention off).
 * @returns how many were deleted.
 * @throws {AppwriteException} when Appwrite fails.
 */
export async function sweepRetention(
  tablesDB: TablesDB,
  days: number,
  now = new Date(),
  write?: (line: string) => void,
): Promise<number> {
  if (!(days > 0)) return 0;
  const before = new Date(now.getTime() - days * 86_400_000).toISOString();
  let deleted = 0;
  for (const kind of INBOX_KINDS) {
    for (;;) {
      const result = await tablesDB.listRows({
        databaseId: DATABASE_ID,
        tableId: tableOf(kind),
        queries: [Query.lessThan("$createdAt", before), Query.limit(100)],
        total: false,
      });
      const items = result.rows.map((row) => ({ kind, id: row.$id, createdAt: row.$createdAt }));
      const count = await deleteInboxItems(tablesDB, items, { by: `retention (${days} days)`, write });
      deleted += count;
      if (result.rows.length < 100 || count === 0) break;
    }
  }
  return deleted;
}
