/**
 * A save of both language versions writes both or neither (issue #28 item 5): the route's version is written
 * first, then the other; when the second write fails, the first is undone (write-then-compensate), so an item
 * is never left with one version saved and the other not. Appwrite's TablesDB transactions cannot carry the
 * admin's writes, which mix the user's session (Appwrite's permission check) and the key (the team's roles,
 * the history, the image).
 */
import { AppwriteException, type Models } from "node-appwrite";
import { deleteItem } from "../../server/admin/content.ts";
import type { SignedInUser } from "../../server/auth/account.ts";
import type { SessionServices } from "../../lib/appwrite/client.ts";
import { snapshotFields } from "../../lib/publish/history.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { UPDATED_BY_COLUMN } from "../../model/lifecycle.ts";
import { CONTENT_MODEL, type ContentKind } from "../../model/model.ts";
import { getApiKeyServices } from "./appwrite.server.ts";

/** Appwrite's refusal of a write the user may not make (401 `user_unauthorized`), shown as the spec's §8 text. */
export function notAuthorized(): AppwriteException {
  return new AppwriteException(
    "The current user is not authorized to perform the requested action.",
    401,
    "user_unauthorized",
  );
}

/**
 * Runs `second`; when it throws, runs `undo` (its own failure is logged) and throws `second`'s error.
 * @throws what `second` throws.
 */
export async function bothOrNeither<T>(second: () => Promise<T>, undo: () => Promise<void>): Promise<T> {
  try {
    return await second();
  } catch (error) {
    await undo().catch((failure: unknown) =>
      console.error("[admin] undoing the first version of a failed save failed:", failure),
    );
    throw error;
  }
}

/**
 * Undoes the first version's write of a save: a created row is deleted (as the user, its image with it); an
 * updated one gets back its fields, state and permissions as they were (`before`), with the key (the user
 * was just allowed to write it). Its image stays the new one: the old file was deleted when it was replaced.
 */
export async function undoFirst(
  session: SessionServices,
  user: SignedInUser,
  kind: ContentKind,
  before: Models.DefaultRow | null,
  saved: Models.DefaultRow,
  held: readonly string[],
): Promise<void> {
  if (!before) {
    await deleteItem(session, user, kind, saved.$id, held);
    return;
  }
  const fields = snapshotFields(kind, before);
  delete fields[CONTENT_MODEL[kind].image];
  await getApiKeyServices().tablesDB.updateRow({
    databaseId: DATABASE_ID,
    tableId: CONTENT_MODEL[kind].collectionId,
    rowId: before.$id,
    data: { ...fields, [UPDATED_BY_COLUMN]: before[UPDATED_BY_COLUMN] ?? null },
    permissions: before.$permissions,
  });
}
