/**
 * Public content as the pages show it: read as a guest, so only what Appwrite lets anyone read (ARCHITECTURE
 * decision 8, SECURITY C55: a document without `read("any")` is missing here), HTML bodies bounded and
 * sanitized again before render, off the event loop and once per distinct body (decision 5, SECURITY C53:
 * `renderStoredHtml`), images of the project's bucket served by the site itself under `/media/<fileId>`.
 */
import { parseFileViewUrl } from "../../lib/appwrite/client.ts";
import { getBySlug, listSummaries, type ContentReader, type ItemSummary } from "../../lib/appwrite/content-store.ts";
import { CONTENT_MODEL, summaryFields, type ContentKind } from "../../schemas/model.ts";
import { renderStoredHtml } from "../../lib/html/body.ts";
import { IMAGES_BUCKET_ID, isHttpUrl, safeHttpUrl } from "../../schemas/content.ts";
import { getPublicServices, withBackend } from "./appwrite.server.ts";

type ImageField<K extends ContentKind> = (typeof CONTENT_MODEL)[K]["image"];
/** What a card shows of an item of `kind`: its summary fields, the image as the URL the browser loads. */
export type Card<K extends ContentKind> = Omit<ItemSummary<K>, "$id" | "$createdAt" | "$updatedAt" | ImageField<K>> & {
  image: string | null;
};
export type VentureCard = Card<"venture">;
export interface VentureView extends VentureCard {
  /** The venture's site when it is an http(s) URL (SECURITY C58), else null: the page then shows no link. */
  websiteURL: string | null;
  caseStudyHtml: string;
}
export type PostCard = Card<"post">;
export interface PostView extends PostCard {
  contentHtml: string;
}

/**
 * The URL the browser loads an image from: `/media/<fileId>` for files of the images bucket, the URL
 * itself for other http(s) images, null otherwise.
 */
export function publicImageUrl(url: string | null): string | null {
  if (!url) return null;
  const file = parseFileViewUrl(url);
  if (file && file.bucketId === IMAGES_BUCKET_ID) return `/media/${encodeURIComponent(file.fileId)}`;
  return isHttpUrl(url) ? url : null;
}

/** The card of a summary (or a whole record: only the summary fields are kept). */
function card<K extends ContentKind>(kind: K, item: ItemSummary<K>): Card<K> {
  const values: Record<string, unknown> = {};
  for (const name of summaryFields(kind)) {
    if (name !== CONTENT_MODEL[kind].image) values[name] = (item as Record<string, unknown>)[name];
  }
  values.image = publicImageUrl((item as Record<string, unknown>)[CONTENT_MODEL[kind].image] as string | null);
  return values as Card<K>;
}

/** Newest ventures first; `limit` caps the count (home shows 3, spec §9). */
export async function loadVentureCards(limit?: number): Promise<VentureCard[]> {
  return (await withBackend(() => listSummaries(getPublicServices(), "venture", limit))).map((v) => card("venture", v));
}

/** Posts by published date, newest first. */
export async function loadPostCards(limit?: number): Promise<PostCard[]> {
  return (await withBackend(() => listSummaries(getPublicServices(), "post", limit))).map((p) => card("post", p));
}

/**
 * One venture with its sanitized case study (escaped text when it breaks `HTML_BOUNDS`), or null. Its website
 * URL is kept only when it is an http(s) URL (`safeHttpUrl`, SECURITY C58): a document written straight
 * through the Appwrite API may hold any scheme. `reader`: the guest services (default), or a preview's
 * (`web/server/preview.server.ts`), which may also read drafts and scheduled items.
 */
export async function loadVenture(
  slug: string,
  reader: ContentReader = getPublicServices(),
): Promise<VentureView | null> {
  const venture = await withBackend(() => getBySlug(reader, "venture", slug));
  if (!venture) return null;
  const caseStudyHtml = await renderStoredHtml(venture.caseStudy);
  return { ...card("venture", venture), websiteURL: safeHttpUrl(venture.websiteURL), caseStudyHtml };
}

/** One post with its sanitized content (escaped text when it breaks `HTML_BOUNDS`), or null; `reader` as for `loadVenture`. */
export async function loadPost(slug: string, reader: ContentReader = getPublicServices()): Promise<PostView | null> {
  const post = await withBackend(() => getBySlug(reader, "post", slug));
  if (!post) return null;
  return { ...card("post", post), contentHtml: await renderStoredHtml(post.content) };
}
