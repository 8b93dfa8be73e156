/**
 * `studio pull`'s images: the local images indexed by content, and a bucket image the content folder does not
 * have yet downloaded into `images/`, never through a link that leads outside the content folder (C63).
 */
import type { Dirent } from "node:fs";
import { lstat, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import mime from "mime-types";
import writeFileAtomic from "write-file-atomic";
import { IMAGES_BUCKET_ID, type ContentKind } from "../../model/content.ts";
import { imageStem } from "../../model/model.ts";
import { parseFileViewUrl, type AdminServices } from "../appwrite/client.ts";
import { OutsideFolderError, pathInside } from "../content/inside.ts";
import { makeDirectory } from "../make-dir.ts";
import { imageFileId } from "./documents.ts";

/** What one pull knows of its images: the local ones by content id, and the ones it downloaded. */
export interface PulledImages {
  /** Content-addressed id → file name in `images/` (`indexLocalImages`; downloads are added). */
  localImages: Map<string, string>;
  /** Images downloaded (`images/<name>`), in order. */
  downloaded: string[];
}

/**
 * Content-addressed id → file name of every image in `images/`: regular files only (a link, a FIFO or a
 * device is never read), and none when `images/` itself leads outside the content folder (C63).
 */
export async function indexLocalImages(contentDir: string): Promise<Map<string, string>> {
  const index = new Map<string, string>();
  let dir: string;
  let entries: Dirent[];
  try {
    dir = await pathInside(contentDir, "images");
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (error instanceof OutsideFolderError || (error as NodeJS.ErrnoException).code === "ENOENT") return index;
    throw error;
  }
  for (const entry of entries.filter((e) => e.isFile())) {
    index.set(imageFileId(await readFile(path.join(dir, entry.name))), entry.name);
  }
  return index;
}

/**
 * The front-matter reference for an image URL: an http(s) URL outside the bucket is kept; a bucket file is
 * found among the local images by content, or downloaded into `images/`.
 */
export async function localImageRef(
  services: AdminServices,
  contentDir: string,
  slug: string,
  kind: ContentKind,
  url: string,
  c: PulledImages,
): Promise<string | undefined> {
  const file = parseFileViewUrl(url);
  if (!file || file.bucketId !== IMAGES_BUCKET_ID) return /^https?:\/\//i.test(url) ? url : undefined;
  return localFileRef(services, contentDir, imageStem(kind, slug), file.fileId, c);
}

/**
 * The path, relative to a content file (`../images/<name>`), of the bucket file `fileId`: a local image with
 * its bytes (by content id), else the file downloaded into `images/` as `<stem>.<ext>` (`<stem>-<id>.<ext>`
 * when that name is taken). Used for featured images and for the images of a body (issue #30 item 4).
 * @throws {AppwriteException} when the file cannot be read (404: it was deleted); {OutsideFolderError} when
 *   `images/` leads outside the content folder (nothing is written).
 */
export async function localFileRef(
  services: AdminServices,
  contentDir: string,
  stem: string,
  fileId: string,
  c: PulledImages,
): Promise<string> {
  const known = c.localImages.get(fileId);
  if (known) return `../images/${known}`;
  const meta = await services.storage.getFile({ bucketId: IMAGES_BUCKET_ID, fileId });
  const bytes = Buffer.from(await services.storage.getFileView({ bucketId: IMAGES_BUCKET_ID, fileId }));
  const existing = c.localImages.get(imageFileId(bytes));
  if (existing) return `../images/${existing}`;
  const extension = mime.extension(meta.mimeType) || "bin";
  let name = `${stem}.${extension === "jpeg" ? "jpg" : extension}`;
  const taken = async (n: string) =>
    [...c.localImages.values()].includes(n) ||
    (await lstat(path.join(contentDir, "images", n)).then(
      () => true,
      () => false,
    ));
  if (await taken(name)) name = `${stem}-${fileId.slice(0, 8)}.${extension}`;
  const written = await pathInside(contentDir, `images/${name}`); // throws before anything is written
  await makeDirectory(path.dirname(written));
  await writeFileAtomic(written, bytes);
  c.localImages.set(imageFileId(bytes), name);
  c.downloaded.push(`images/${name}`);
  return `../images/${name}`;
}
