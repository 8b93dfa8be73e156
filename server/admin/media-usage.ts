/**
 * Where the media library's images are used (issue #30 item 3): computed by scanning, not kept as an index.
 * Every venture and post row, in every language and state, is read with the site's key (the studio team's
 * view: drafts count too) and its featured image URL (`parseFileViewUrl`) and body (`/media/<id>`,
 * `mediaIdsIn`) give the files it uses. Nothing can drift from the content this way: rows written by
 * `studio push`, the console or a restore are counted as they are. It costs one paginated read of the
 * content per library page (about 100 rows a request): fine for a studio's hundreds of items.
 */
import { Query, type Models } from "node-appwrite";
import { listPages } from "../../lib/appwrite/paginate.ts";
import { parseFileViewUrl, type AdminServices } from "../../lib/appwrite/client.ts";
import { mediaIdsIn } from "../../lib/html/media-refs.ts";
import { CONTENT_KIND_NAMES, CONTENT_MODEL, type ContentKind } from "../../model/model.ts";
import { DATABASE_ID, IMAGES_BUCKET_ID } from "../../model/content.ts";

/** One use of an image: the item (kind, row id, slug, language, title) and whether as its image or in its body. */
export interface MediaUse {
  kind: ContentKind;
  rowId: string;
  slug: string;
  locale: string;
  title: string;
  field: "image" | "body";
}

/** The images bucket file id of a featured image URL, or null (another bucket, an external URL, none). */
export function imageFileIdOf(url: unknown): string | null {
  const file = typeof url === "string" ? parseFileViewUrl(url) : null;
  return file && file.bucketId === IMAGES_BUCKET_ID ? file.fileId : null;
}

/** The uses `row` of `kind` makes of bucket images, keyed by file id. */
function usesOf(kind: ContentKind, row: Models.DefaultRow): [string, MediaUse][] {
  const spec = CONTENT_MODEL[kind];
  const item = row as Record<string, unknown>;
  const base = {
    kind,
    rowId: row.$id,
    slug: String(item["slug"] ?? ""),
    locale: String(item["locale"] ?? ""),
    title: String(item[spec.title] ?? ""),
  };
  const found: [string, MediaUse][] = [];
  const image = imageFileIdOf(item[spec.image]);
  if (image) found.push([image, { ...base, field: "image" }]);
  for (const id of mediaIdsIn(String(item[spec.body] ?? ""))) found.push([id, { ...base, field: "body" }]);
  return found;
}

/**
 * Every use of every bucket image, by file id, read with the key of `services` (all rows, whatever their
 * permissions: an image a draft uses is in use).
 * @throws {AppwriteException} when a table cannot be read.
 */
export async function mediaUsage(services: AdminServices): Promise<Map<string, MediaUse[]>> {
  const uses = new Map<string, MediaUse[]>();
  for (const kind of CONTENT_KIND_NAMES) {
    const spec = CONTENT_MODEL[kind];
    const select = Query.select(["$id", "slug", "locale", spec.title, spec.body, spec.image]);
    const pages = listPages((queries) =>
      services.tablesDB
        .listRows({ databaseId: DATABASE_ID, tableId: spec.collectionId, queries: [select, ...queries] })
        .then((page) => page.rows),
    );
    for await (const rows of pages) {
      for (const row of rows) {
        for (const [id, use] of usesOf(kind, row)) uses.set(id, [...(uses.get(id) ?? []), use]);
      }
    }
  }
  return uses;
}
