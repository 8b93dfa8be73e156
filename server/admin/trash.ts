/**
 * The admin's trash writes (issue #29 item 9, docs/decisions/0019-trash.md): delete moves an item (every
 * language version, its history kept) to the trash; restore brings it back as a draft; "Delete forever" is the
 * studio owner's. Who may trash or restore follows who may edit (decision 0017): moving to the trash needs
 * `delete` on every version (Appwrite decides, with the user's session); restoring needs reading the trash rows
 * with the session (they carry `read` for the item's editors only); the rows are then written with the key.
 */
import { AppwriteException, type Models } from "node-appwrite";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL, type ContentKind } from "../../model/model.ts";
import { createAdminServices, type AppwriteTarget, type SessionServices } from "../../lib/appwrite/client.ts";
import { mayAct } from "../../lib/publish/item-permissions.ts";
import { moveToTrash, readTrashBatch, type TrashedItem } from "../../lib/publish/trash.ts";
import { restoreFromTrash } from "../../lib/publish/trash-restore.ts";
import { deleteForever } from "../../lib/publish/trash-purge.ts";
import type { SignedInUser } from "../auth/account.ts";

const notAuthorized = () =>
  new AppwriteException(
    "The current user is not authorized to perform the requested action.",
    401,
    "user_unauthorized",
  );

/** The name the trash shows for who deleted or restored: the user's name, else their e-mail. */
const nameOf = (user: SignedInUser) => user.name || user.email;

/**
 * Moves item `documentId` of `kind` and its other language versions `otherIds` to the trash, as `user`
 * holding `held` (`heldRoles`). Each version is read with the session first, so a user who may not read or
 * delete one changes nothing.
 * @returns the trash batch id.
 * @throws {AppwriteException} 404 when a version is missing, 401 when the user may not delete it (nothing moved).
 */
export async function trashItem(
  target: AppwriteTarget,
  session: SessionServices,
  user: SignedInUser,
  kind: ContentKind,
  documentId: string,
  otherIds: readonly string[],
  held: readonly string[],
): Promise<string> {
  const tableId = CONTENT_MODEL[kind].collectionId;
  const rows: Models.DefaultRow[] = [];
  for (const rowId of [documentId, ...otherIds]) {
    const row = await session.tablesDB.getRow({ databaseId: DATABASE_ID, tableId, rowId });
    if (!mayAct(row.$permissions, held, "delete")) throw notAuthorized();
    rows.push(row);
  }
  return moveToTrash(createAdminServices(target).tablesDB, session.tablesDB, kind, rows, { deletedBy: nameOf(user) });
}

/**
 * Restores trash batch `batch` as `user`: read with their session (only an item they could edit), written with
 * the key of `target` as a draft (`restoreFromTrash`).
 * @throws {TrashNotFoundError} when the user reads nothing of it; {TrashSlugTakenError} when a slug is taken
 * meanwhile (nothing written); {AppwriteException} from Appwrite.
 */
export async function restoreItem(
  target: AppwriteTarget,
  session: SessionServices,
  user: SignedInUser,
  batch: string,
): Promise<TrashedItem> {
  const item = await readTrashBatch(session.tablesDB, batch);
  await restoreFromTrash(createAdminServices(target).tablesDB, item, nameOf(user));
  return item;
}

/**
 * Deletes trash batch `batch` for good (its history, unused images, its trash rows) with the key of `target`.
 * The caller checks the user is the studio owner (issue #29 item 9: "Delete forever (owner only)").
 * @throws {TrashNotFoundError} when it is not in the trash; {AppwriteException} from Appwrite.
 */
export async function deleteItemForever(
  target: AppwriteTarget,
  session: SessionServices,
  batch: string,
): Promise<TrashedItem> {
  const item = await readTrashBatch(session.tablesDB, batch);
  await deleteForever(createAdminServices(target), item);
  return item;
}
