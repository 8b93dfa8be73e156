/**
 * The history of ventures and posts (issue #16 item 4, docs/decisions/0009-editorial-lifecycle.md): before the
 * one writer (`lib/publish/writer.ts`) updates a document, the version it replaces is kept as a row of the
 * `revisions` table (`HISTORY_MODEL`), the last `REVISIONS_KEPT` per item. Every path that saves goes through
 * the writer (the admin as the signed-in user, `studio push --force` with the API key, a restore), so every
 * path records. A row carries the permissions of who may edit the item (`revisionPermissions`): Appwrite, not
 * this code, keeps other users and guests from reading it.
 *
 * The rows are reached with node-appwrite's `TablesDB` service on the writer's own client, so a revision is
 * written, read and pruned with the same rights as the item.
 */
import { ID, Permission, Query, TablesDB, type Client, type Models } from "node-appwrite";
import { DATABASE_ID } from "../../schemas/content.ts";
import { PUBLISH_AT_COLUMN, STATUS_COLUMN, UPDATED_BY_COLUMN } from "../../schemas/lifecycle.ts";
import {
  CONTENT_MODEL,
  fieldsOf,
  formFieldNames,
  HISTORY_MODEL,
  REVISIONS_KEPT,
  type ContentKind,
} from "../../schemas/model.ts";

/** The revisions table's id. */
export const REVISIONS_TABLE = HISTORY_MODEL.revision.collectionId;

/** One kept version of an item, as the edit page lists it. */
export interface Revision {
  /** The row's id. */
  id: string;
  kind: ContentKind;
  /** The item (document) the version belongs to. */
  itemId: string;
  /** When the kept version had been saved (the document's `$updatedAt` then), ISO. */
  savedAt: string;
  /** Who had saved it (`updatedBy` then: a user's name, `studio push`), or null when unknown. */
  savedBy: string | null;
  /** The version's fields (the kind's fields and the lifecycle columns). */
  fields: Record<string, unknown>;
}

/**
 * The permissions of a revision of a document with `itemPermissions`: `read`, `update` and `delete` for every
 * role the item grants `update` to, nothing else. A revision is never readable by guests (`any`, `guests`),
 * even of a published item; an item only the API key may write (pushed from files) gets rows only the key reads.
 */
export function revisionPermissions(itemPermissions: readonly string[]): string[] {
  const roles = itemPermissions.flatMap((p) => {
    const match = /^update\("(.+)"\)$/.exec(p);
    return match?.[1] && match[1] !== "any" && match[1] !== "guests" ? [match[1]] : [];
  });
  return [...new Set(roles)].flatMap((role) => [
    Permission.read(role),
    Permission.update(role),
    Permission.delete(role),
  ]);
}

/** The fields of `doc` a revision keeps: the kind's fields and the lifecycle columns. */
export function snapshotFields(kind: ContentKind, doc: Record<string, unknown>): Record<string, unknown> {
  const names = [...fieldsOf(CONTENT_MODEL[kind]).map(([name]) => name), STATUS_COLUMN, PUBLISH_AT_COLUMN];
  return Object.fromEntries(names.filter((name) => name in doc).map((name) => [name, doc[name] ?? null]));
}

/**
 * The fields a restore writes back: the slug, the text fields and the body (`formFieldNames`). The image is
 * left as it is (a replaced image's file is deleted), and so are the state and permissions: restoring brings
 * back words, publishing stays a separate step.
 */
export function restorableFields(kind: ContentKind, fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    formFieldNames(kind)
      .filter((name) => name in fields)
      .map((name) => [name, fields[name] ?? null]),
  );
}

/** The revisions of `itemId`, newest first (a save's time, then the row's, for two saves in one millisecond). */
function newestFirst(itemId: string): string[] {
  return [Query.equal("itemId", itemId), Query.orderDesc("savedAt"), Query.orderDesc("$createdAt")];
}

