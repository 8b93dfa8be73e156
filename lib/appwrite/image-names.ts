/**
 * Neutral names for the images bucket's files (issue #26 item 9): the bucket is readable by anyone, so anyone
 * can list it, names included. Uploads are named after their id (`imageFileName`); this migration renames the
 * files stored before that (`<slug>.png` from the admin, the local file name from `studio push`), so a guest's
 * listing tells no slug of an unpublished item.
 */
import path from "node:path";
import { IMAGE_EXTENSIONS, IMAGES_BUCKET_ID } from "../../model/content.ts";
import { imageFileName } from "../images/file-name.ts";
import type { AdminServices } from "./client.ts";
import { listAll } from "./paginate.ts";

/** The extension of each accepted image type (as `ACCEPTED_IMAGE_TYPES`, for a name that has none). */
const EXTENSION_OF_TYPE: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
};

/**
 * The neutral name of a stored file: `<$id>.<extension>`, keeping its name's extension when the bucket allows
 * it (`IMAGE_EXTENSIONS`), else the one of its MIME type, else `bin`.
 */
export function neutralName(file: { $id: string; name: string; mimeType: string }): string {
  const extension = path.extname(file.name).slice(1).toLowerCase();
  const kept = (IMAGE_EXTENSIONS as readonly string[]).includes(extension) ? extension : undefined;
  return imageFileName(file.$id, kept ?? EXTENSION_OF_TYPE[file.mimeType] ?? "bin");
}

/**
 * Renames every file of the images bucket whose name is not its neutral one (`neutralName`), with the API key
 * of `services`; the id, bytes and permissions stay, so every view URL keeps working. Idempotent.
 * @returns how many files were renamed.
 * @throws {AppwriteException} when the bucket cannot be listed or a file cannot be updated.
 */
export async function neutralizeImageNames(services: AdminServices): Promise<number> {
  const { storage } = services;
  const files = await listAll((queries) =>
    storage.listFiles({ bucketId: IMAGES_BUCKET_ID, queries }).then((page) => page.files),
  );
  let renamed = 0;
  for (const file of files) {
    const name = neutralName(file);
    if (file.name === name) continue;
    await storage.updateFile({ bucketId: IMAGES_BUCKET_ID, fileId: file.$id, name });
    renamed += 1;
  }
  return renamed;
}
