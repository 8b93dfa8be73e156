/**
 * Restoring from the trash (issue #29 item 9, docs/decisions/0019-trash.md): every version of a deleted item is
 * created again with its row id (its history in `revisions` names that id), as a draft readable by its editors
 * only, unless another item took its slug meanwhile.
 */
import { Permission, Query, type Models, type TablesDB } from "node-appwrite";
import { DATABASE_ID } from "../../model/content.ts";
import { PUBLISH_AT_COLUMN, STATUS_COLUMN } from "../../model/lifecycle.ts";
import { CONTENT_MODEL, documentVersionKey, type ContentKind, type ContentLocale } from "../../model/model.ts";
import { newPreviewKey, PREVIEW_KEY_COLUMN } from "./preview-link.ts";
import { keptColumns, TRASH_TABLE, type TrashedItem, type TrashedVersion } from "./trash.ts";
import { createItemDocument, deleteItemDocument } from "./writer.ts";

/** A version cannot be restored: its slug (in its language) is used by another item now. */
export class TrashSlugTakenError extends Error {
  override name = "TrashSlugTakenError";
  constructor(
    readonly kind: ContentKind,
    readonly slug: string,
    readonly locale: ContentLocale,
  ) {
    super(
      `Cannot restore: the slug "${slug}" (${locale}) is used by another ${kind} since this one was deleted. ` +
        `Change that item's slug or move it to the trash, then restore this one.`,
    );
  }
}

/** The row of another item that uses `version`'s slug in its language now, or null. */
async function slugHolder(key: TablesDB, version: TrashedVersion): Promise<Models.DefaultRow | null> {
  const { rows } = await key.listRows({
    databaseId: DATABASE_ID,
    tableId: CONTENT_MODEL[version.kind].collectionId,
    queries: [Query.equal("slug", version.slug), Query.limit(100)],
    total: false,
  });
  return rows.find((row) => documentVersionKey(row) === documentVersionKey(version)) ?? null;
}

/**
 * Restores `item` (as read by the caller with their session, so only an editor's) with `key`: each version is
 * created again with its row id and columns, as a draft readable by its editors only (`update`/`delete` for
 * each editor role, decision 0017), with a new preview key (old preview links stay dead: SECURITY C66); its
 * history is under the same id. Then its trash rows are deleted. Nothing is written when a slug is taken.
 * @param restoredBy who restores (written to `updatedBy`).
 * @throws {TrashSlugTakenError} when another item uses a version's slug in its language now (nothing written);
 * {AppwriteException} from Appwrite (a version created before a failure is deleted again).
 */
export async function restoreFromTrash(
  key: TablesDB,
  item: TrashedItem,
  restoredBy: string,
): Promise<Models.DefaultRow[]> {
  for (const version of item.versions) {
    if (await slugHolder(key, version)) throw new TrashSlugTakenError(version.kind, version.slug, version.locale);
  }
  const created: Models.DefaultRow[] = [];
  try {
    for (const version of item.versions) {
      const columns: Record<string, unknown> = { ...keptColumns(version.kind, version.data), slug: version.slug };
      delete columns[STATUS_COLUMN];
      const publishAt = (columns[PUBLISH_AT_COLUMN] as string | null | undefined) ?? null;
      delete columns[PUBLISH_AT_COLUMN];
      created.push(
        await createItemDocument(key, {
          kind: version.kind,
          documentId: version.itemId,
          data: { ...columns, [PREVIEW_KEY_COLUMN]: newPreviewKey() },
          permissions: version.editors.flatMap((role) => [Permission.update(role), Permission.delete(role)]),
          lifecycle: { state: "draft", publishAt },
          savedBy: restoredBy,
        }).catch((error: unknown) => {
          // Another row took the id or the slug between the check and the write.
          if ((error as { code?: number }).code === 409)
            throw new TrashSlugTakenError(version.kind, version.slug, version.locale);
          throw error;
        }),
      );
    }
  } catch (error) {
    for (const row of created) await deleteItemDocument(key, item.kind, row.$id).catch(() => {});
    throw error;
  }
  for (const version of item.versions) {
    await key.deleteRow({ databaseId: DATABASE_ID, tableId: TRASH_TABLE, rowId: version.rowId }).catch(() => {});
  }
  return created;
}
