/**
 * Emptying the trash (issue #29 item 9, docs/decisions/0019-trash.md): "Delete forever" (the studio owner, in
 * the admin) and the purge of what was deleted more than `TRASH_DAYS` ago, run by every site process's
 * scheduler pass (`schedule.ts`). Both remove the item's trash rows, its history (revisions under its row ids)
 * and its images, unless another item (on the site or in the trash) still uses the same file. With the API key.
 */
import { Query, type Models } from "node-appwrite";
import { DATABASE_ID, IMAGES_BUCKET_ID } from "../../model/content.ts";
import { CONTENT_KIND_NAMES, CONTENT_MODEL } from "../../model/model.ts";
import { parseFileViewUrl, type AdminServices } from "../appwrite/client.ts";
import { listPages } from "../appwrite/paginate.ts";
import { REVISIONS_TABLE } from "./history.ts";
import { groupTrash, listTrashVersions, purgeBefore, TRASH_TABLE, type TrashedItem } from "./trash.ts";

/** Whether a row other than `item`'s (content, or another trash batch) points at the image `url`. */
async function imageStillUsed(services: AdminServices, url: string, item: TrashedItem): Promise<boolean> {
  const { tablesDB } = services;
  for (const kind of CONTENT_KIND_NAMES) {
    const { rows } = await tablesDB.listRows({
      databaseId: DATABASE_ID,
      tableId: CONTENT_MODEL[kind].collectionId,
      queries: [Query.equal(CONTENT_MODEL[kind].image, url), Query.limit(1), Query.select(["$id"])],
      total: false,
    });
    if (rows.length > 0) return true;
  }
  const { rows } = await tablesDB.listRows({
    databaseId: DATABASE_ID,
    tableId: TRASH_TABLE,
    queries: [Query.equal("image", url), Query.notEqual("batch", item.batch), Query.limit(1), Query.select(["$id"])],
    total: false,
  });
  return rows.length > 0;
}

/** Deletes every revision naming `itemId` (with the key, whatever its permissions). */
async function deleteHistory(services: AdminServices, itemId: string): Promise<void> {
  const ids: string[] = [];
  const pages = listPages<Models.DefaultRow>(
    (queries) =>
      services.tablesDB
        .listRows({ databaseId: DATABASE_ID, tableId: REVISIONS_TABLE, queries, total: false })
        .then((page) => page.rows),
    { queries: [Query.equal("itemId", itemId), Query.select(["$id"])] },
  );
  for await (const rows of pages) ids.push(...rows.map((row) => row.$id));
  for (const rowId of ids) {
    await services.tablesDB.deleteRow({ databaseId: DATABASE_ID, tableId: REVISIONS_TABLE, rowId }).catch(ignoreGone);
  }
}

/** A 404 is fine (another process purged it first); anything else is rethrown. */
function ignoreGone(error: unknown): void {
  if ((error as { code?: number }).code !== 404) throw error;
}

/**
 * Deletes `item` for good: its history, its images in the images bucket that no other row uses, then its trash
 * rows. Idempotent (what is already gone is skipped), so processes may race.
 * @throws {AppwriteException} when Appwrite fails (what was deleted stays deleted; the next call finishes).
 */
export async function deleteForever(services: AdminServices, item: TrashedItem): Promise<void> {
  for (const version of item.versions) await deleteHistory(services, version.itemId);
  const images = new Set(item.versions.flatMap((v) => (v.image ? [v.image] : [])));
  for (const url of images) {
    const file = parseFileViewUrl(url);
    if (file?.bucketId !== IMAGES_BUCKET_ID || (await imageStillUsed(services, url, item))) continue;
    await services.storage.deleteFile({ bucketId: IMAGES_BUCKET_ID, fileId: file.fileId }).catch(ignoreGone);
  }
  for (const version of item.versions) {
    await services.tablesDB
      .deleteRow({ databaseId: DATABASE_ID, tableId: TRASH_TABLE, rowId: version.rowId })
      .catch(ignoreGone);
  }
}

/**
 * Purges everything deleted more than `TRASH_DAYS` before `now` (ms since the epoch; tests inject a clock).
 * @returns how many items it purged.
 * @throws {AppwriteException} when Appwrite fails (the next pass retries).
 */
export async function purgeExpiredTrash(services: AdminServices, now = Date.now()): Promise<number> {
  const due = groupTrash(
    await listTrashVersions(services.tablesDB, [Query.lessThan("deletedAt", purgeBefore(now))]),
    now,
  );
  for (const item of due) await deleteForever(services, item);
  return due.length;
}
