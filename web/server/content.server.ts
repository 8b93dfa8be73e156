/**
 * Public content as the pages show it: read as a guest, so only what Appwrite lets anyone read (ARCHITECTURE
 * decision 8, SECURITY C55: a document without `read("any")` is missing here), HTML bodies bounded and
 * sanitized again before render, off the event loop and once per distinct body (decision 5, SECURITY C53:
 * `renderStoredHtml`), images of the project's bucket served by the site itself under `/media/<fileId>`.
 */
import { parseFileViewUrl } from "../../lib/appwrite/client.ts";
import { readItemPage } from "../../lib/appwrite/content-pages.ts";
import { getLocalized, listLocalized, type ContentReader, type ItemSummary } from "../../lib/appwrite/content-store.ts";
import {
  CONTENT_LOCALES,
  CONTENT_MODEL,
  summaryFields,
  type ContentKind,
  type ContentLocale,
} from "../../schemas/model.ts";
import { renderStoredHtml } from "../../lib/html/body.ts";
import { IMAGES_BUCKET_ID, isHttpUrl, safeHttpUrl } from "../../schemas/content.ts";
import { getPublicServices, guestCounts, withBackend } from "./appwrite.server.ts";

type ImageField<K extends ContentKind> = (typeof CONTENT_MODEL)[K]["image"];
/**
 * What a card shows of an item of `kind`: its summary fields (with `locale`, the language of the version
 * shown), the image as the URL the browser loads, and `locales`: the languages the item exists in.
 */
export type Card<K extends ContentKind> = Omit<
  ItemSummary<K>,
  "$id" | "$createdAt" | "$updatedAt" | ImageField<K> | "locale"
> & {
  image: string | null;
  locale: ContentLocale;
  locales: ContentLocale[];
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
function card<K extends ContentKind>(kind: K, item: ItemSummary<K> & { locales: ContentLocale[] }): Card<K> {
  const values: Record<string, unknown> = { locales: item.locales };
  for (const name of summaryFields(kind)) {
    if (name !== CONTENT_MODEL[kind].image) values[name] = (item as Record<string, unknown>)[name];
  }
  values.image = publicImageUrl((item as Record<string, unknown>)[CONTENT_MODEL[kind].image] as string | null);
  return values as Card<K>;
}

/**
 * Newest ventures first, each in `locale` when it has that version, else in the other language (issue #15
 * item 3); `limit` caps the count (home shows 3, spec §9).
 */
export async function loadVentureCards(locale: ContentLocale, limit?: number): Promise<VentureCard[]> {
  const ventures = await withBackend(() => listLocalized(getPublicServices(), "venture", locale, limit));
  return ventures.map((v) => card("venture", v));
}

/** Posts by published date, newest first, each in `locale` when it has that version, else in the other. */
export async function loadPostCards(locale: ContentLocale, limit?: number): Promise<PostCard[]> {
  const posts = await withBackend(() => listLocalized(getPublicServices(), "post", locale, limit));
  return posts.map((p) => card("post", p));
}

/**
 * Items a blog page shows when every post has all its language versions: 12, four rows of the three-column
 * card grid (two of two on tablets, twelve on phones), about 25 kB of HTML.
 */
export const BLOG_PAGE_ITEMS = 12;

/** One page of the blog list: its cards, its number, and the number of pages. */
export interface PostPage {
  posts: PostCard[];
  page: number;
  pages: number;
}

/**
 * Page `page` (from 1) of the blog list in `locale`, newest first, or null past the last page. A page holds
 * `BLOG_PAGE_ITEMS` × (number of locales) language versions (`readItemPage`): 12 posts when each has every
 * version, up to 24 when each has one; every post is on exactly one page.
 */
export async function loadPostPage(locale: ContentLocale, page: number): Promise<PostPage | null> {
  const rows = BLOG_PAGE_ITEMS * CONTENT_LOCALES.length;
  const found = await withBackend(() => readItemPage(getPublicServices(), "post", locale, page, rows, guestCounts));
  return found && { posts: found.items.map((p) => card("post", p)), page: found.page, pages: found.pages };
}

/**
 * One venture in `locale` (else in the other language) with its sanitized case study (escaped text when it breaks `HTML_BOUNDS`), or null. Its website
 * URL is kept only when it is an http(s) URL (`safeHttpUrl`, SECURITY C58): a document written straight
 * through the Appwrite API may hold any scheme. `reader`: the guest services (default), or a preview's
 * (`web/server/preview.server.ts`), which may also read drafts and scheduled items.
 */
export async function loadVenture(
  slug: string,
  locale: ContentLocale,
  reader: ContentReader = getPublicServices(),
): Promise<VentureView | null> {
  const venture = await withBackend(() => getLocalized(reader, "venture", slug, locale));
  if (!venture) return null;
  const caseStudyHtml = await renderStoredHtml(venture.caseStudy);
  return { ...card("venture", venture), websiteURL: safeHttpUrl(venture.websiteURL), caseStudyHtml };
}

/**
 * One post in `locale` (else in the other language) with its sanitized content (escaped text when it breaks
 * `HTML_BOUNDS`), or null; `reader` as for `loadVenture`.
 */
export async function loadPost(
  slug: string,
  locale: ContentLocale,
  reader: ContentReader = getPublicServices(),
): Promise<PostView | null> {
  const post = await withBackend(() => getLocalized(reader, "post", slug, locale));
  if (!post) return null;
  return { ...card("post", post), contentHtml: await renderStoredHtml(post.content) };
}
