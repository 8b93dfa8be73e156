/**
 * The trash (issue #29 item 9, docs/decisions/0019-trash.md): deleting an item in the admin moves each of its
 * language versions out of its content table into a row of the `trash` table (`TRASH_MODEL`), for
 * `TRASH_DAYS`; its history stays in `revisions` under the same row ids. Restoring (`trash-restore.ts`) creates
 * the rows again with their ids, as drafts readable by their editors only, so the history comes back with them.
 * Purging (`trash-purge.ts`) removes the rows, their history and the images nothing else uses.
 *
 * Trash rows are written with the site's API key only (the table grants no role anything, as the history:
 * SECURITY C69) and carry `read` for the item's editors (the roles that could update it, decision 0017), so
 * listing with a user's session shows each user only what they could edit (C65).
 */
import { ID, Permission, Query, type Models, type TablesDB } from "node-appwrite";
import { DATABASE_ID } from "../../model/content.ts";
import { LIFECYCLE_ATTRIBUTES } from "../../model/lifecycle.ts";
import {
  CONTENT_MODEL,
  documentVersionKey,
  fieldsOf,
  isContentKind,
  isContentLocale,
  DEFAULT_CONTENT_LOCALE,
  TRASH_DAYS,
  TRASH_MODEL,
  type ContentKind,
  type ContentLocale,
} from "../../model/model.ts";
import { listPages } from "../appwrite/paginate.ts";
import { editorRolesOf } from "./item-permissions.ts";
import { deleteItemDocument, toAppwriteDatetime, type DocumentWriter } from "./writer.ts";

/** The trash table's id. */
export const TRASH_TABLE = TRASH_MODEL.trashed.collectionId;

const DAY_MS = 86_400_000;

/** One language version in the trash. */
export interface TrashedVersion {
  /** The trash row's id. */
  rowId: string;
  kind: ContentKind;
  /** The content row's id (restored with it; its revisions name it). */
  itemId: string;
  /** Shared by the versions deleted together: the id of the row the editor deleted. */
  batch: string;
  slug: string;
  locale: ContentLocale;
  title: string;
  /** The version's image URL, or null. */
  image: string | null;
  /** When it was deleted, ISO. */
  deletedAt: string;
  deletedBy: string | null;
  /** The version's columns (kind fields and lifecycle columns). */
  data: Record<string, unknown>;
  /** The editor roles (`team:studio`, `user:<id>`) that may read and restore it. */
  editors: string[];
}

/** An item in the trash: its versions deleted together (one `batch`). */
export interface TrashedItem {
  batch: string;
  kind: ContentKind;
  versions: TrashedVersion[];
  deletedAt: string;
  deletedBy: string | null;
  /** Whole days until the purge (0 on its last day), counted from `now` (`TRASH_DAYS` after `deletedAt`). */
  daysLeft: number;
}

/** Nothing of that batch is in the trash the caller may read (restored, purged, or never theirs). */
export class TrashNotFoundError extends Error {
  override name = "TrashNotFoundError";
  constructor(batch: string) {
    super(`Nothing in the trash has the id ${batch}: it may have been restored or deleted already.`);
  }
}

/** The columns of a content row the trash keeps and a restore writes back: its kind's fields and the lifecycle columns. */
export function keptColumns(kind: ContentKind, row: Record<string, unknown>): Record<string, unknown> {
  const names = [
    ...fieldsOf(CONTENT_MODEL[kind]).map(([name]) => name),
    ...LIFECYCLE_ATTRIBUTES.map((a) => String(a["key"])),
  ];
  return Object.fromEntries(names.filter((name) => name in row).map((name) => [name, row[name] ?? null]));
}

/** Whole days left (rounded up) of something deleted at `deletedAt` (ISO) at `now` (ms since the epoch): `TRASH_DAYS` when just deleted, 0 once due. */
export function daysLeft(deletedAt: string, now = Date.now()): number {
  return Math.max(0, Math.ceil((Date.parse(deletedAt) + TRASH_DAYS * DAY_MS - now) / DAY_MS));
}

/** The time before which a deletion is due for the purge, as Appwrite's datetime. */
export function purgeBefore(now: number): string {
  return toAppwriteDatetime(new Date(now - TRASH_DAYS * DAY_MS));
}

/** A trash row as a `TrashedVersion` (unknown kinds and bad JSON read as empty, never thrown). */
export function toTrashedVersion(row: Models.DefaultRow): TrashedVersion | null {
  if (!isContentKind(row.kind)) return null;
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(String(row.data));
    if (parsed && typeof parsed === "object") data = parsed as Record<string, unknown>;
  } catch {
    // Listed without its columns rather than breaking the page; a restore refuses it (no slug).
  }
  const editors = row.$permissions.flatMap((p) => /^read\("(.+)"\)$/.exec(p)?.[1] ?? []);
  return {
    rowId: row.$id,
    kind: row.kind,
    itemId: String(row.itemId),
    batch: String(row.batch),
    slug: String(row.slug),
    locale: isContentLocale(row.locale) ? row.locale : DEFAULT_CONTENT_LOCALE,
    title: String(row.title ?? ""),
    image: typeof row.image === "string" && row.image ? row.image : null,
    deletedAt: String(row.deletedAt),
    deletedBy: typeof row.deletedBy === "string" && row.deletedBy ? row.deletedBy : null,
    data,
    editors,
  };
}

