import { AppwriteException, ImageFormat, type Models } from "node-appwrite";
import { acceptsAny, etagMatches } from "../../../lib/http/negotiation.ts";
import { LRUCache } from "lru-cache";
import { IMAGES_BUCKET_ID } from "../../../model/content.ts";
import { isMediaWidth, MEDIA_WIDTHS, type MediaWidth } from "../../media.ts";
import { getPublicServices, withBackend } from "../../data/appwrite.server.ts";
import type { Route } from "./+types/media";

const FILE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,35}$/;
/** Raster types served, and the preview `output` that keeps each one's format (REFERENCE §4 "Storage"). */
const SAFE_IMAGE_TYPES: Record<string, ImageFormat> = {
  "image/jpeg": ImageFormat.Jpg,
  "image/png": ImageFormat.Png,
  "image/gif": ImageFormat.Gif,
  "image/webp": ImageFormat.Webp,
};
/** Encoder quality of lossy variants (Appwrite preview `quality`, 0–100). */
const VARIANT_QUALITY = 80;
/**
 * File ids never change content: `studio push` names a file by the hash of its bytes and the admin uploads a
 * replaced image under a new id (lib/publish/documents.ts `imageFileId`, server/admin/content.ts).
 */
const IMMUTABLE = "public, max-age=31536000, immutable";
/**
 * Variants already rendered, so Appwrite's preview (a decode and an encode, 25–200 ms each) runs once per file,
 * width and format per process; 16 MB holds a few thousand card-sized WebPs. The file's existence is still
 * checked on every request.
 */
const variants = new LRUCache<string, ArrayBuffer>({
  maxSize: 16 * 1024 * 1024,
  sizeCalculation: (bytes) => Math.max(1, bytes.byteLength),
});

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });

/**
 * Serves an image of the images bucket from the site's own origin, so the browser never talks to Appwrite
 * (ARCHITECTURE decision 2). Only raster image types are served, never as active content (the site server adds
 * `nosniff`; a sandbox CSP on top). Files are read as a guest (SECURITY C55): the bucket grants `read("any")`,
 * so every image `studio push` or the admin stored is served, and a file a guest may not read (a bucket or file
 * whose permissions were narrowed in the console) is a 404 like a missing one.
 *
 * `GET /media/<fileId>` answers the original bytes. `GET /media/<fileId>?w=<width>` answers the image resized to
 * `width` pixels wide (aspect kept) through Appwrite's file preview, as WebP when the `Accept` header lists
 * `image/webp`, else in the original format (`Vary: Accept`); `width` must be one of `MEDIA_WIDTHS`, anything
 * else is a 400. A GIF, a preview Appwrite refuses, or one larger than the original is answered with the
 * original. Responses are cacheable forever, with an ETag per representation; `If-None-Match` gets a 304.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  if (!FILE_ID.test(params.fileId)) return notFound();
  const width = requestedWidth(new URL(request.url).searchParams);
  if (width instanceof Response) return width;
  const { storage } = getPublicServices();
  const ids = { bucketId: IMAGES_BUCKET_ID, fileId: params.fileId };
  try {
    const file = await withBackend(() => storage.getFile(ids));
    const originalFormat = SAFE_IMAGE_TYPES[file.mimeType];
    if (!originalFormat) return notFound();
    const webp = width !== null && acceptsAny(request.headers.get("accept"), ["image/webp"]);
    const representation = width === null ? file.$id : `${file.$id}-${width}-${webp ? "webp" : "orig"}`;
    const headers = new Headers({
      "Cache-Control": IMMUTABLE,
      ETag: `"${representation}"`,
      "Content-Security-Policy": "default-src 'none'; sandbox",
    });
    if (width !== null) headers.set("Vary", "Accept");
    if (etagMatches(request.headers.get("if-none-match"), headers.get("ETag")!)) {
      return new Response(null, { status: 304, headers });
    }
    const output = webp ? ImageFormat.Webp : originalFormat;
    const variant = width === null || originalFormat === ImageFormat.Gif ? null : await preview(file, width, output);
    const bytes = variant ?? (await withBackend(() => storage.getFileView(ids)));
    headers.set("Content-Type", variant ? `image/${output === ImageFormat.Jpg ? "jpeg" : output}` : file.mimeType);
    headers.set("Content-Length", String(bytes.byteLength));
    return new Response(bytes, { headers });
  } catch (error) {
    if (error instanceof AppwriteException && error.code === 404) return notFound();
    throw error;
  }
}

/** The `w` query parameter as a width of `MEDIA_WIDTHS`, null without one, or the 400 to answer. */
function requestedWidth(query: URLSearchParams): MediaWidth | null | Response {
  const values = query.getAll("w");
  if (values.length === 0) return null;
  const width = values.length === 1 && /^[1-9]\d{0,3}$/.test(values[0]!) ? Number(values[0]) : NaN;
  if (isMediaWidth(width)) return width;
  return new Response(`Unsupported image width: w must be one of ${MEDIA_WIDTHS.join(", ")}.`, {
    status: 400,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

/**
 * `file` resized to `width` pixels wide in `output` by Appwrite's preview (REFERENCE §4 "Storage"), or null
 * when Appwrite refuses it (e.g. transformations disabled, too many pixels) or it is not smaller than the
 * original (an image narrower than `width` would only grow).
 */
async function preview(file: Models.File, width: MediaWidth, output: ImageFormat): Promise<ArrayBuffer | null> {
  const key = `${file.$id} ${width} ${output}`;
  const cached = variants.get(key);
  if (cached) return cached;
  const lossy = output === ImageFormat.Webp || output === ImageFormat.Jpg;
  try {
    const bytes = await withBackend(() =>
      getPublicServices().storage.getFilePreview({
        bucketId: file.bucketId,
        fileId: file.$id,
        width,
        output,
        ...(lossy ? { quality: VARIANT_QUALITY } : {}),
      }),
    );
    if (bytes.byteLength >= file.sizeOriginal) return null;
    variants.set(key, bytes);
    return bytes;
  } catch (error) {
    if (error instanceof AppwriteException && error.code >= 400 && error.code < 500 && error.code !== 404) {
      return null;
    }
    throw error;
  }
}