function toRevision(row: Models.DefaultRow): Revision {
  let fields: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(String(row.data));
    if (parsed && typeof parsed === "object") fields = parsed as Record<string, unknown>;
  } catch {
    // A row whose data is not JSON (written by hand): listed with no fields rather than breaking the page.
  }
  return {
    id: row.$id,
    kind: row.kind as ContentKind,
    itemId: String(row.itemId),
    savedAt: String(row.savedAt),
    savedBy: typeof row.savedBy === "string" && row.savedBy ? row.savedBy : null,
    fields,
  };
}

/** Reads, writes and prunes the revisions of items, with the rights of one Appwrite client. */
export class RevisionStore {
  private readonly tables: TablesDB;

  /** @param client the client the item is written with (a user's session, or the API key). */
  constructor(client: Client) {
    this.tables = new TablesDB(client);
  }

  /**
   * Keeps `previous` (the document as it is before a save) as a revision of `kind`, with its editors'
   * permissions. Pruning is a separate step (`prune`), run once the save succeeded: a refused save must not
   * cost the item its oldest revision.
   * @returns the new row's id.
   * @throws {AppwriteException} when the row cannot be written (401 when the caller may not create rows).
   */
  async record(kind: ContentKind, previous: Models.DefaultRow): Promise<string> {
    const row = await this.tables.createRow({
      databaseId: DATABASE_ID,
      tableId: REVISIONS_TABLE,
      rowId: ID.unique(),
      data: {
        kind,
        itemId: previous.$id,
        savedAt: previous.$updatedAt,
        savedBy: typeof previous[UPDATED_BY_COLUMN] === "string" ? (previous[UPDATED_BY_COLUMN] as string) : null,
        data: JSON.stringify(snapshotFields(kind, previous)),
      },
      permissions: revisionPermissions(previous.$permissions),
    });
    return row.$id;
  }

  /**
   * Deletes the revisions of `itemId` past the newest `keep` (those the caller may read and delete).
   * @returns how many it deleted.
   */
  async prune(itemId: string, keep = REVISIONS_KEPT): Promise<number> {
    let deleted = 0;
    for (;;) {
      const page = await this.tables.listRows({
        databaseId: DATABASE_ID,
        tableId: REVISIONS_TABLE,
        queries: [...newestFirst(itemId), Query.offset(keep), Query.limit(100), Query.select(["$id"])],
      });
      if (page.rows.length === 0) return deleted;
      for (const row of page.rows) {
        await this.tables.deleteRow({ databaseId: DATABASE_ID, tableId: REVISIONS_TABLE, rowId: row.$id });
        deleted += 1;
      }
    }
  }

  /** Removes one revision (the writer's rollback when the save it preceded failed). Best effort: never throws. */
  async discard(revisionId: string): Promise<void> {
    await this.tables
      .deleteRow({ databaseId: DATABASE_ID, tableId: REVISIONS_TABLE, rowId: revisionId })
      .catch(() => {});
  }

  /**
   * The revisions of `itemId` the caller may read, newest first (at most `REVISIONS_KEPT`).
   * @throws {AppwriteException} when Appwrite cannot be read.
   */
  async list(itemId: string): Promise<Revision[]> {
    const page = await this.tables.listRows({
      databaseId: DATABASE_ID,
      tableId: REVISIONS_TABLE,
      queries: [...newestFirst(itemId), Query.limit(REVISIONS_KEPT)],
    });
    return page.rows.map(toRevision);
  }

  /**
   * One revision by id.
   * @throws {AppwriteException} 404 when it does not exist or the caller may not read it.
   */
  async get(revisionId: string): Promise<Revision> {
    return toRevision(
      await this.tables.getRow({ databaseId: DATABASE_ID, tableId: REVISIONS_TABLE, rowId: revisionId }),
    );
  }
}

/** A revision that does not belong to the item a restore was asked for. */
export class RevisionMismatchError extends Error {
  constructor(revisionId: string, itemId: string) {
    super(`Revision ${revisionId} is not a version of ${itemId}.`);
    this.name = "RevisionMismatchError";
  }
}
