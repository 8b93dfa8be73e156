/**
 * The stored dimensions of the media library's images, for the public pages' inline images
 * (`web/body-images.ts`, issue #30 item 3). Read as a guest (SECURITY C55: library rows carry `read("any")`),
 * and kept per process: a file id's image never changes (a replaced image gets a new id), so a known size is
 * kept until evicted; an unknown id is asked again after `UNKNOWN_TTL_MS`.
 */
import { Query } from "node-appwrite";
import { LRUCache } from "lru-cache";
import { DATABASE_ID } from "../../model/content.ts";
import { MEDIA_MODEL } from "../../model/model.ts";
import { parseMediaMeta } from "../../lib/appwrite/media-rows.ts";
import type { ImageSize } from "../body-images.ts";
import { getPublicServices, withBackend } from "./appwrite.server.ts";

/** How long an id without a library row is remembered as such, in ms (an upload may add its row). */
const UNKNOWN_TTL_MS = 60_000;

const sizes = new LRUCache<string, ImageSize | false>({ max: 5000 });

/**
 * The stored size of each of `ids` that has a library row (others are missing from the map). One guest list
 * request for the ids not cached; a failed request leaves them unknown (the images render without a size).
 */
export async function mediaSizes(ids: readonly string[]): Promise<Map<string, ImageSize>> {
  const found = new Map<string, ImageSize>();
  const missing = ids.filter((id) => {
    const known = sizes.get(id);
    if (known) found.set(id, known);
    return known === undefined;
  });
  if (missing.length > 0) {
    try {
      const page = await withBackend(() =>
        getPublicServices().tablesDB.listRows({
          databaseId: DATABASE_ID,
          tableId: MEDIA_MODEL.media.collectionId,
          queries: [Query.equal("$id", missing.slice(0, 100)), Query.select(["$id", "meta"]), Query.limit(100)],
        }),
      );
      for (const row of page.rows) {
        const meta = parseMediaMeta(row["meta"]);
        if (!meta) continue;
        const size = { width: meta.width, height: meta.height };
        sizes.set(row.$id, size);
        found.set(row.$id, size);
      }
      for (const id of missing) if (!found.has(id)) sizes.set(id, false, { ttl: UNKNOWN_TTL_MS });
    } catch (error) {
      console.error("[media] reading image sizes failed:", (error as Error).message);
    }
  }
  return found;
}
