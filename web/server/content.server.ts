/**
 * Public content as the pages show it: read as a guest, so only what Appwrite lets anyone read (ARCHITECTURE
 * decision 8, SECURITY C55: a document without `read("any")` is missing here), HTML bodies bounded and
 * sanitized again before render, off the event loop and once per distinct body (decision 5, SECURITY C53:
 * `renderStoredHtml`), images of the project's bucket served by the site itself under `/media/<fileId>`.
 */
import { parseFileViewUrl } from "../../lib/appwrite/client.ts";
import {
  getPostBySlug,
  getVentureBySlug,
  listPosts,
  listVentures,
  type PostSummary,
  type VentureSummary,
} from "../../lib/appwrite/content-store.ts";
import { renderStoredHtml } from "../../lib/html/body.ts";
import { IMAGES_BUCKET_ID, isHttpUrl, safeHttpUrl } from "../../schemas/content.ts";
import { getPublicServices, withBackend } from "./appwrite.server.ts";

export interface VentureCard {
  slug: string;
  name: string;
  shortDescription: string;
  logo: string | null;
}
export interface VentureView extends VentureCard {
  /** The venture's site when it is an http(s) URL (SECURITY C58), else null: the page then shows no link. */
  websiteURL: string | null;
  caseStudyHtml: string;
}
export interface PostCard {
  slug: string;
  title: string;
  excerpt: string;
  authorName: string;
  publishedDate: string;
  image: string | null;
}
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

const ventureCard = (v: VentureSummary): VentureCard => ({
  slug: v.slug,
  name: v.name,
  shortDescription: v.shortDescription,
  logo: publicImageUrl(v.logoUrl),
});

const postCard = (p: PostSummary): PostCard => ({
  slug: p.slug,
  title: p.title,
  excerpt: p.excerpt,
  authorName: p.authorName,
  publishedDate: p.publishedDate,
  image: publicImageUrl(p.featuredImageUrl),
});

/** Newest ventures first; `limit` caps the count (home shows 3, spec §9). */
export async function loadVentureCards(limit?: number): Promise<VentureCard[]> {
  return (await withBackend(() => listVentures(getPublicServices(), limit))).map(ventureCard);
}

/** Posts by published date, newest first. */
export async function loadPostCards(limit?: number): Promise<PostCard[]> {
  return (await withBackend(() => listPosts(getPublicServices(), limit))).map(postCard);
}

/**
 * One venture with its sanitized case study (escaped text when it breaks `HTML_BOUNDS`), or null. Its website
 * URL is kept only when it is an http(s) URL (`safeHttpUrl`, SECURITY C58): a document written straight
 * through the Appwrite API may hold any scheme.
 */
export async function loadVenture(slug: string): Promise<VentureView | null> {
  const venture = await withBackend(() => getVentureBySlug(getPublicServices(), slug));
  if (!venture) return null;
  const caseStudyHtml = await renderStoredHtml(venture.caseStudy);
  return { ...ventureCard(venture), websiteURL: safeHttpUrl(venture.websiteURL), caseStudyHtml };
}

/** One post with its sanitized content (escaped text when it breaks `HTML_BOUNDS`), or null. */
export async function loadPost(slug: string): Promise<PostView | null> {
  const post = await withBackend(() => getPostBySlug(getPublicServices(), slug));
  if (!post) return null;
  return { ...postCard(post), contentHtml: await renderStoredHtml(post.content) };
}
