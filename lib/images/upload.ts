/**
 * Checks of an uploaded image (spec §5 "image files only"; SECURITY C30, C31, C33, C35): the type is decided
 * by the file's bytes (magic numbers via `file-type`), never by its name or the browser's claim; the size is
 * capped; images declaring more than 40 megapixels are refused before decoding; the stored name is the file's id.
 */
import { ACCEPTED_IMAGE_TYPES, imageTypeOf } from "./magic.ts";
import sharp, { type Metadata } from "sharp";
import { MAX_IMAGE_BYTES } from "../../model/content.ts";

/** Largest image accepted, in pixels (SECURITY C35, P). */
export const MAX_PIXELS = 40_000_000;

/** An upload that is not an acceptable image; the message says what to do. */
export class ImageRejectedError extends Error {
  override name = "ImageRejectedError";
}

export interface CheckedImage {
  bytes: Uint8Array;
  mimeType: string;
  extension: string;
  width: number;
  height: number;
}

/**
 * Checks `bytes` is a JPEG, PNG, GIF or WebP of at most `MAX_IMAGE_BYTES` and `MAX_PIXELS`.
 * @throws {ImageRejectedError} for an empty, oversized, unknown-type, undecodable or too-large image.
 */
export async function checkImage(bytes: Uint8Array): Promise<CheckedImage> {
  if (bytes.byteLength === 0) throw new ImageRejectedError("The image file is empty.");
  if (bytes.byteLength > MAX_IMAGE_BYTES) {
    throw new ImageRejectedError(`The image is larger than ${MAX_IMAGE_BYTES / 1048576} MB; choose a smaller one.`);
  }
  const type = await imageTypeOf(bytes);
  if (!type) throw new ImageRejectedError("Only JPEG, PNG, GIF or WebP images can be uploaded.");
  const tooLarge = () =>
    new ImageRejectedError(`The image has more than ${MAX_PIXELS / 1_000_000} megapixels; choose a smaller one.`);
  let metadata: Metadata;
  try {
    // Reads the header only; sharp refuses a header declaring more than the limit.
    metadata = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata();
  } catch (error) {
    if (/pixel limit/i.test((error as Error).message)) throw tooLarge();
    throw new ImageRejectedError("The image could not be read; it may be damaged.");
  }
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (!width || !height) throw new ImageRejectedError("The image could not be read; it may be damaged.");
  if (width * height > MAX_PIXELS) throw tooLarge();
  return { bytes, mimeType: type, extension: ACCEPTED_IMAGE_TYPES[type], width, height };
}
