/**
 * Public content as the pages show it: read as a guest, so only what Appwrite lets anyone read (ARCHITECTURE
 * decision 8, SECURITY C55: a document without `read("any")` is missing here), HTML bodies bounded and
 * sanitized again before render, off the event loop and once per distinct body (decision 5, SECURITY C53:
 * `renderStoredHtml`), images of the project's bucket served by the site itself under `/media/<fileId>`.
 */
import { LRUCache } from "lru-cache";
import { parseFileViewUrl } from "../../lib/appwrite/client.ts";
import { readItemPage, readLatestVersions } from "../../lib/appwrite/content-pages.ts";
import { readVersionPage } from "../../lib/appwrite/version-pages.ts";
import { getLocalized, listLocalized, type ContentReader, type ItemSummary } from "../../lib/appwrite/content-store.ts";
import {
  CONTENT_LOCALES,
  CONTENT_MODEL,
  localeSpec,
  summaryFields,
  type ContentKind,
  type ContentLocale,
} from "../../model/model.ts";
import { renderStoredHtml } from "../../lib/html/body.ts";
import { isolateLatinNamesInHtml } from "../../lib/html/latin-names.ts";
import { responsiveBodyImages } from "../body-images.ts";
import { IMAGES_BUCKET_ID, isHttpUrl, safeHttpUrl } from "../../model/content.ts";
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
 * `kind`'s items as a list in `locale` shows them (issue #35: an Arabic reader's lists put Arabic first): the
 * items written in `locale`, newest first, then those only in the other language (issue #15 item 3: in that
 * version, marked by the cards), newest first; at most `limit` items. With a limit (home shows 3, spec §9) the
 * own versions are read by themselves (`readLatestVersions`) and the list is topped up with the other
 * language's items only when there are fewer than `limit`.
 */
async function ownFirst<K extends ContentKind>(kind: K, locale: ContentLocale, limit?: number): Promise<Card<K>[]> {
  const services = getPublicServices();
  if (limit === undefined) {
    const all = await withBackend(() => listLocalized(services, kind, locale));
    return [...all.filter((i) => i.locale === locale), ...all.filter((i) => i.locale !== locale)].map((i) =>
      card(kind, i),
    );
  }
  const own = await withBackend(() => readLatestVersions(services, kind, locale, limit));
  if (own.length === limit) return own.map((i) => card(kind, i));
  // Fewer own versions than `limit` exist: the newest `limit` + own items hold every other one needed.
  const mixed = await withBackend(() => listLocalized(services, kind, locale, limit + own.length));
  const others = mixed.filter((i) => i.locale !== locale).slice(0, limit - own.length);
  return [...own, ...others].map((i) => card(kind, i));
}

/**
 * `kind`'s cards as its list in `locale` shows them: those written in `locale` first, then those only in another
 * language, each part newest first (`ownFirst`); `limit` caps the count.
 */
export function loadCards<K extends ContentKind>(kind: K, locale: ContentLocale, limit?: number): Promise<Card<K>[]> {
  return ownFirst(kind, locale, limit);
}

/**
 * One item of `kind` in `locale` (else in another language): its fields as read, then its card's (the image's
 * URL, its locales) and its sanitized body as HTML (`bodyHtml`; escaped text when it breaks `HTML_BOUNDS`),
 * or null; `reader` as for `loadVenture`.
 */
export async function loadItemView<K extends ContentKind>(
  kind: K,
  slug: string,
  locale: ContentLocale,
  reader: ContentReader = getPublicServices(),
): Promise<(Record<string, unknown> & Card<K> & { bodyHtml: string }) | null> {
  const item = await withBackend(() => getLocalized(reader, kind, slug, locale));
  if (!item) return null;
  const body = (item as Record<string, unknown>)[CONTENT_MODEL[kind].body] as string;
  const html = shownBody(item.locale, await renderStoredHtml(body));
  return { ...(item as Record<string, unknown>), ...card(kind, item), bodyHtml: html };
}

/**
 * Ventures as a list in `locale` shows them: those described in `locale` first, then those only in the other
 * language, each part newest first (`ownFirst`); `limit` caps the count (home shows 3, spec §9).
 */
