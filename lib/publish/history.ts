/**
 * The history of ventures and posts (issue #16 item 4, docs/decisions/0009-editorial-lifecycle.md): before the
 * one writer (`lib/publish/writer.ts`) updates a document, the version it replaces is kept as a row of the
 * `revisions` table (`HISTORY_MODEL`), the last `REVISIONS_KEPT` per item. Every path that saves goes through
 * the writer (the admin as the signed-in user, `studio push --force` with the API key, a restore), so every
 * path records. A row carries the permissions of who may edit the item (`revisionPermissions`): Appwrite, not
 * this code, keeps other users and guests from reading it.
 *
 * History is written by the site only (SECURITY C69): the table grants no role `create`, so rows are written
 * and pruned with the API key, and a row is a version of an item only when its permissions are the ones the
 * site gives that item's revisions (`isRevisionOf`). A row that is not (written by a user while the table
 * still let users create rows, or by hand) is neither listed, restored nor counted by the prune, so it cannot
 * pose as a version nor push the real ones out of the last `REVISIONS_KEPT`.
 */
import { ID, Permission, Query, TablesDB, type Client, type Models } from "node-appwrite";
import type { z } from "zod";
import { DATABASE_ID, formSchema } from "../../model/content.ts";
import { listPages } from "../appwrite/paginate.ts";
import { normalizeBodyAsync } from "../html/body.ts";
import { PUBLISH_AT_COLUMN, STATUS_COLUMN, UPDATED_BY_COLUMN } from "../../model/lifecycle.ts";
import {
  CONTENT_MODEL,
  fieldsOf,
  formFieldNames,
  HISTORY_MODEL,
  REVISIONS_KEPT,
  type ContentKind,
} from "../../model/model.ts";

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
  /** The row's permissions (what `isRevisionOf` compares with the item's). */
  permissions: string[];
}

/** What the history needs of an item: its id and its current permissions. */
export type HistoryItem = Pick<Models.DefaultRow, "$id" | "$permissions">;

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

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");

/**
 * Whether `revision` is a version of `item`: it names the item and carries exactly
 * the permissions the site gives the item's revisions now (`revisionPermissions` of the item's). A row with
 * others was not written by the site for this item's editors (SECURITY C69; ASVS v5 8.2.2) and is ignored by
 * `list`, `prune` and a restore.
 */
export function isRevisionOf(revision: Pick<Revision, "itemId" | "permissions">, item: HistoryItem): boolean {
  return revision.itemId === item.$id && sameSet(revision.permissions, revisionPermissions(item.$permissions));
}

/** `isRevisionOf` for a row as listed. */
const rowOf = (row: Models.DefaultRow, item: HistoryItem) =>
  isRevisionOf({ itemId: row.itemId as string, permissions: row.$permissions }, item);

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

/**
 * The fields a restore writes, checked and sanitized as the admin's save checks and sanitizes a form
 * (SECURITY C69; ASVS v5 1.2.1): `restorableFields` through the form's schema (`formSchema`: the slug's
 * pattern, lengths, an http(s) URL, a date), a null as an empty field, then the body bounded and sanitized
 * (`normalizeBodyAsync`). A field the revision does not hold (kept before the field existed) is not written.
 * @throws {RevisionInvalidError} naming each field that breaks the form's rules (nothing is written);
 * {HtmlBoundsError} when the body breaks a bound of `HTML_BOUNDS` (SECURITY C53).
 */
export async function checkedRestoreFields(
  kind: ContentKind,
  revisionId: string,
  fields: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const values = Object.fromEntries(
    Object.entries(restorableFields(kind, fields)).map(([name, value]) => [name, value ?? ""]),
  );
  const schema = (formSchema(kind) as unknown as z.ZodObject).partial();
  const result = schema.safeParse(values);
  if (!result.success) {
    throw new RevisionInvalidError(
      revisionId,
      result.error.issues.map((issue) => {
        const field = String(issue.path[0]);
        return { field, issue, value: typeof values[field] === "string" ? values[field] : "" };
      }),
    );
  }
  const data: Record<string, unknown> = { ...result.data };
  const body = CONTENT_MODEL[kind].body;
  if (typeof data[body] === "string") data[body] = await normalizeBodyAsync(data[body]);
  return data;
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
    permissions: [...row.$permissions],
  };
}

