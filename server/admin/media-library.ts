/**
 * The media library (issue #30 item 3): the images bucket's files with what the library keeps of them (the
 * `media` table: name, default alt texts, dimensions, uploader; `MEDIA_MODEL`), where each is used
 * (`media-usage.ts`), uploads, replacements and deletions. The caller has checked the user is on the studio
 * team (`web/data/media.server.ts`); the writes here then use the site's key (SECURITY C39: the check runs in
 * app code first), except the quota read, which goes through the user's session as for featured images.
 *
 * - Upload: the same checks as a featured image (`checkImage`: type by content, 5 MB, 40 MP; SECURITY C30,
 *   C31, C35) and the same per-user quota (`assertWithinQuota`, C36), then the same upload (`adminImage`, the
 *   user owns the file, C61).
 * - Replace: a new file under a new id (ids are immutable: `/media/<id>` is cached forever), every item using
 *   the old one rewritten to the new one, then the old file deleted; the site's page cache is dropped by the
 *   admin POST that did it (`server/serve-site.ts`) and by the rows' change events.
 * - Delete: refused while any item uses the image (`MediaInUseError` lists them).
 */
import { AppwriteException, Permission, Query, type Models } from "node-appwrite";
import { unsizedMediaIds, withImageSizes } from "../../lib/html/media-refs.ts";
import { listPages } from "../../lib/appwrite/paginate.ts";
import { isNotFound, type AdminServices, type SessionServices } from "../../lib/appwrite/client.ts";
import { parseAltTexts, parseMediaMeta, type AltTexts, type MediaMeta } from "../../lib/appwrite/media-rows.ts";
import { STUDIO_TEAM } from "../../lib/publish/item-permissions.ts";
import { checkImage, type CheckedImage } from "../../lib/images/upload.ts";
import { DATABASE_ID, IMAGES_BUCKET_ID } from "../../model/content.ts";
import { MEDIA_MODEL } from "../../model/model.ts";
import type { SignedInUser } from "../auth/account.ts";
import { adminImage } from "./images.ts";
import { assertWithinQuota, type UploadQuota } from "./quota.ts";
import { mediaUsage, type MediaUse } from "./media-usage.ts";
import { rewriteUses } from "./media-rewrite.ts";

const TABLE = MEDIA_MODEL.media.collectionId;
const ids = (fileId: string) => ({ databaseId: DATABASE_ID, tableId: TABLE, rowId: fileId });

/** One image of the library as the admin shows it. */
export interface MediaEntry {
  id: string;
  /** `/media/<id>`: what a body's `<img src>` holds. */
  url: string;
  /** The name the file had when uploaded (`<id>.<ext>` for files the library did not upload). */
  name: string;
  bytes: number;
  mimeType: string;
  /** Pixels; null for a file uploaded before the library whose row was not made yet. */
  width: number | null;
  height: number | null;
  alt: AltTexts;
  uploadedBy: string | null;
  /** ISO date-time of the upload. */
  uploadedAt: string;
  uses: MediaUse[];
}

/** A delete refused because items use the image; `uses` names them. */
export class MediaInUseError extends Error {
  override name = "MediaInUseError";
  constructor(readonly uses: MediaUse[]) {
    super(`The image is used by ${uses.length} item(s); remove it from them first.`);
  }
}

/** An id that is no file of the images bucket. */
export class MediaNotFoundError extends Error {
  override name = "MediaNotFoundError";
  constructor(fileId: string) {
    super(`No image ${fileId} in the media library.`);
  }
}

/** An upload's name as shown: the base name, control characters removed, at most 255 characters. */
export function displayName(name: string, fallback: string): string {
  // eslint-disable-next-line no-control-regex
  const base = (name.split(/[/\\]/).pop() ?? "").replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return (base || fallback).slice(0, 255);
}

/** The user who owns a file (`delete("user:<id>")`, `imagePermissions`), or null (a `studio push` file). */
function ownerOf(file: Models.File): string | null {
  for (const p of file.$permissions) {
    const match = /^delete\("user:([^"]+)"\)$/.exec(p);
    if (match) return match[1]!;
  }
  return null;
}

function entryOf(file: Models.File, row: Models.DefaultRow | undefined, uses: MediaUse[]): MediaEntry {
  const meta: MediaMeta | null = row ? parseMediaMeta(row["meta"]) : null;
  return {
    id: file.$id,
    url: `/media/${file.$id}`,
    name: typeof row?.["name"] === "string" ? row["name"] : file.name,
    bytes: file.sizeOriginal,
    mimeType: file.mimeType,
    width: meta?.width ?? null,
    height: meta?.height ?? null,
    alt: parseAltTexts(row?.["alt"]),
    uploadedBy: typeof row?.["uploadedBy"] === "string" ? row["uploadedBy"] : ownerOf(file),
    uploadedAt: file.$createdAt,
    uses,
  };
}

