/**
 * The image types the admin accepts, told by a file's first bytes ("magic numbers"), so the browser can refuse
 * a file that is not an image the moment it is chosen (issue #17 item 2). The server keeps its own, stricter
 * check (`checkImage`: file-type and sharp); this one only reads the signature.
 *
 * Signatures: JPEG `FF D8 FF`; PNG `89 50 4E 47 0D 0A 1A 0A`; GIF `GIF87a` / `GIF89a`; WebP `RIFF` + 4 bytes
 * of size + `WEBP` (the file formats' specifications, as file-type reads them).
 */

/** The MIME types `checkImage` accepts. */
export type AcceptedImageType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

/** How many leading bytes `imageTypeOf` needs. */
export const MAGIC_BYTES = 12;

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The accepted image type whose signature `bytes` (a file's first `MAGIC_BYTES` at least) start with, or null. */
export function imageTypeOf(bytes: Uint8Array): AcceptedImageType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return null;
}
