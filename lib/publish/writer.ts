/**
 * The one writer of ventures and posts (ARCHITECTURE decision 3): create, update and delete of documents with
 * their image's upload, replacement and rollback, used by the admin (`server/admin/content.ts`, as the signed-in
 * user) and by `studio push` and `restore` (`lib/publish/*`, with the API key). Who may write, which
 * permissions a document gets and how an image is uploaded (the admin's quota and owner, push's
 * content-addressed ids) are the caller's: this module makes every write put the same wire format in Appwrite
 * (dates as Appwrite's `…+00:00`) and never leave behind an image it uploaded for a document it failed to write
 * (SECURITY C44). Every update keeps the version it replaces in the item's history (`lib/publish/history.ts`,
 * issue #16 item 4), so a save from any path can be undone.
 */
import { ID, Permission, Role, type Client, type Models, type TablesDB } from "node-appwrite";
import { DATABASE_ID } from "../../model/content.ts";
import {
  PUBLISH_AT_COLUMN,
  readRoleFor,
  STATUS_COLUMN,
  UPDATED_BY_COLUMN,
  type ItemState,
} from "../../model/lifecycle.ts";
import { CONTENT_MODEL, fieldsOf, type ContentKind } from "../../model/model.ts";
import { editorRolesOf } from "./item-permissions.ts";
import { checkedRestoreFields, isRevisionOf, RevisionMismatchError, RevisionStore } from "./history.ts";
import { purgeAfterWrite, purgeConfigured } from "./purge.ts";

/**
 * The row calls the writer makes: a session client's or an API-key client's `tablesDB` (Appwrite's TablesDB, the
 * API of record since 1.8; a collection is a table, a document a row); its `client` also writes the history's
 * rows (`RevisionStore`) unless `HistoryOptions.historyClient` names the API key's.
 */
export type DocumentWriter = Pick<TablesDB, "createRow" | "updateRow" | "deleteRow" | "getRow" | "client">;

/** How the caller puts an item's image into the bucket (see `writeItem`). */
export interface ImageStep {
  /**
   * Puts the image in the bucket, before the document is written. Returns the file id and whether this call
   * created the file (a failed document write then removes it), or null when nothing needs writing (the
   * document already points at the file).
   */
  upload(): Promise<{ fileId: string; created: boolean } | null>;
  /** The image field's value for `fileId` (its view URL). */
  url(fileId: string): string;
  /** Removes a file `upload` created, when the document write failed. Best effort: never throws. */
  remove(fileId: string): Promise<void>;
}

/** One write of a venture or post. */
export interface ItemWrite {
  kind: ContentKind;
  /** Document fields to write (an update writes only these). */
  data: Record<string, unknown>;
  /** The image to upload first, if any; its field is set to the uploaded file's URL. */
  image?: ImageStep | null;
  /**
   * The item's lifecycle state and due time (issue #16), when this write sets them: written to the `status`
   * and `publishAt` columns, and the document's read permission derived from the state (`statePermissions`).
   */
  lifecycle?: { state: ItemState; publishAt: string | Date | null };
  /** Who saves (a user's name, `studio push`): written to `updatedBy`, which an edit conflict names. */
  savedBy?: string;
}

/** What an update knows of the history (issue #16 item 4). */
export interface HistoryOptions {
  /** The document as it is before this update, when the caller already read it (else the writer reads it). */
  previous?: Models.DefaultRow;
  /**
   * False for a write that is not a save (the scheduler's promotion changes only the state): no revision is
   * kept. Default true.
   */
  keepRevision?: boolean;
  /**
   * The client the revision is written (and the history pruned) with: the API key's (SECURITY C69: the
   * revisions table lets no user create rows); default the writer's own, which is the key's for `studio`. The
   * admin passes its key's client; the item itself is still written by `databases` (the user's session, so
   * Appwrite decides whether the save is allowed; a refused save discards the revision).
   */
  historyClient?: Client;
}

/**
 * `permissions` (Appwrite permission strings) with the read permissions of `state`: every `read(…)` replaced
 * by `read("any")` when published, otherwise by `read(<role>)` for each editor role (`editorRolesOf`: the roles
 * granted `update`, e.g. `team:studio` and the creator), the rest (update, delete) kept. The one place a
 * document's visibility is derived from its state (issue #16: "a draft is a document guests cannot read";
 * issue #28 item 3: nor can a signed-in user outside its editors).
 */
export function statePermissions(permissions: readonly string[], state: ItemState): string[] {
  const others = permissions.filter((p) => !p.startsWith("read("));
  const reads =
    readRoleFor(state) === "any"
      ? [Permission.read(Role.any())]
      : editorRolesOf(permissions).map((role) => Permission.read(role));
  return [...reads, ...others];
}