/** True when `entry` matches every word of `search` in its name, id or alt texts (case-insensitive). */
export function matchesSearch(entry: Pick<MediaEntry, "id" | "name" | "alt">, search: string): boolean {
  const haystack = [entry.id, entry.name, ...Object.values(entry.alt)].join(" ").toLocaleLowerCase();
  return search
    .toLocaleLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/**
 * The library: every file of the images bucket, newest first, with its row and uses; only those matching
 * `search` (`matchesSearch`) when it is not blank.
 * @throws {AppwriteException} when Appwrite fails.
 */
export async function listMedia(services: AdminServices, search = ""): Promise<MediaEntry[]> {
  const files: Models.File[] = [];
  for await (const page of listPages((queries) =>
    services.storage.listFiles({ bucketId: IMAGES_BUCKET_ID, queries }).then((p) => p.files),
  )) {
    files.push(...page);
  }
  const rows = new Map<string, Models.DefaultRow>();
  for await (const page of listPages((queries) =>
    services.tablesDB.listRows({ databaseId: DATABASE_ID, tableId: TABLE, queries }).then((p) => p.rows),
  )) {
    for (const row of page) rows.set(row.$id, row);
  }
  const uses = await mediaUsage(services);
  return files
    .map((file) => entryOf(file, rows.get(file.$id), uses.get(file.$id) ?? []))
    .filter((entry) => matchesSearch(entry, search))
    .sort((a, b) => b.uploadedAt.localeCompare(a.uploadedAt));
}

/** One image of the library, or null when the bucket has no such file. */
export async function getMedia(services: AdminServices, fileId: string): Promise<MediaEntry | null> {
  const file = await services.storage.getFile({ bucketId: IMAGES_BUCKET_ID, fileId }).catch((error: unknown) => {
    if (isNotFound(error)) return null;
    throw error;
  });
  if (!file) return null;
  const row = await services.tablesDB.getRow(ids(fileId)).catch((error: unknown) => {
    if (isNotFound(error)) return undefined;
    throw error;
  });
  return entryOf(file, row, (await mediaUsage(services)).get(fileId) ?? []);
}

/** Writes the library's row of `fileId` (created, or replaced when it exists): team-readable only. */
async function writeRow(
  services: AdminServices,
  fileId: string,
  values: { name: string; alt: AltTexts; meta: MediaMeta; uploadedBy: string | null },
): Promise<void> {
  const data = {
    name: values.name,
    alt: JSON.stringify(values.alt),
    meta: JSON.stringify(values.meta),
    uploadedBy: values.uploadedBy,
  };
  await services.tablesDB.upsertRow({ ...ids(fileId), data, permissions: [Permission.read(STUDIO_TEAM)] });
}

const metaOf = (image: CheckedImage): MediaMeta => ({
  width: image.width,
  height: image.height,
  bytes: image.bytes.byteLength,
  mimeType: image.mimeType,
});

/** A file to add: its bytes, the name it had, and default alt texts (optional). */
export interface MediaUpload {
  bytes: Uint8Array;
  name: string;
  alt?: AltTexts;
}

/**
 * Adds an image to the library for `user`: checked (`checkImage`), within their quota (read with `session`),
 * uploaded with the key and owned by them, with its row. Nothing is left behind when a step fails.
 * @throws {ImageRejectedError} for a file that is not an acceptable image; {QuotaExceededError} over the
 * quota; {AppwriteException} when Appwrite fails.
 * @param options.replacing a file of the user's the upload replaces (left out of their quota's count); `quota`
 * the limits (default `UPLOAD_QUOTA`).
 */
export async function uploadMedia(
  services: AdminServices,
  session: SessionServices,
  user: SignedInUser,
  upload: MediaUpload,
  options: { replacing?: string; quota?: UploadQuota } = {},
): Promise<MediaEntry> {
  const image = await checkImage(upload.bytes);
  await assertWithinQuota(session.storage, user.id, image.bytes.byteLength, options);
  const step = adminImage(services.target, user, image);
  const { fileId } = (await step.upload())!; // `adminImage` always uploads
  try {
    const name = displayName(upload.name, `${fileId}.${image.extension}`);
    await writeRow(services, fileId, { name, alt: upload.alt ?? {}, meta: metaOf(image), uploadedBy: user.id });
  } catch (error) {
    await step.remove(fileId);
    throw error;
  }
  return (await getMedia(services, fileId))!;
}

/**
 * Sets the default alt texts of `fileId` (a file uploaded before the library gets its row now, its size read
 * from its bytes).
 * @throws {MediaNotFoundError} when the bucket has no such file.
 */
export async function setAltTexts(services: AdminServices, fileId: string, alt: AltTexts): Promise<void> {
  const entry = await getMedia(services, fileId);
  if (!entry) throw new MediaNotFoundError(fileId);
  const meta =
    entry.width && entry.height
      ? { width: entry.width, height: entry.height, bytes: entry.bytes, mimeType: entry.mimeType }
      : metaOf(await checkImage(await mediaBytes(services, fileId)));
  await writeRow(services, fileId, { name: entry.name, alt, meta, uploadedBy: entry.uploadedBy });
}

/** The original bytes of `fileId`, read with the key (for alt-text suggestions and rows made late). */
export async function mediaBytes(services: AdminServices, fileId: string): Promise<Uint8Array> {
  return new Uint8Array(await services.storage.getFileView({ bucketId: IMAGES_BUCKET_ID, fileId }));
}

/**
 * Deletes `fileId` and its row, unless an item uses it.
 * @throws {MediaInUseError} listing the items that use it (nothing deleted); {MediaNotFoundError}.
 */
export async function deleteMedia(services: AdminServices, fileId: string): Promise<void> {
  const entry = await getMedia(services, fileId);
  if (!entry) throw new MediaNotFoundError(fileId);
  if (entry.uses.length > 0) throw new MediaInUseError(entry.uses);
  await services.storage.deleteFile({ bucketId: IMAGES_BUCKET_ID, fileId });
  await services.tablesDB.deleteRow(ids(fileId)).catch((error: unknown) => {
    if (!isNotFound(error)) throw error;
  });
}

/**
 * Replaces `fileId` by a new image: uploaded under a new id as `uploadMedia` does (the old file's alt texts
 * kept), every item using the old one rewritten to the new one through `session` (the team's permissions),
 * then the old file and row deleted. When an item cannot be rewritten the old file is kept, so no page loses
 * its image, and the error says which.
 * @returns the new image.
 * @throws as `uploadMedia`; {MediaNotFoundError}; {AppwriteException} when an item cannot be rewritten.
 */
export async function replaceMedia(
  services: AdminServices,
  session: SessionServices,
  user: SignedInUser,
  fileId: string,
  upload: MediaUpload,
): Promise<MediaEntry> {
  const old = await getMedia(services, fileId);
  if (!old) throw new MediaNotFoundError(fileId);
  // The old file leaves the user's quota when it is theirs (`replacing`).
  const alt = upload.alt ?? old.alt;
  const fresh = await uploadMedia(services, session, user, { ...upload, alt }, { replacing: fileId });
  await rewriteUses(services, session, old.uses, fileId, fresh.id);
  await services.storage.deleteFile({ bucketId: IMAGES_BUCKET_ID, fileId }).catch((error: unknown) => {
    if (!(error instanceof AppwriteException && error.code === 404)) throw error;
  });
  await services.tablesDB.deleteRow(ids(fileId)).catch(() => {});
  return (await getMedia(services, fresh.id))!;
}

/**
 * `html` (a sanitized body about to be saved) with the library's stored size written on each `/media` image
 * that has none (`withImageSizes`): a URL pasted from "Copy URL" or typed by hand gets the `width` and `height`
 * the picker would have written, so the public page reserves its box. Read with the key; when the read fails
 * the body is saved as it is (the page then only loses the reserved box).
 */
export async function withLibrarySizes(services: AdminServices, html: string): Promise<string> {
  const wanted = unsizedMediaIds(html).slice(0, 100);
  if (wanted.length === 0) return html;
  try {
    const page = await services.tablesDB.listRows({
      databaseId: DATABASE_ID,
      tableId: TABLE,
      queries: [Query.equal("$id", wanted), Query.select(["$id", "meta"]), Query.limit(100)],
    });
    const sizes = new Map(page.rows.map((row) => [row.$id, parseMediaMeta(row["meta"])] as const));
    return withImageSizes(html, (id) => sizes.get(id) ?? undefined);
  } catch (error) {
    console.error("[media] reading image sizes failed:", (error as Error).message);
    return html;
  }
}
