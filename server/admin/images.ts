/**
 * The admin's images (SECURITY C36, C61): the images bucket grants users no `create`, so a user's image gets
 * into it only here, uploaded with the API key after the caller checked the user's quota, and owned by that
 * user (`imagePermissions`): deleting or replacing it goes through their session again.
 */
import { STUDIO_TEAM } from "../../lib/publish/item-permissions.ts";
import { ID, Permission, Role } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { IMAGES_BUCKET_ID } from "../../model/content.ts";
import {
  createAdminServices,
  fileViewUrl,
  parseFileViewUrl,
  type AppwriteTarget,
  type SessionServices,
} from "../../lib/appwrite/client.ts";
import { imageFileName } from "../../lib/images/file-name.ts";
import type { CheckedImage } from "../../lib/images/upload.ts";
import type { ImageStep } from "../../lib/publish/writer.ts";
import type { SignedInUser } from "../auth/account.ts";

/**
 * Permissions of an image the admin uploads for `userId`: `read("any")` and `delete("user:<id>")`, which makes
 * the user its owner for the quota (`server/admin/quota.ts`) and lets Appwrite decide who may delete it. No
 * `update`: with it the user could rewrite the file's permissions through the REST API (Appwrite lets a
 * caller grant `any`), drop their own role and so take the file out of their quota (SECURITY C36, C61).
 * Replacing an image deletes it and uploads a new one, so the admin never needs `update`. The studio team
 * may delete it too (`delete("team:studio")`, issue #28 item 1), as it may delete the item.
 */
export function imagePermissions(userId: string): string[] {
  // The studio team edits every item (decision 0017), so it may delete the image it replaces too.
  return [Permission.read(Role.any()), Permission.delete(Role.user(userId)), Permission.delete(STUDIO_TEAM)];
}

/**
 * Uploads `image` for `user` with the API key of `target` (the bucket lets no user create files; the caller
 * checked the quota first), owned by the user (`imagePermissions`), named after its id (`imageFileName`: a
 * guest listing the bucket learns no slug).
 */
async function uploadImage(target: AppwriteTarget, user: SignedInUser, image: CheckedImage) {
  const fileId = ID.unique();
  const file = await createAdminServices(target).storage.createFile({
    bucketId: IMAGES_BUCKET_ID,
    fileId,
    file: InputFile.fromBuffer(image.bytes, imageFileName(fileId, image.extension)),
    permissions: imagePermissions(user.id),
  });
  return file.$id;
}

/** Deletes an image this module just uploaded, with the key that uploaded it (compensation; failure ignored). */
async function removeUpload(target: AppwriteTarget, fileId: string): Promise<void> {
  await createAdminServices(target)
    .storage.deleteFile({ bucketId: IMAGES_BUCKET_ID, fileId })
    .catch(() => {});
}

/** The writer's image step for the admin: `image` uploaded for `user` with the key of `target`, removed on failure. */
export function adminImage(target: AppwriteTarget, user: SignedInUser, image: CheckedImage): ImageStep {
  return {
    upload: async () => ({ fileId: await uploadImage(target, user, image), created: true }),
    url: (fileId) => fileViewUrl(target, IMAGES_BUCKET_ID, fileId),
    remove: (fileId) => removeUpload(target, fileId),
  };
}

/** Deletes the bucket file an image URL points at; failures are ignored (spec §4: "failure ignored"). */
export async function deleteImage(session: SessionServices, url: unknown): Promise<void> {
  const file = typeof url === "string" ? parseFileViewUrl(url) : null;
  if (!file || file.bucketId !== IMAGES_BUCKET_ID) return;
  await session.storage.deleteFile({ bucketId: IMAGES_BUCKET_ID, fileId: file.fileId }).catch(() => {});
}
