/**
 * The image types the site accepts, told by a file's first bytes with `file-type` (its browser-safe core), so
 * the admin can refuse a file that is not an image the moment it is chosen (issue #17 item 2) with the same
 * detection the server's stricter check (`checkImage`: file-type and sharp) starts with.
 */
import { fileTypeFromBuffer } from "file-type/core";

/** Raster types accepted, by the MIME type `file-type` reports, with the extension to store them under. */
export const ACCEPTED_IMAGE_TYPES = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
} as const;

/** The MIME types accepted (`ACCEPTED_IMAGE_TYPES`' keys). */
export type AcceptedImageType = keyof typeof ACCEPTED_IMAGE_TYPES;

/** How many leading bytes `imageTypeOf` reads: file-type's own sample size for a confident answer. */
export const MAGIC_BYTES = 4100;

/** The accepted image type `bytes` (a file's first `MAGIC_BYTES`, or all of it) are, or null. */
export async function imageTypeOf(bytes: Uint8Array): Promise<AcceptedImageType | null> {
  const mime = (await fileTypeFromBuffer(bytes))?.mime;
  return mime !== undefined && mime in ACCEPTED_IMAGE_TYPES ? (mime as AcceptedImageType) : null;
}
