/**
 * `studio push`'s images: content-addressed files of the images bucket, uploaded once per run however many
 * items share them, reused when Appwrite already has them, and removed when only deleted documents used them.
 */
import { AppwriteException, Permission, Role } from "node-appwrite";
import path from "node:path";
import { InputFile } from "node-appwrite/file";
import { CONTENT_KINDS, IMAGES_BUCKET_ID, type ContentKind } from "../../model/content.ts";
import { parseFileViewUrl, type AdminServices } from "../appwrite/client.ts";
import { imageFileName } from "../images/file-name.ts";
import type { LocalImage } from "../content/read.ts";
import { bodyImageFiles, imageFileId, mediaPath } from "./documents.ts";
import type { PlannedItem } from "./plan.ts";
import { referencedImageIds } from "../content/body-images.ts";
import { forEachRow } from "./remote-light.ts";

/**
 * Content-addressed image ids that more than one planned item writes (as its featured image or in its body):
 * a failed write of one never removes a file another uses.
 */
export function imagesUsedTwice(planned: PlannedItem[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const p of planned) {
    const ids = new Set(bodyImageFiles(p.item).keys());
    if (p.image && p.imageUrl) ids.add(imageFileId(p.image.bytes));
    for (const id of ids) (seen.has(id) ? twice : seen).add(id);
  }
  return twice;
}

/**
 * Makes sure the local images of the item's body are in the bucket when the body is written (a create, or an
 * update that changes it; issue #30 item 4), as `ensureImage` does for the featured image: content-addressed,
 * one upload per run however many items share a file, an existing file reused. Images whose URL the lock
 * recorded for another file (one pull found in Appwrite) are not uploaded.
 * @returns the file ids this run uploaded for the item (a failed write removes those no other item uses).
 * @throws what Appwrite throws for an upload (the item then fails; files uploaded before stay listed in `uploads`).
 */
export async function ensureBodyImages(
  services: AdminServices,
  p: PlannedItem,
  uploads: ImageUploads,
): Promise<string[]> {
  const files = bodyImageFiles(p.item);
  if (files.size === 0 || !p.bodyImages) return [];
  const bodyField = CONTENT_KINDS[p.entry.kind].bodyField;
  if (p.entry.action === "update" && !p.entry.changes.includes(bodyField)) return [];
  const urls = new Set(Object.values(p.bodyImages));
  const created: string[] = [];
  for (const [fileId, image] of files) {
    if (!urls.has(mediaPath(fileId))) continue; // the body points at a file Appwrite already had
    let upload = uploads.get(fileId);
    if (!upload) {
      upload = uploadIfMissing(services, fileId, image);
      uploads.set(fileId, upload);
    }
    try {
      if (await upload) created.push(fileId);
    } catch (error) {
      uploads.delete(fileId);
      throw error;
    }
  }
  return created;
}

/** Uploads in flight or done in this run, by file id; the promise says whether this run uploaded it. */
export type ImageUploads = Map<string, Promise<boolean>>;

/**
 * Makes sure the item's local image is in the bucket when the image field is written. Items sharing an image
 * wait for one upload; a file that already exists (uploaded earlier, or by a concurrent push) is reused.
 * @returns the file id when this run uploaded it, else null.
 */
export async function ensureImage(
  services: AdminServices,
  p: PlannedItem,
  uploads: ImageUploads,
): Promise<string | null> {
  const imageField = CONTENT_KINDS[p.entry.kind].imageField;
  if (!p.image || !p.imageUrl) return null;
  if (p.entry.action === "update" && !p.entry.changes.includes(imageField)) return null;
  const target = parseFileViewUrl(p.imageUrl);
  const fileId = imageFileId(p.image.bytes);
  if (!target || target.fileId !== fileId) return null; // a URL recorded by pull: that file is Appwrite's own
  let upload = uploads.get(fileId);
  if (!upload) {
    upload = uploadIfMissing(services, fileId, p.image);
    uploads.set(fileId, upload);
  }
  try {
    return (await upload) ? fileId : null;
  } catch (error) {
    uploads.delete(fileId);
    throw error;
  }
}