/**
 * Appwrite's datetime format (REFERENCE §3): UTC with milliseconds and `+00:00`, e.g.
 * `2026-03-14T00:00:00.000+00:00`, the one date format the product writes. Accepts a Date or anything `Date`
 * parses (`2026-03-14`, `…Z`, `…+02:00`).
 * @throws {RangeError} for an unparsable value.
 */
export function toAppwriteDatetime(value: Date | string): string {
  return new Date(value).toISOString().replace("Z", "+00:00");
}

/** `data` as it goes on the wire: the kind's `date` fields in Appwrite's format, everything else as it is. */
export function wireData(kind: ContentKind, data: Record<string, unknown>): Record<string, unknown> {
  const out = { ...data };
  for (const [name, field] of fieldsOf(CONTENT_MODEL[kind])) {
    const value = out[name];
    if (field.type === "date" && (typeof value === "string" || value instanceof Date)) {
      out[name] = toAppwriteDatetime(value);
    }
  }
  return out;
}

/** The columns `write` puts on the wire: its data (`wireData`), its lifecycle columns and `updatedBy`. */
function rowData(write: ItemWrite): Record<string, unknown> {
  const data = wireData(write.kind, write.data);
  if (write.lifecycle) {
    data[STATUS_COLUMN] = write.lifecycle.state;
    data[PUBLISH_AT_COLUMN] = write.lifecycle.publishAt ? toAppwriteDatetime(write.lifecycle.publishAt) : null;
  }
  if (write.savedBy !== undefined) data[UPDATED_BY_COLUMN] = write.savedBy.slice(0, 128);
  return data;
}

/**
 * The row `createItemDocument` writes, as one element of TablesDB `createRows`' `rows` (Appwrite 1.8 bulk
 * create: `{ $id, $permissions, ...columns }`), for a write whose image is already in the bucket (its URL in
 * `write.data`). Used by `studio push` to create many items in one request (issue #33 item 5).
 */
export function newItemRow(
  write: Omit<ItemWrite, "image"> & { permissions: string[]; documentId?: string },
): Record<string, unknown> {
  return {
    ...rowData(write),
    $id: write.documentId ?? ID.unique(),
    $permissions: write.lifecycle ? statePermissions(write.permissions, write.lifecycle.state) : write.permissions,
  };
}

/** Uploads the image of `write` (if any), then runs `save` with the data to write; rolls the upload back on failure. */
async function withImage(
  write: ItemWrite,
  save: (data: Record<string, unknown>) => Promise<Models.DefaultRow>,
): Promise<Models.DefaultRow> {
  const data = rowData(write);
  const uploaded = write.image ? await write.image.upload() : null;
  if (uploaded) data[CONTENT_MODEL[write.kind].image] = write.image!.url(uploaded.fileId);
  try {
    return await save(data);
  } catch (error) {
    // No orphans (SECURITY C44): the only document that would reference the new file was not written.
    if (uploaded?.created) await write.image!.remove(uploaded.fileId);
    throw error;
  }
}

/**
 * Creates a venture or post: uploads its image first (`write.image`), then the document with `permissions`
 * (and `documentId`, default a unique id); when the document cannot be written, the image just uploaded is
 * removed again.
 * @throws what the image step or Appwrite throws (`AppwriteException`); nothing is left behind.
 */
export function createItemDocument(
  databases: DocumentWriter,
  write: ItemWrite & { permissions: string[]; documentId?: string },
): Promise<Models.DefaultRow> {
  return withImage(write, (data) =>
    databases.createRow({
      databaseId: DATABASE_ID,
      tableId: CONTENT_MODEL[write.kind].collectionId,
      rowId: write.documentId ?? ID.unique(),
      data,
      permissions: write.lifecycle ? statePermissions(write.permissions, write.lifecycle.state) : write.permissions,
    }),
  ).then((row) => {
    purgeAfterWrite(write.kind, [row.slug as string | undefined]); // the CDN's copies (issue #32 item 3)
    return row;
  });
}

/**
 * Updates the fields `write.data` of document `documentId`: uploads a new image first (`write.image`; replacing
 * the old one, e.g. deleting it, is the caller's step before), then the document; when the update fails, the
 * image just uploaded is removed again. With `write.lifecycle` and `write.permissions` (the document's
 * current ones), its permissions are rewritten for the new state (`statePermissions`) when that changes them.
 * Before writing, the version it replaces (`write.previous`, else read now) is kept as a revision with its
 * editors' permissions (`RevisionStore.record`), removed again when the update fails, and the item's history
 * pruned to the last 20 once it succeeded;
 * `keepRevision: false` skips that (a promotion, not a save).
 * @throws what the image step or Appwrite throws (404 missing, 401 not allowed); nothing is left behind.
 */