/** `versions` grouped by batch, newest deletion first, with the days left at `now`. */
export function groupTrash(versions: readonly TrashedVersion[], now = Date.now()): TrashedItem[] {
  const batches = new Map<string, TrashedVersion[]>();
  for (const v of versions) batches.set(v.batch, [...(batches.get(v.batch) ?? []), v]);
  return [...batches.entries()]
    .map(([batch, vs]) => ({
      batch,
      kind: vs[0]!.kind,
      versions: vs,
      deletedAt: vs[0]!.deletedAt,
      deletedBy: vs[0]!.deletedBy,
      daysLeft: daysLeft(vs[0]!.deletedAt, now),
    }))
    .sort((a, b) => b.deletedAt.localeCompare(a.deletedAt));
}

/**
 * Every trash row `tables` may read (a user's session: the items they could edit; the key: all), matching
 * `queries`, as versions.
 * @throws {AppwriteException} when Appwrite cannot be read.
 */
export async function listTrashVersions(tables: TablesDB, queries: string[] = []): Promise<TrashedVersion[]> {
  const found: TrashedVersion[] = [];
  const pages = listPages(
    (q) =>
      tables.listRows({ databaseId: DATABASE_ID, tableId: TRASH_TABLE, queries: q, total: false }).then((p) => p.rows),
    { queries: [...queries, Query.orderDesc("deletedAt")] },
  );
  for await (const rows of pages)
    for (const row of rows) found.push(...[toTrashedVersion(row)].filter((v) => v !== null));
  return found;
}

/** The items in the trash `tables` may read, newest deletion first (`groupTrash`). */
export async function listTrash(tables: TablesDB, now = Date.now()): Promise<TrashedItem[]> {
  return groupTrash(await listTrashVersions(tables), now);
}

/**
 * The versions of one batch `tables` may read.
 * @throws {TrashNotFoundError} when there are none.
 */
export async function readTrashBatch(tables: TablesDB, batch: string): Promise<TrashedItem> {
  const versions = await listTrashVersions(tables, [Query.equal("batch", batch)]);
  const [item] = groupTrash(versions);
  if (!item) throw new TrashNotFoundError(batch);
  return item;
}

/** Who deletes: their name (written to `deletedBy`) and the time (default now). */
export interface Deletion {
  deletedBy: string;
  now?: number;
}

/**
 * Moves the language versions `rows` of one item of `kind` to the trash: writes a trash row for each with `key`
 * (the API key's tables), then deletes each content row with `writer` (the user's session: Appwrite decides
 * whether they may; its CDN pages are purged). A trash row that cannot be written, or a version whose deletion
 * is refused, leaves no trash row behind for what stays on the site; the error is rethrown after that cleanup.
 * @returns the batch id (the first row's id).
 * @throws {AppwriteException} from Appwrite (401 the user may not delete, 404 gone).
 */
export async function moveToTrash(
  key: TablesDB,
  writer: DocumentWriter,
  kind: ContentKind,
  rows: readonly Models.DefaultRow[],
  deletion: Deletion,
): Promise<string> {
  const batch = rows[0]!.$id;
  const deletedAt = toAppwriteDatetime(new Date(deletion.now ?? Date.now()));
  const spec = CONTENT_MODEL[kind];
  const written: { trashId: string; row: Models.DefaultRow }[] = [];
  const removeTrashRow = (rowId: string) =>
    key.deleteRow({ databaseId: DATABASE_ID, tableId: TRASH_TABLE, rowId }).catch(() => {});
  try {
    for (const row of rows) {
      const trashed = await key.createRow({
        databaseId: DATABASE_ID,
        tableId: TRASH_TABLE,
        rowId: ID.unique(),
        data: {
          kind,
          itemId: row.$id,
          batch,
          slug: String(row.slug),
          locale: isContentLocale(row.locale) ? row.locale : DEFAULT_CONTENT_LOCALE,
          title: String(row[spec.title] ?? "").slice(0, 256),
          image: typeof row[spec.image] === "string" ? row[spec.image] : null,
          deletedAt,
          deletedBy: deletion.deletedBy.slice(0, 128),
          data: JSON.stringify(keptColumns(kind, row)),
        },
        permissions: editorRolesOf(row.$permissions).map((role) => Permission.read(role)),
      });
      written.push({ trashId: trashed.$id, row });
    }
  } catch (error) {
    // Nothing was deleted yet: no version may be both on the site and in the trash.
    for (const { trashId } of written) await removeTrashRow(trashId);
    throw error;
  }
  let refused: unknown = null;
  for (const { trashId, row } of written) {
    try {
      if (refused === null) {
        await deleteItemDocument(writer, kind, row.$id);
        continue;
      }
    } catch (error) {
      refused = error;
    }
    await removeTrashRow(trashId);
  }
  if (refused !== null) throw refused;
  return batch;
}

/** The key of a version in `trashedVersions`' map: `<kind>|<versionKey>` (`post|my-post`, `post|my-post@ar`). */
export function trashKey(kind: ContentKind, slug: string, locale: ContentLocale): string {
  return `${kind}|${documentVersionKey({ slug, locale })}`;
}

/**
 * Every version in the trash by `trashKey`, read with `tables` (the API key's, for `studio push`); empty when the
 * site has no trash table yet (a database `studio setup` has not migrated: nothing can be in it).
 * @throws {AppwriteException} when Appwrite fails otherwise.
 */
export async function trashedVersions(tables: TablesDB): Promise<Map<string, TrashedVersion>> {
  const found = new Map<string, TrashedVersion>();
  const versions = await listTrashVersions(tables).catch((error: unknown) => {
    if (
      (error as { type?: string }).type === "table_not_found" ||
      (error as { type?: string }).type === "collection_not_found"
    )
      return [];
    throw error;
  });
  for (const v of versions) found.set(trashKey(v.kind, v.slug, v.locale), v);
  return found;
}