async function uploadIfMissing(services: AdminServices, fileId: string, image: LocalImage): Promise<boolean> {
  try {
    await services.storage.getFile({ bucketId: IMAGES_BUCKET_ID, fileId });
    return false;
  } catch (error) {
    if (!(error instanceof AppwriteException && error.code === 404)) throw error;
  }
  try {
    await services.storage.createFile({
      bucketId: IMAGES_BUCKET_ID,
      fileId,
      // Named after its content-addressed id, not the local file: a guest listing the bucket learns no slug.
      file: InputFile.fromBuffer(
        new Uint8Array(image.bytes),
        imageFileName(fileId, path.extname(image.name).slice(1).toLowerCase()),
      ),
      permissions: [Permission.read(Role.any())],
    });
    return true;
  } catch (error) {
    if (error instanceof AppwriteException && error.type === "storage_file_already_exists") return false;
    throw error;
  }
}

/**
 * Removes the files `fileIds` this run uploaded for a write that failed (SECURITY C44: no orphans), except
 * those `shared` with another planned item; forgets them in `uploads`. Best effort: never throws.
 */
export async function removeUploaded(
  services: AdminServices,
  fileIds: readonly string[],
  shared: ReadonlySet<string>,
  uploads: ImageUploads,
): Promise<void> {
  for (const fileId of fileIds) {
    if (shared.has(fileId)) continue;
    await services.storage.deleteFile({ bucketId: IMAGES_BUCKET_ID, fileId }).catch(() => {});
    uploads.delete(fileId);
  }
}

/**
 * After deletions (`deleted`: the ids of the documents deleted), removes the images only they referenced (SECURITY C45: delete cleans up).
 * The deleted documents' images come from the plan (`PlannedItem.remote`, read whole for a delete); what still
 * uses an image is read from Appwrite as it is now, a page at a time (`forEachRow`: image and body columns
 * only, issue #33 item 6), and from the plan's items.
 * Best effort: a failure leaves the file for a later sweep.
 */
export async function removeOrphanImages(
  services: AdminServices,
  planned: PlannedItem[],
  deleted: ReadonlySet<string>,
): Promise<void> {
  if (deleted.size === 0) return;
  const stillUsed = new Set<string>();
  const candidates = new Set<string>();
  for (const p of planned) {
    if (!p.remote || !deleted.has(p.remote.$id)) continue;
    const file = parseFileViewUrl(String(p.remote[CONTENT_KINDS[p.entry.kind].imageField] ?? ""));
    if (file && file.bucketId === IMAGES_BUCKET_ID) candidates.add(file.fileId);
  }
  if (candidates.size === 0) return;
  for (const p of planned) {
    const file = p.imageUrl ? parseFileViewUrl(p.imageUrl) : null;
    if (file) stillUsed.add(file.fileId);
    for (const id of bodyImageFiles(p.item).keys()) stillUsed.add(id);
  }
  // What is left in Appwrite: its featured images, and a body (kept or written) may show a file as an inline
  // image (issue #30 item 4): never removed then.
  try {
    for (const kind of Object.keys(CONTENT_KINDS) as ContentKind[]) {
      const { imageField, bodyField } = CONTENT_KINDS[kind];
      await forEachRow(services, kind, [imageField, bodyField], (doc) => {
        if (deleted.has(doc.$id)) return;
        const file = parseFileViewUrl(String(doc[imageField] ?? ""));
        if (file && file.bucketId === IMAGES_BUCKET_ID) stillUsed.add(file.fileId);
        for (const id of referencedImageIds(String(doc[bodyField] ?? ""))) stillUsed.add(id);
      });
    }
  } catch {
    return; // unread: nothing is removed (a later sweep can)
  }
  for (const fileId of candidates) {
    if (stillUsed.has(fileId)) continue;
    await services.storage.deleteFile({ bucketId: IMAGES_BUCKET_ID, fileId }).catch(() => {});
  }
}
