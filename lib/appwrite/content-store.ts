/**
 * Reads of published ventures and blog posts (spec §7 "Product operations"). The site calls them with a guest
 * client (`createGuestServices`), so they return what anyone may read and only that (ARCHITECTURE decision 8,
 * SECURITY C55). Image URLs come back with a trailing `mode=admin` stripped (spec §3).
 */
import { AppwriteException, Query, type Models } from "node-appwrite";
import { COLLECTIONS, DATABASE_ID, type BlogPost, type Venture } from "../../schemas/content.ts";
import { stripAdminMode, type GuestServices } from "./client.ts";
import { listAll } from "./paginate.ts";

interface Stored {
  $id: string;
  $createdAt: string;
  $updatedAt: string;
}
export type VentureRecord = Venture & Stored;
export type BlogPostRecord = BlogPost & Stored;

/** The fields lists show (cards, sitemap, feeds): lists never fetch case studies or post bodies. */
const VENTURE_SUMMARY_FIELDS = ["name", "slug", "shortDescription", "logoUrl"] as const;
const POST_SUMMARY_FIELDS = ["title", "slug", "excerpt", "featuredImageUrl", "publishedDate", "authorName"] as const;
export type VentureSummary = Pick<VentureRecord, keyof Stored | (typeof VENTURE_SUMMARY_FIELDS)[number]>;
export type PostSummary = Pick<BlogPostRecord, keyof Stored | (typeof POST_SUMMARY_FIELDS)[number]>;
/**
 * What the reads need: the databases service of a client. Public pages pass a guest client's; an API-key
 * client would read past Appwrite's permissions (drafts, private documents).
 */
export type ContentReader = Pick<GuestServices, "databases">;

function toVenture(doc: Models.DefaultDocument): VentureRecord {
  return {
    $id: doc.$id,
    $createdAt: doc.$createdAt,
    $updatedAt: doc.$updatedAt,
    name: String(doc.name ?? ""),
    slug: String(doc.slug ?? ""),
    shortDescription: String(doc.shortDescription ?? ""),
    logoUrl: stripAdminMode((doc.logoUrl as string | null) ?? null),
    caseStudy: String(doc.caseStudy ?? ""),
    websiteURL: String(doc.websiteURL ?? ""),
    userId: (doc.userId as string | null) ?? null,
  };
}

function toPost(doc: Models.DefaultDocument): BlogPostRecord {
  return {
    $id: doc.$id,
    $createdAt: doc.$createdAt,
    $updatedAt: doc.$updatedAt,
    title: String(doc.title ?? ""),
    slug: String(doc.slug ?? ""),
    excerpt: String(doc.excerpt ?? ""),
    content: String(doc.content ?? ""),
    featuredImageUrl: stripAdminMode((doc.featuredImageUrl as string | null) ?? null),
    publishedDate: String(doc.publishedDate ?? ""),
    authorName: String(doc.authorName ?? ""),
    userId: (doc.userId as string | null) ?? null,
  };
}

/** Documents of a collection in `order`, with only `fields` (and the system fields), at most `max`. */
function listSummaries(
  services: ContentReader,
  collectionId: string,
  order: string[],
  max: number,
  fields: readonly string[],
): Promise<Models.DefaultDocument[]> {
  return listAll(
    (queries) =>
      services.databases
        .listDocuments({ databaseId: DATABASE_ID, collectionId, queries })
        .then((page) => page.documents),
    { queries: [Query.select([...fields]), ...order], max },
  );
}

const byCreatedDesc = [Query.orderDesc("$createdAt")];
const byPublishedDesc = [Query.orderDesc("publishedDate"), Query.orderDesc("$createdAt")];

/**
 * Ventures' summaries, newest first (spec §7: "latest N ordered by creation time descending"); at most
 * `limit` (default 1000). Only the summary fields are read (Appwrite `Query.select`).
 */
export async function listVentures(services: ContentReader, limit = 1000): Promise<VentureSummary[]> {
  const documents = await listSummaries(services, COLLECTIONS.ventures, byCreatedDesc, limit, VENTURE_SUMMARY_FIELDS);
  return documents.map((doc) => {
    const { $id, $createdAt, $updatedAt, name, slug, shortDescription, logoUrl } = toVenture(doc);
    return { $id, $createdAt, $updatedAt, name, slug, shortDescription, logoUrl };
  });
}

/** Blog posts' summaries by `publishedDate`, newest first (spec §7); at most `limit` (default 1000). */
export async function listPosts(services: ContentReader, limit = 1000): Promise<PostSummary[]> {
  const documents = await listSummaries(services, COLLECTIONS.blogPosts, byPublishedDesc, limit, POST_SUMMARY_FIELDS);
  return documents.map((doc) => {
    const { $id, $createdAt, $updatedAt, title, slug, excerpt, featuredImageUrl, publishedDate, authorName } =
      toPost(doc);
    return { $id, $createdAt, $updatedAt, title, slug, excerpt, featuredImageUrl, publishedDate, authorName };
  });
}

async function findBySlug(
  services: ContentReader,
  collectionId: string,
  slug: string,
): Promise<Models.DefaultDocument | null> {
  try {
    const page = await services.databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId,
      queries: [Query.equal("slug", slug), Query.limit(1)],
    });
    return page.documents[0] ?? null;
  } catch (error) {
    // A slug Appwrite rejects as a query value cannot match any document.
    if (error instanceof AppwriteException && error.code === 400) return null;
    throw error;
  }
}

/** The venture with `slug`, or null (spec §7: "list by slug equals"). */
export async function getVentureBySlug(services: ContentReader, slug: string): Promise<VentureRecord | null> {
  const doc = await findBySlug(services, COLLECTIONS.ventures, slug);
  return doc ? toVenture(doc) : null;
}

/** The blog post with `slug`, or null. */
export async function getPostBySlug(services: ContentReader, slug: string): Promise<BlogPostRecord | null> {
  const doc = await findBySlug(services, COLLECTIONS.blogPosts, slug);
  return doc ? toPost(doc) : null;
}
