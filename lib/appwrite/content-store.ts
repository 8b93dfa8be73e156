/**
 * Reads of published ventures and blog posts (spec §7 "Product operations"). The site calls them with a guest
 * client (`createGuestServices`), so they return what anyone may read and only that (ARCHITECTURE decision 8,
 * SECURITY C55). Documents become records by their kind's description (`CONTENT_MODEL`); image URLs come back
 * with a trailing `mode=admin` stripped (spec §3).
 */
import { AppwriteException, Query, type Models } from "node-appwrite";
import { DATABASE_ID, type DocumentOf } from "../../schemas/content.ts";
import { CONTENT_MODEL, fieldsOf, summaryFields, type ContentKind, type SummaryName } from "../../schemas/model.ts";
import { stripAdminMode, type GuestServices } from "./client.ts";
import { listAll } from "./paginate.ts";

interface Stored {
  $id: string;
  $createdAt: string;
  $updatedAt: string;
}
/** A document of `kind` as the site reads it: every field of its description, plus Appwrite's ids and times. */
export type ItemRecord<K extends ContentKind> = DocumentOf<(typeof CONTENT_MODEL)[K]> & Stored;
/** What lists read of a document of `kind` (`summary` fields): lists never fetch case studies or post bodies. */
export type ItemSummary<K extends ContentKind> = Pick<ItemRecord<K>, keyof Stored | SummaryName<K>>;
export type VentureRecord = ItemRecord<"venture">;
export type BlogPostRecord = ItemRecord<"post">;
export type VentureSummary = ItemSummary<"venture">;
export type PostSummary = ItemSummary<"post">;
/**
 * What the reads need: the databases service of a client. Public pages pass a guest client's; an API-key
 * client would read past Appwrite's permissions (drafts, private documents).
 */
export type ContentReader = Pick<GuestServices, "databases">;

/**
 * The record of a document of `kind`, from the fields of its description (`only`: just those): text as
 * strings (missing: `""`), images with `mode=admin` stripped, optional fields and the owner as null when missing.
 */
function toRecord<K extends ContentKind>(
  kind: K,
  doc: Models.DefaultDocument,
  only?: readonly string[],
): ItemRecord<K> {
  const record: Record<string, unknown> = { $id: doc.$id, $createdAt: doc.$createdAt, $updatedAt: doc.$updatedAt };
  for (const [name, field] of fieldsOf(CONTENT_MODEL[kind])) {
    if (only && !only.includes(name)) continue;
    const value = doc[name] as string | null | undefined;
    if (field.type === "image") record[name] = stripAdminMode(value ?? null);
    else if (field.type === "owner" || field.optional) record[name] = value ?? null;
    else record[name] = String(value ?? "");
  }
  return record as ItemRecord<K>;
}

/**
 * Summaries of `kind`'s documents, newest first by its `order` field (then creation time; spec §7: ventures
 * "latest N ordered by creation time descending", posts by their published date); at most `limit` (default 1000).
 * Only the summary fields are read (Appwrite `Query.select`).
 */
export async function listSummaries<K extends ContentKind>(
  services: ContentReader,
  kind: K,
  limit = 1000,
): Promise<ItemSummary<K>[]> {
  const spec = CONTENT_MODEL[kind];
  const fields = summaryFields(kind);
  const order =
    spec.order === "$createdAt"
      ? [Query.orderDesc("$createdAt")]
      : [Query.orderDesc(spec.order), Query.orderDesc("$createdAt")];
  const documents = await listAll(
    (queries) =>
      services.databases
        .listDocuments({ databaseId: DATABASE_ID, collectionId: spec.collectionId, queries })
        .then((page) => page.documents),
    { queries: [Query.select(fields), ...order], max: limit },
  );
  return documents.map((doc) => toRecord(kind, doc, fields));
}

/** Ventures' summaries, newest first; at most `limit` (default 1000). */
export function listVentures(services: ContentReader, limit = 1000): Promise<VentureSummary[]> {
  return listSummaries(services, "venture", limit);
}

/** Blog posts' summaries by their `order` field (the published date), newest first (spec §7); at most `limit` (default 1000). */
export function listPosts(services: ContentReader, limit = 1000): Promise<PostSummary[]> {
  return listSummaries(services, "post", limit);
}

/** The document of `kind` with `slug`, or null (spec §7: "list by slug equals"). */
export async function getBySlug<K extends ContentKind>(
  services: ContentReader,
  kind: K,
  slug: string,
): Promise<ItemRecord<K> | null> {
  try {
    const page = await services.databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL[kind].collectionId,
      queries: [Query.equal("slug", slug), Query.limit(1)],
    });
    const doc = page.documents[0];
    return doc ? toRecord(kind, doc) : null;
  } catch (error) {
    // A slug Appwrite rejects as a query value cannot match any document.
    if (error instanceof AppwriteException && error.code === 400) return null;
    throw error;
  }
}

/** The venture with `slug`, or null. */
export function getVentureBySlug(services: ContentReader, slug: string): Promise<VentureRecord | null> {
  return getBySlug(services, "venture", slug);
}

/** The blog post with `slug`, or null. */
export function getPostBySlug(services: ContentReader, slug: string): Promise<BlogPostRecord | null> {
  return getBySlug(services, "post", slug);
}
