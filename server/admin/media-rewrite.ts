/**
 * A replaced image's references rewritten (issue #30 item 3, `replaceMedia`): in each item using the old file,
 * its body's `/media/<old>` and its featured image's view URL now name the new file. Written through the
 * user's session, so Appwrite's permissions decide (the studio team may update every item, decision 0017);
 * only the columns that change are sent.
 */
import { CONTENT_MODEL } from "../../model/model.ts";
import { DATABASE_ID } from "../../model/content.ts";
import type { AdminServices, SessionServices } from "../../lib/appwrite/client.ts";
import { replaceMediaId } from "../../lib/html/media-refs.ts";
import type { MediaUse } from "./media-usage.ts";

/** Some items could not be rewritten to the new image; `items` names them ("kind slug (locale)"). */
export class MediaRewriteError extends Error {
  override name = "MediaRewriteError";
  constructor(readonly items: string[]) {
    super(`These items could not be changed to the new image: ${items.join(", ")}. The old image is kept.`);
  }
}

/** `url` (a featured image's view URL) naming file `to` instead of `from`. */
export function replaceViewUrlFile(url: string, from: string, to: string): string {
  return url.replace(`/files/${encodeURIComponent(from)}/view`, `/files/${encodeURIComponent(to)}/view`);
}

/**
 * Rewrites every item of `uses` from file `from` to file `to` (each row read with the key, written with
 * `session`). Tries them all before failing.
 * @throws {MediaRewriteError} naming the items whose write Appwrite refused or failed.
 */
export async function rewriteUses(
  services: AdminServices,
  session: SessionServices,
  uses: readonly MediaUse[],
  from: string,
  to: string,
): Promise<void> {
  const rows = new Map(uses.map((use) => [`${use.kind}/${use.rowId}`, use]));
  const failed: string[] = [];
  for (const use of rows.values()) {
    const spec = CONTENT_MODEL[use.kind];
    const where = { databaseId: DATABASE_ID, tableId: spec.collectionId, rowId: use.rowId };
    try {
      const row = (await services.tablesDB.getRow(where)) as Record<string, unknown>;
      const data: Record<string, string> = {};
      const body = String(row[spec.body] ?? "");
      const newBody = replaceMediaId(body, from, to);
      if (newBody !== body) data[spec.body] = newBody;
      const image = row[spec.image];
      if (typeof image === "string") {
        const newImage = replaceViewUrlFile(image, from, to);
        if (newImage !== image) data[spec.image] = newImage;
      }
      if (Object.keys(data).length > 0) await session.tablesDB.updateRow({ ...where, data });
    } catch (error) {
      console.error(`[media] rewriting ${use.kind} ${use.rowId} failed:`, (error as Error).message);
      failed.push(`${use.kind} ${use.slug} (${use.locale})`);
    }
  }
  if (failed.length > 0) throw new MediaRewriteError(failed);
}
