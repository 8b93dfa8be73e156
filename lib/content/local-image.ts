/**
 * A content file's local image: read only when it is a real image of an allowed type and size that stays
 * inside the content folder (SECURITY C30, C31, C63).
 */
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileTypeFromBuffer } from "file-type";
import { IMAGE_EXTENSIONS, MAX_IMAGE_BYTES } from "../../model/content.ts";
import { OutsideFolderError, pathInside } from "./inside.ts";
import type { LocalImage } from "./item.ts";

const SIGNATURE_MIME: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
};

/**
 * Resolves an image reference relative to `dir`. URLs pass through; local files must exist, have an
 * allowed extension, be inside `root` (the content folder) also once symbolic links are followed (C63), be
 * at most `MAX_IMAGE_BYTES`, and carry the signature of that type (SECURITY C30, C31).
 * @returns the image, or a message saying what is wrong and what to do.
 */
export async function readImage(
  dir: string,
  ref: string,
  root: string,
): Promise<LocalImage | { url: string } | string> {
  if (/^https?:\/\//i.test(ref)) return { url: ref };
  const absolute = path.resolve(dir, ref);
  try {
    await pathInside(root, absolute);
  } catch (error) {
    if (!(error instanceof OutsideFolderError)) throw error;
    const copy = `copy the file itself to images/ and write ../images/${path.basename(absolute)}`;
    return error.how === "path"
      ? `"${ref}" is outside the content folder (${root}); only images inside it are published: ${copy}`
      : `"${ref}" is a symbolic link (or under one) that leads outside the content folder (${root}); only images inside it are published: ${copy}`;
  }
  const extension = path.extname(absolute).slice(1).toLowerCase();
  if (!(IMAGE_EXTENSIONS as readonly string[]).includes(extension)) {
    return `"${ref}" must be one of ${IMAGE_EXTENSIONS.join(", ")}`;
  }
  let size: number;
  try {
    size = (await stat(absolute)).size;
  } catch {
    return `"${ref}" does not exist (paths are relative to the content file)`;
  }
  if (size === 0) return `"${ref}" is empty`;
  if (size > MAX_IMAGE_BYTES)
    return `"${ref}" is ${(size / 1048576).toFixed(1)} MB; images may be at most ${MAX_IMAGE_BYTES / 1048576} MB`;
  const bytes = await readFile(absolute);
  const sniffed = await fileTypeFromBuffer(bytes);
  const expected = SIGNATURE_MIME[extension];
  if (!sniffed || sniffed.mime !== expected) {
    return `"${ref}" is not a real ${extension.toUpperCase()} image (its content is ${sniffed?.mime ?? "not an image"})`;
  }
  return { path: absolute, name: path.basename(absolute), bytes, mimeType: sniffed.mime };
}
