/**
 * Reads of published ventures and blog posts (spec §7 "Product operations"). The site calls them with a guest
 * client (`createGuestServices`), so they return what anyone may read and only that (ARCHITECTURE decision 8,
 * SECURITY C55). Documents become records by their kind's description (`CONTENT_MODEL`); image URLs come back
 * with a trailing `mode=admin` stripped (spec §3).
 */
import { AppwriteException, Query, type Models } from "node-appwrite";
import { DATABASE_ID, type DocumentOf } from "../../model/content.ts";
import {
  CONTENT_MODEL,
  DEFAULT_CONTENT_LOCALE,
  fieldsOf,
  isContentLocale,
  summaryFields,
  type ContentKind,
  type ContentLocale,
  type SummaryName,
} from "../../model/model.ts";
import { stripAdminMode, type GuestServices } from "./client.ts";
import { listAll } from "./paginate.ts";
import { sameEditors } from "../publish/item-permissions.ts";

interface Stored {
  $id: string;
  $createdAt: string;
  $updatedAt: string;
  /** Its Appwrite permissions: who edits it decides which item a version belongs to (`pickVersions`). */
  $permissions?: string[];
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
 * What the reads need: the TablesDB service of a client. Public pages pass a guest client's; an API-key
 * client would read past Appwrite's permissions (drafts, private documents).
 */
export type ContentReader = Pick<GuestServices, "tablesDB">;

/**
 * The record of a document of `kind`, from the fields of its description (`only`: just those): text as
 * strings (missing: `""`), images with `mode=admin` stripped, optional fields and the owner as null when missing.
 */
export function toRecord<K extends ContentKind>(
  kind: K,
  doc: Models.DefaultRow,
  only?: readonly string[],
): ItemRecord<K> {
  const record: Record<string, unknown> = {
    $id: doc.$id,
    $createdAt: doc.$createdAt,
    $updatedAt: doc.$updatedAt,
    $permissions: doc.$permissions,
  };
  for (const [name, field] of fieldsOf(CONTENT_MODEL[kind])) {
    if (only && !only.includes(name)) continue;
    const value = doc[name] as string | null | undefined;
    if (field.type === "image") record[name] = stripAdminMode(value ?? null);
    else if (field.type === "locale" && !field.optional)
      record[name] = isContentLocale(value) ? value : DEFAULT_CONTENT_LOCALE;
    else if (field.type === "owner" || field.optional) record[name] = value ?? null;
    else record[name] = String(value ?? "");
  }
  return record as ItemRecord<K>;
}

/**
 * The order lists read `kind` in, newest first by its `order` field (spec §7: ventures "latest N ordered by
 * creation time descending", posts by their published date, on the `published_date` index), then for posts
 * by slug and locale, so that the versions of an item sit side by side and pages cut between items
 * (`readItemPage` in content-pages.ts); the last key is unique, as cursors need. `reversed`: the same order
 * backwards (oldest first), to read a list's last pages from its end (issue #33 item 6).
 */
export function listOrder(kind: ContentKind, reversed = false): string[] {
  const spec = CONTENT_MODEL[kind];
  const [down, up] = reversed ? [Query.orderAsc, Query.orderDesc] : [Query.orderDesc, Query.orderAsc];
  return spec.order === "$createdAt" ? [down("$createdAt")] : [down(spec.order), up("slug"), up("locale")];
}

/**
 * Summaries of `kind`'s documents in `listOrder`; at most `limit` (default: all of them, read by cursor
 * `PAGE_SIZE` at a time: no silent cap, issue #18 item 3). Only the summary fields are read (`Query.select`).
 */
export async function listSummaries<K extends ContentKind>(
  services: ContentReader,
  kind: K,
  limit = Infinity,
): Promise<ItemSummary<K>[]> {
  const fields = summaryFields(kind);
  const documents = await listAll(
    (queries) =>
      services.tablesDB
        .listRows({ databaseId: DATABASE_ID, tableId: CONTENT_MODEL[kind].collectionId, queries, total: false })
        .then((page) => page.rows),
    { queries: [Query.select(fields), ...listOrder(kind)], max: limit },
  );
  return documents.map((doc) => toRecord(kind, doc, fields));
}

/** Ventures' summaries, newest first; at most `limit` (default: all). */
export function listVentures(services: ContentReader, limit = Infinity): Promise<VentureSummary[]> {
  return listSummaries(services, "venture", limit);
}

/** Blog posts' summaries by their `order` field (the published date), newest first (spec §7); at most `limit` (default: all). */
export function listPosts(services: ContentReader, limit = Infinity): Promise<PostSummary[]> {
  return listSummaries(services, "post", limit);
}

/** The document of `kind` with `slug`, or null (spec §7: "list by slug equals"). */
export async function getBySlug<K extends ContentKind>(
  services: ContentReader,
  kind: K,
  slug: string,
): Promise<ItemRecord<K> | null> {
  try {
    const page = await services.tablesDB.listRows({
      databaseId: DATABASE_ID,
      tableId: CONTENT_MODEL[kind].collectionId,
      queries: [Query.equal("slug", slug), Query.limit(1)],
      total: false,
    });
    const doc = page.rows[0];
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

/** A language version chosen for a page, with the locales the item exists in (for `hreflang`). */
export type Localized<T> = T & { locale: ContentLocale; locales: ContentLocale[] };

/**
 * The version of each item to show in `locale` (issue #15 item 3): the one in `locale` when it exists, else
 * the other (the page marks it with its own `lang`/`dir` and a notice). `records` holds every version of
 * every item (each record's `slug` and `locale`); items keep the order of their first version in `records`.
 * Versions belong to their item (issue #28 item 5): of the rows sharing a slug, only those edited by the same
 * roles as the first one written (`sameEditors`) are its versions; a row written around the product with its
 * slug in another locale is neither shown for it nor listed among its locales (`hreflang`).
 */
export function pickVersions<T extends { slug: string; locale: string; $createdAt?: string; $permissions?: string[] }>(
  records: readonly T[],
  locale: ContentLocale,
): Localized<T>[] {
  const bySlug = new Map<string, T[]>();
  for (const record of records) {
    const versions = bySlug.get(record.slug);
    if (versions) versions.push(record);
    else bySlug.set(record.slug, [record]);
  }
  return [...bySlug.values()].map((all) => {
    const versions = ofFirstItem(all);
    const chosen =
      versions.find((v) => v.locale === locale) ??
      versions.find((v) => v.locale === DEFAULT_CONTENT_LOCALE) ??
      versions[0]!;
    const locales = [...new Set(versions.map((v) => v.locale))].filter(isContentLocale);
    return { ...chosen, locale: chosen.locale as ContentLocale, locales };
  });
}

/** The rows of `rows` (one slug) that belong to the item of the first one written: the same editors. */
function ofFirstItem<T extends { $createdAt?: string; $permissions?: string[] }>(rows: T[]): T[] {
  if (rows.length < 2 || rows.some((r) => !r.$permissions)) return rows;
  const first = rows.reduce((a, b) => ((b.$createdAt ?? "") < (a.$createdAt ?? "") ? b : a));
  return rows.filter((r) => sameEditors(r.$permissions!, first.$permissions!));
}

/**
 * Summaries of `kind` as shown in `locale` (`pickVersions`), newest first, at most `limit` items (default:
 * all, read by cursor): reads up to one version per locale for each item shown, plus one row so that an item
 * whose second version comes next is shown in the right language.
 */
export async function listLocalized<K extends ContentKind>(
  services: ContentReader,
  kind: K,
  locale: ContentLocale,
  limit = Infinity,
): Promise<Localized<ItemSummary<K>>[]> {
  const all = await listSummaries(services, kind, Number.isFinite(limit) ? limit * 2 + 1 : limit);
  return pickVersions(all as (ItemSummary<K> & { slug: string; locale: string })[], locale).slice(0, limit);
}

/**
 * The item of `kind` with `slug` as shown in `locale` (`pickVersions`), or null when no version is readable.
 * @throws {AppwriteException} for Appwrite errors other than a slug it refuses as a query value (null).
 */
export async function getLocalized<K extends ContentKind>(
  services: ContentReader,
  kind: K,
  slug: string,
  locale: ContentLocale,
): Promise<Localized<ItemRecord<K>> | null> {
  try {
    const page = await services.tablesDB.listRows({
      databaseId: DATABASE_ID,
      tableId: CONTENT_MODEL[kind].collectionId,
      queries: [Query.equal("slug", slug), Query.limit(10)],
      total: false,
    });
    const records = page.rows.map((doc) => toRecord(kind, doc) as ItemRecord<K> & { slug: string; locale: string });
    return pickVersions(records, locale)[0] ?? null;
  } catch (error) {
    if (error instanceof AppwriteException && error.code === 400) return null;
    throw error;
  }
}