export async function updateItemDocument(
  databases: DocumentWriter,
  documentId: string,
  write: ItemWrite & HistoryOptions & { permissions?: readonly string[] },
): Promise<Models.DefaultRow> {
  const wanted =
    write.lifecycle && write.permissions ? statePermissions(write.permissions, write.lifecycle.state) : undefined;
  // Sent only when the state changes them: a caller may change a document without being allowed to grant
  // its owner's roles again (Appwrite refuses roles the caller does not hold).
  const unchanged =
    wanted &&
    write.permissions &&
    wanted.length === write.permissions.length &&
    wanted.every((p) => write.permissions!.includes(p));
  const permissions = unchanged ? undefined : wanted;
  const tableId = CONTENT_MODEL[write.kind].collectionId;
  let revisionId: string | null = null;
  const history = new RevisionStore(write.historyClient ?? databases.client);
  let previous = write.previous;
  if (write.keepRevision !== false) {
    previous ??= await databases.getRow({ databaseId: DATABASE_ID, tableId, rowId: documentId });
    revisionId = await history.record(write.kind, previous);
  }
  let saved: Models.DefaultRow;
  try {
    saved = await withImage(write, (data) =>
      databases.updateRow({
        databaseId: DATABASE_ID,
        tableId,
        rowId: documentId,
        data,
        ...(permissions ? { permissions } : {}),
      }),
    );
  } catch (error) {
    // The save did not happen: the version just kept is still the item's current one.
    if (revisionId) await history.discard(revisionId);
    throw error;
  }
  // The CDN drops the pages of the old and the new slug (issue #32 item 3); best effort, after the write.
  purgeAfterWrite(write.kind, [previous?.slug as string | undefined, saved.slug as string | undefined]);
  // The save is done whatever pruning does: a prune that fails leaves extra rows the next save prunes.
  if (revisionId) await history.prune(saved).catch(() => 0);
  return saved;
}

/**
 * Restores revision `revisionId` of document `documentId`: writes its slug, text fields and body back
 * (`restorableFields`; the image, state and permissions stay as they are) through `updateItemDocument`, so the
 * version it replaces becomes a revision in turn (issue #16: "restoring is itself a new version").
 * The revision and the item are read with `databases`' client, so only one the caller may read is restored,
 * and only a real revision of that item (`isRevisionOf`: its permissions are the item's revisions'); its
 * fields are checked and sanitized as a save's (`checkedRestoreFields`; SECURITY C69).
 * @param savedBy who restores (written to `updatedBy`).
 * @param historyClient the API key's client, which writes the new revision (see `HistoryOptions.historyClient`).
 * @throws {RevisionMismatchError} when the revision is not one of this item's; {RevisionInvalidError} when a
 * field breaks the form's rules, {HtmlBoundsError} when the body breaks a bound (nothing is written);
 * {AppwriteException} 404 when the revision or the document is missing or not readable by the caller, 401
 * when the caller may not update it.
 */
export async function restoreRevision(
  databases: DocumentWriter,
  kind: ContentKind,
  documentId: string,
  revisionId: string,
  savedBy: string,
  historyClient: Client,
): Promise<Models.DefaultRow> {
  const revision = await new RevisionStore(databases.client).get(revisionId);
  const item = await databases.getRow({
    databaseId: DATABASE_ID,
    tableId: CONTENT_MODEL[kind].collectionId,
    rowId: documentId,
  });
  if (revision.kind !== kind || !isRevisionOf(revision, item)) {
    throw new RevisionMismatchError(revisionId, documentId);
  }
  return updateItemDocument(databases, documentId, {
    kind,
    data: await checkedRestoreFields(kind, revisionId, revision.fields),
    savedBy,
    previous: item,
    historyClient,
  });
}

/**
 * Deletes document `documentId` of `kind`. Its image is the caller's: the admin deletes it first (spec §4),
 * `push` after all deletions, when no other document uses it.
 * @throws {AppwriteException} from Appwrite (404 missing, 401 not allowed).
 */
export async function deleteItemDocument(
  databases: DocumentWriter,
  kind: ContentKind,
  documentId: string,
): Promise<void> {
  const ids = { databaseId: DATABASE_ID, tableId: CONTENT_MODEL[kind].collectionId, rowId: documentId };
  // The slug names the item's pages for the CDN purge (issue #32 item 3): read only when a purge is configured.
  const slug = purgeConfigured()
    ? await databases.getRow(ids).then(
        (row) => row.slug as string | undefined,
        () => undefined,
      )
    : undefined;
  await databases.deleteRow(ids);
  purgeAfterWrite(kind, [slug]);
}