/**
 * Reads, writes and prunes the revisions of items, with the rights of one Appwrite client: the API key's to
 * write (`record`, `prune`, `discard`: the table lets no user create rows, SECURITY C69), a user's session or
 * the key's to read (`list`, `get`: Appwrite shows a user only the rows their roles may read).
 */
export class RevisionStore {
  private readonly tables: TablesDB;

  /** @param client the API key's client to write; a session's or the key's to read. */
  constructor(client: Client) {
    this.tables = new TablesDB(client);
  }

  /**
   * Keeps `previous` (the document as it is before a save) as a revision of `kind`, with its editors'
   * permissions. Pruning is a separate step (`prune`), run once the save succeeded: a refused save must not
   * cost the item its oldest revision.
   * @returns the new row's id.
   * @throws {AppwriteException} when the row cannot be written (401 with a client other than the API key's).
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
   * The rows naming `itemId` the caller may read, newest first, page by page (`select` keeps `$permissions`:
   * REFERENCE §2); with `fields: false` without their data.
   */
  private pages(itemId: string, fields: boolean) {
    return listPages(
      (queries) =>
        this.tables
          .listRows({ databaseId: DATABASE_ID, tableId: REVISIONS_TABLE, queries, total: false })
          .then((page) => page.rows),
      { queries: [...newestFirst(itemId), ...(fields ? [] : [Query.select(["$id", "itemId"])])] },
    );
  }

  /**
   * Deletes the revisions of `item` past the newest `keep`, counting only its real ones (`isRevisionOf`):
   * rows with other permissions are neither counted nor deleted.
   * @param item the item as it is after the save (its id and permissions).
   * @returns how many it deleted.
   * @throws {AppwriteException} when Appwrite cannot be read, or refuses a delete.
   */
  async prune(item: HistoryItem, keep = REVISIONS_KEPT): Promise<number> {
    const past: string[] = [];
    let kept = 0;
    for await (const rows of this.pages(item.$id, false)) {
      for (const row of rows) {
        if (!rowOf(row, item)) continue;
        if (kept < keep) kept += 1;
        else past.push(row.$id);
      }
    }
    // Deleted once listed: deleting while paging would pull the cursor's row from under it.
    for (const rowId of past) {
      await this.tables.deleteRow({ databaseId: DATABASE_ID, tableId: REVISIONS_TABLE, rowId });
    }
    return past.length;
  }

  /** Removes one revision (the writer's rollback when the save it preceded failed). Best effort: never throws. */
  async discard(revisionId: string): Promise<void> {
    await this.tables
      .deleteRow({ databaseId: DATABASE_ID, tableId: REVISIONS_TABLE, rowId: revisionId })
      .catch(() => {});
  }

  /**
   * The revisions of `item` the caller may read, newest first (at most `REVISIONS_KEPT`), rows that are not
   * its real revisions (`isRevisionOf`) left out.
   * @param item the item as the caller read it (its id and current permissions).
   * @throws {AppwriteException} when Appwrite cannot be read.
   */
  async list(item: HistoryItem): Promise<Revision[]> {
    const found: Revision[] = [];
    for await (const rows of this.pages(item.$id, true)) {
      for (const row of rows) {
        if (rowOf(row, item)) found.push(toRevision(row));
        if (found.length === REVISIONS_KEPT) return found;
      }
    }
    return found;
  }

  /**
   * One revision by id, whatever its permissions (the caller checks `isRevisionOf` against the item).
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

/** One field of a revision that breaks the admin form's rules: the field, zod's issue and the revision's value. */
export interface RevisionFieldIssue {
  field: string;
  issue: z.core.$ZodIssue;
  value: string;
}

/**
 * A revision whose fields a save would refuse (a slug that is not one, a field too long: written by hand or by
 * an older version; SECURITY C69). The admin shows each issue in its language (`issueText`).
 */
export class RevisionInvalidError extends Error {
  constructor(
    revisionId: string,
    readonly issues: RevisionFieldIssue[],
  ) {
    super(
      `Revision ${revisionId} cannot be restored: ` +
        issues.map((i) => `${i.field}: ${i.issue.message}`).join("; ") +
        ". Edit the item instead.",
    );
    this.name = "RevisionInvalidError";
  }
}
