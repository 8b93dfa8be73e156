/**
 * Per-user upload quota of the admin (SECURITY C36, a target set for this project: at most 200 files or
 * 500 MB per user). A user's files are the images-bucket files whose `$permissions` grant that user
 * `update` or `delete`: the admin uploads with the API key and gives the user `delete` (`imagePermissions`;
 * images uploaded before SECURITY C61 also carry `update`); files `studio push` uploads are readable by
 * anyone and owned by no user, so they count for nobody. The bucket grants users no `create`, so the admin,
 * which checks this quota first, is the only way a user's images get in (C61).
 *
 * The count is read before each upload, so two uploads racing each other may pass one file over the limit;
 * the limit is a guard against a runaway account, not an exact meter.
 */
import { Permission, Role, type Models, type Storage } from "node-appwrite";
import { IMAGES_BUCKET_ID } from "../../model/content.ts";
import { listPages } from "../../lib/appwrite/paginate.ts";

/** Limits on one user's uploads. */
export interface UploadQuota {
  /** Most files a user may own. */
  files: number;
  /** Most bytes (sum of `sizeOriginal`) a user may own. */
  bytes: number;
}

/** The product's limits (SECURITY C36, P): 200 files, 500 MB. */
export const UPLOAD_QUOTA: UploadQuota = { files: 200, bytes: 500 * 1024 * 1024 };

/** What a user owns in the images bucket. */
export interface UploadUsage {
  files: number;
  bytes: number;
}

/** An upload that would take the user over their quota; `limit` says which one. */
export class QuotaExceededError extends Error {
  override name = "QuotaExceededError";
  constructor(
    readonly limit: "files" | "bytes",
    readonly usage: UploadUsage,
    readonly quota: UploadQuota,
  ) {
    super(
      `You have reached your upload limit (${quota.files} images or ${Math.round(quota.bytes / 1048576)} MB); ` +
        "delete images you no longer use, then try again.",
    );
  }
}

function ownedBy(file: Models.File, userId: string): boolean {
  const owner = [Permission.update(Role.user(userId)), Permission.delete(Role.user(userId))];
  return file.$permissions.some((p) => owner.includes(p));
}

/**
 * Counts the images-bucket files `userId` owns, read through `storage` (the user's session client sees
 * them: the bucket lets anyone read), with cursor pagination.
 * @param exceptFileId a file to leave out (the image an update is about to replace).
 * @throws {AppwriteException} when the bucket cannot be listed.
 */
export async function uploadUsage(storage: Storage, userId: string, exceptFileId?: string): Promise<UploadUsage> {
  const usage: UploadUsage = { files: 0, bytes: 0 };
  const pages = listPages((queries) =>
    storage.listFiles({ bucketId: IMAGES_BUCKET_ID, queries }).then((page) => page.files),
  );
  for await (const files of pages) {
    for (const file of files) {
      if (file.$id === exceptFileId || !ownedBy(file, userId)) continue;
      usage.files++;
      usage.bytes += file.sizeOriginal;
    }
  }
  return usage;
}

/**
 * Refuses an upload of `incomingBytes` that would take `userId` past `quota` (default `UPLOAD_QUOTA`).
 * @param replacing the id of a file of the user's that the upload replaces (deleted right before it).
 * @throws {QuotaExceededError} when the user would own more than `quota.files` files or `quota.bytes` bytes.
 */
export async function assertWithinQuota(
  storage: Storage,
  userId: string,
  incomingBytes: number,
  options: { quota?: UploadQuota; replacing?: string } = {},
): Promise<void> {
  const quota = options.quota ?? UPLOAD_QUOTA;
  const usage = await uploadUsage(storage, userId, options.replacing);
  if (usage.files + 1 > quota.files) throw new QuotaExceededError("files", usage, quota);
  if (usage.bytes + incomingBytes > quota.bytes) throw new QuotaExceededError("bytes", usage, quota);
}