export function loadVentureCards(locale: ContentLocale, limit?: number): Promise<VentureCard[]> {
  return ownFirst("venture", locale, limit);
}

/** Posts as a list in `locale` shows them: by published date, those in `locale` first (`ownFirst`). */
export function loadPostCards(locale: ContentLocale, limit?: number): Promise<PostCard[]> {
  return ownFirst("post", locale, limit);
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
 * Page `page` (from 1) of the blog list in `locale`, newest first, or null past the last page. By default the
 * posts written in `locale`, `BLOG_PAGE_ITEMS` a page (issue #35: an Arabic reader's list holds Arabic posts,
 * `readVersionPage`). With `others` (the list's "show posts only in English" switch) every post, in `locale`
 * when it has that version, else in the other (issue #15 item 3): a page holds `BLOG_PAGE_ITEMS` × (number of
 * locales) language versions (`readItemPage`), 12 posts when each has every version, up to 24 when each has
 * one; every post is on exactly one page.
 */
export async function loadPostPage(locale: ContentLocale, page: number, others = false): Promise<PostPage | null> {
  const services = getPublicServices();
  const found = await withBackend(() =>
    others
      ? readItemPage(services, "post", locale, page, BLOG_PAGE_ITEMS * CONTENT_LOCALES.length, guestCounts)
      : readVersionPage(services, "post", locale, page, BLOG_PAGE_ITEMS, guestCounts),
  );
  return found && { posts: found.items.map((p) => card("post", p)), page: found.page, pages: found.pages };
}

/**
 * A sanitized body as shown: its inline images responsive (`responsiveBodyImages`, issue #30 item 3), a
 * right-to-left (Arabic) version's Latin names isolated and kept on one line (issue #35). Rewritten once per
 * body and direction, then served from a cache (below).
 * @param locale the language of the version the body belongs to (its direction decides the rewrite).
 * @param sanitized the body as `renderStoredHtml` gives it (HTML safe to insert).
 * @returns HTML safe to insert; never throws.
 */
export function shownBody(locale: ContentLocale, sanitized: string): string {
  const rtl = localeSpec(locale).dir === "rtl";
  const shown = rtl ? shownRtl : shownLtr;
  let html = shown.get(sanitized);
  if (html === undefined) {
    shownBodyStats.rewrites += 1;
    html = responsiveBodyImages(sanitized);
    if (rtl) html = isolateLatinNamesInHtml(html);
    shown.set(sanitized, html);
  }
  return html;
}

/** How many bodies `shownBody` rewrote (not found in its caches), for tests and benchmarks. */
export const shownBodyStats = { rewrites: 0 };

/**
 * Bodies as shown (`shownBody`), by sanitized body, one cache per direction: a post's images and Latin names are
 * rewritten once, not on every render (issue #33 item 1: ~0.2 ms a render for an Arabic post). The key is the
 * sanitized string `renderStoredHtml` keeps, so a lookup hashes nothing new. At most 500 bodies or 16 MB each.
 */
const shownLtr = shownBodies();
const shownRtl = shownBodies();
function shownBodies(): LRUCache<string, string> {
  return new LRUCache<string, string>({
    max: 500,
    maxSize: 16 * 1024 * 1024,
    sizeCalculation: (value, key) => Math.max(1, (value.length + key.length) * 2),
  });
}

/**
 * One venture in `locale` (else in the other language) with its sanitized case study (escaped text when it breaks `HTML_BOUNDS`), or null. Its website
 * URL is kept only when it is an http(s) URL (`safeHttpUrl`, SECURITY C58): a document written straight
 * through the Appwrite API may hold any scheme. `reader`: the guest services (default), or a preview's
 * (`web/data/preview.server.ts`), which may also read drafts and scheduled items.
 */
export async function loadVenture(
  slug: string,
  locale: ContentLocale,
  reader: ContentReader = getPublicServices(),
): Promise<VentureView | null> {
  const venture = await withBackend(() => getLocalized(reader, "venture", slug, locale));
  if (!venture) return null;
  const caseStudyHtml = shownBody(venture.locale, await renderStoredHtml(venture.caseStudy));
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
  return { ...card("post", post), contentHtml: shownBody(post.locale, await renderStoredHtml(post.content)) };
}
