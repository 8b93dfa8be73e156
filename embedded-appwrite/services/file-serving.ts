import sharp from "sharp";
import type { Sharp } from "sharp";
import { join } from "node:path";
import type { FileRecord } from "../db/files.ts";
import { AppwriteError, invalidParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { intParam, stringParam } from "../http/params.ts";
import type { Reply, Router } from "../http/router.ts";
import { bucketDir, loadFile } from "./files.ts";

/**
 * Types `view`/`download` serve as themselves (AW `app/config/storage/mimes.php`, abridged);
 * anything else — HTML, SVG, XML, scripts — is served as `text/plain` (AW `View/Get.php`;
 * SECURITY C32, C34).
 */
const SERVABLE_TYPES = new Set([
  "image/jpeg",
  "image/jpg",
  "image/gif",
  "image/png",
  "image/webp",
  "image/heic",
  "image/avif",
  "image/bmp",
  "image/x-icon",
  "video/mp4",
  "video/webm",
  "video/quicktime",
  "audio/mpeg",
  "audio/mp4",
  "audio/ogg",
  "audio/wav",
  "audio/webm",
  "application/pdf",
  "text/plain",
  "text/csv",
  "application/zip",
  "application/json",
  "application/octet-stream",
]);
/** Image types `preview` decodes (AW `storage-inputs`); others get a neutral placeholder. */
const PREVIEW_INPUTS = new Set([
  "image/jpeg",
  "image/jpg",
  "image/png",
  "image/gif",
  "image/webp",
  "image/avif",
  "image/heic",
]);
const OUTPUTS = { jpg: "jpeg", jpeg: "jpeg", png: "png", webp: "webp", gif: "gif", avif: "avif" } as const;
const GRAVITY: Record<string, string> = {
  center: "centre",
  "top-left": "left top",
  top: "top",
  "top-right": "right top",
  left: "left",
  right: "right",
  "bottom-left": "left bottom",
  bottom: "bottom",
  "bottom-right": "right bottom",
};
/** Largest image `preview` will decode (SECURITY C35: > 40 MP is rejected before decoding). */
export const MAX_PREVIEW_PIXELS = 40_000_000;

/** RFC 6266 `Content-Disposition` value with an ASCII fallback and a UTF-8 `filename*` (SECURITY C33). */
export function contentDisposition(kind: "inline" | "attachment", name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Parse `Range: bytes=<start>-[<end>]` as AW `View/Get.php` does: a missing end means the file's
 * end; another unit, `start >= end` or `end >= size` → 416 `storage_invalid_range`.
 */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | undefined {
  if (header === undefined) return undefined;
  const match = /^(\w+)=(\d+)-(\d*)$/.exec(header.trim());
  const start = Number(match?.[2]);
  const end = match?.[3] ? Number(match[3]) : size - 1;
  if (!match || match[1] !== "bytes" || start >= end || end >= size) throw new AppwriteError("storage_invalid_range");
  return { start, end };
}

function serveFile(kind: "inline" | "attachment") {
  return (ctx: RequestContext): Reply => {
    const { bucket, file } = loadFile(ctx, "read");
    if (file.chunksUploaded < file.chunksTotal) throw new AppwriteError("storage_file_not_found");
    const headers: Record<string, string> = {
      "Content-Type": SERVABLE_TYPES.has(file.mimeType) ? file.mimeType : "text/plain",
      "Content-Disposition": contentDisposition(kind, file.name),
      "Content-Security-Policy": "script-src 'none';",
      "Cache-Control": "private, max-age=3888000",
      "Accept-Ranges": "bytes",
    };
    const path = join(bucketDir(ctx, bucket), file.diskName);
    const rangeHeader = ctx.req.headers.range;
    const range = parseRange(rangeHeader, file.sizeActual);
    if (!range) return { status: 200, file: path, size: file.sizeActual, headers };
    headers["Content-Range"] = `bytes ${range.start}-${range.end}/${file.sizeActual}`;
    return { status: 206, file: path, start: range.start, size: range.end - range.start + 1, headers };
  };
}

function hexColour(ctx: RequestContext, name: string): string | undefined {
  const value = stringParam(ctx.query, name, { max: 6 });
  if (value === undefined || value === "") return undefined;
  if (!/^[0-9a-fA-F]{6}$/.test(value)) throw invalidParam(name, "Value must be a valid hex color code");
  return `#${value}`;
}

async function render(ctx: RequestContext, file: FileRecord, path: string): Promise<{ buffer: Buffer; type: string }> {
  const q = ctx.query;
  const width = intParam(q, "width", 0, { min: 0, max: 4000 }) ?? 0;
  const height = intParam(q, "height", 0, { min: 0, max: 4000 }) ?? 0;
  const quality = intParam(q, "quality", -1, { min: -1, max: 100 }) ?? -1;
  const rotation = intParam(q, "rotation", 0, { min: -360, max: 360 }) ?? 0;
  const gravity = stringParam(q, "gravity", { max: 16 }) ?? "center";
  if (!(gravity in GRAVITY)) throw invalidParam("gravity", `Value must be one of (${Object.keys(GRAVITY).join(", ")})`);
  const output = (stringParam(q, "output", { max: 8 }) ?? "").toLowerCase();
  if (output !== "" && !(output in OUTPUTS)) {
    throw invalidParam("output", `Value must be one of (${Object.keys(OUTPUTS).join(", ")})`);
  }
  const background = hexColour(ctx, "background");
  const decodable = PREVIEW_INPUTS.has(file.mimeType);
  let image: Sharp;
  if (decodable) {
    const meta = await sharp(path, { limitInputPixels: false }).metadata();
    if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_PREVIEW_PIXELS) {
      throw new AppwriteError("storage_image_resolution_exceeded");
    }
    image = sharp(path, { limitInputPixels: MAX_PREVIEW_PIXELS, animated: false }).rotate();
  } else {
    // Appwrite shows a file-type icon for non-images; the emulator draws a neutral tile.
    const side = { width: width || 150, height: height || width || 150 };
    image = sharp({ create: { ...side, channels: 3, background: "#e2e8f0" } });
  }
  if (decodable && (width > 0 || height > 0)) {
    image = image.resize({
      width: width || undefined,
      height: height || undefined,
      fit: width > 0 && height > 0 ? "cover" : "inside",
      position: GRAVITY[gravity],
    });
  }
  if (rotation !== 0) image = image.rotate(rotation, { background: background ?? "#00000000" });
  if (background) image = image.flatten({ background });
  const original = file.mimeType.split("/")[1] ?? "";
  const format = OUTPUTS[(output || (original in OUTPUTS ? original : "jpg")) as keyof typeof OUTPUTS];
  const options = quality >= 0 ? { quality: Math.max(1, quality) } : {};
  const buffer = await image.toFormat(format, options).toBuffer();
  return { buffer, type: `image/${format}` };
}

/**
 * `GET …/files/{fileId}/preview` (REFERENCE §4 "Storage"): width/height 0–4000 (both → crop to
 * fill at `gravity`, one → keep aspect), `quality` −1–100, `rotation`, `background`, `output`
 * jpg/jpeg/png/webp/gif/avif (default: the original format, else jpg). A bucket with
 * `transformations: false` → 403 `storage_bucket_transformations_disabled`; an image over 40 MP
 * → 400 `storage_image_resolution_exceeded`, checked from its header before decoding.
 */
async function preview(ctx: RequestContext): Promise<Reply> {
  const { bucket, file } = loadFile(ctx, "read");
  if (!bucket.transformations && !ctx.caller.isKey) throw new AppwriteError("storage_bucket_transformations_disabled");
  if (file.chunksUploaded < file.chunksTotal) throw new AppwriteError("storage_file_not_found");
  let result: { buffer: Buffer; type: string };
  try {
    result = await render(ctx, file, join(bucketDir(ctx, bucket), file.diskName));
  } catch (error) {
    if (error instanceof AppwriteError) throw error;
    if (/pixel limit/i.test(String(error))) throw new AppwriteError("storage_image_resolution_exceeded");
    throw new AppwriteError("storage_file_type_unsupported", "The image could not be decoded.");
  }
  return {
    status: 200,
    buffer: result.buffer,
    headers: { "Content-Type": result.type, "Cache-Control": "private, max-age=2592000" },
  };
}

/** View (inline), download (attachment), both with `Range` support, and image preview. */
export function register(router: Router): void {
  const base = "/storage/buckets/:bucketId/files/:fileId";
  router.add("GET", `${base}/view`, "files.read", serveFile("inline"));
  router.add("GET", `${base}/download`, "files.read", serveFile("attachment"));
  router.add("GET", `${base}/preview`, "files.read", preview);
}
