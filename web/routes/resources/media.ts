import { AppwriteException } from "node-appwrite";
import { IMAGES_BUCKET_ID } from "../../../schemas/content.ts";
import { getAdminServices, withBackend } from "../../server/appwrite.server.ts";
import type { Route } from "./+types/media";

const FILE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,35}$/;
const SAFE_IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/**
 * Serves an image of the images bucket from the site's own origin, so the browser never talks to Appwrite
 * (ARCHITECTURE decision 2). Only raster image types are served (the site server adds `nosniff` to every
 * response). A file id never changes content, so responses are cacheable forever.
 */
export async function loader({ params }: Route.LoaderArgs) {
  if (!FILE_ID.test(params.fileId)) return new Response("Not found", { status: 404 });
  const { storage } = getAdminServices();
  try {
    const file = await withBackend(() => storage.getFile({ bucketId: IMAGES_BUCKET_ID, fileId: params.fileId }));
    if (!SAFE_IMAGE_TYPES.has(file.mimeType)) return new Response("Not found", { status: 404 });
    const bytes = await withBackend(() => storage.getFileView({ bucketId: IMAGES_BUCKET_ID, fileId: params.fileId }));
    return new Response(bytes, {
      headers: {
        "Content-Type": file.mimeType,
        "Content-Length": String(bytes.byteLength),
        "Cache-Control": "public, max-age=31536000, immutable",
        "Content-Security-Policy": "default-src 'none'; sandbox",
      },
    });
  } catch (error) {
    if (error instanceof AppwriteException && error.code === 404) return new Response("Not found", { status: 404 });
    throw error;
  }
}
