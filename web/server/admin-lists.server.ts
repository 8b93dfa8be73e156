/**
 * The admin's lists and dashboard (spec §2, §7): rows of ventures and posts with each item's state, the filter
 * by state, and the totals (issue #16 adds published, scheduled and drafts), read with the user's session.
 */
import { Query, type Models } from "node-appwrite";
import { stripAdminMode, type SessionServices } from "../../lib/appwrite/client.ts";
import { CONTENT_KINDS, DATABASE_ID, type ContentKind } from "../../schemas/content.ts";
import { isItemState, STATUS_COLUMN, stateOf, type ItemState } from "../../schemas/lifecycle.ts";
import {
  CONTENT_LOCALES,
  CONTENT_MODEL,
  columnFields,
  translatedFields,
  versionFields,
  type ContentKindSpec,
  type ContentLocale,
  type FieldType,
} from "../../schemas/model.ts";
import { translationHash } from "../../lib/translate/hash.ts";
import {
  TRANSLATION_STATES,
  translationStatus,
  type TranslationState,
  type VersionInfo,
} from "../../lib/translate/status.ts";
import { publicImageUrl } from "./content.server.ts";

/** The state a list is filtered by (`?state=draft|scheduled|published`), or null for all. */
export function stateFilterOf(request: Request): ItemState | null {
  const value = new URL(request.url).searchParams.get("state");
  return isItemState(value) ? value : null;
}

/** The translation state a list is filtered by (`?translation=missing|unreviewed|stale|up-to-date`), or null. */
export function translationFilterOf(request: Request): TranslationState | null {
  const value = new URL(request.url).searchParams.get("translation");
  return (TRANSLATION_STATES as readonly string[]).includes(value ?? "") ? (value as TranslationState) : null;
}

/** A cell of the admin lists: a column field of the kind (`column: true`) and its value as the list shows it. */
export interface AdminCell {
  field: string;
  type: FieldType;
  /** Text; for an image, the URL the browser loads. */
  value: string | null;
}

/** A row of the admin lists. */
export interface AdminRow {
  id: string;
  /** Draft, scheduled or published (issue #16). */
  state: ItemState;
  /** The item's title field (a venture's name, a post's title), for the delete dialog. */
  name: string;
  slug: string;
  cells: AdminCell[];
  /** Each language's translation state (issue #15 item 6): missing, unreviewed, stale or up-to-date. */
  translations: Record<ContentLocale, TranslationState>;
  /** The document id of each language version the item has. */
  versions: Partial<Record<ContentLocale, string>>;
}

/** The locale of a document: `en` when it has none (written before locales). */
function localeOf(doc: Models.DefaultRow): ContentLocale {
  return doc.locale === "ar" ? "ar" : "en";
}

/** A document as `translationStatus` reads it. */
function versionInfo(kind: ContentKind, doc: Models.DefaultRow): VersionInfo {
  const sourceLocale = doc.sourceLocale === "ar" || doc.sourceLocale === "en" ? doc.sourceLocale : null;
  return {
    kind,
    slug: String(doc.slug),
    locale: localeOf(doc),
    draft: stateOf(doc) !== "published",
    hash: translationHash(kind, doc),
    translation: sourceLocale
      ? {
          sourceLocale,
          sourceHash: typeof doc.sourceHash === "string" ? doc.sourceHash : null,
          reviewed: doc.reviewed === true,
        }
      : null,
    where: doc.$id,
  };
}

function row(kind: ContentKind, doc: Models.DefaultRow): Omit<AdminRow, "translations" | "versions"> {
  const spec: ContentKindSpec = CONTENT_MODEL[kind];
  // The image first, then the other columns in the order of the description.
  const columns = columnFields(kind).sort((a, b) => Number(b === spec.image) - Number(a === spec.image));
  return {
    id: doc.$id,
    state: stateOf(doc),
    name: String(doc[spec.title] ?? ""),
    slug: String(doc.slug),
    cells: columns.map((field) => {
      const type = spec.fields[field]!.type;
      const raw = (doc[field] as string | null | undefined) ?? null;
      return { field, type, value: type === "image" ? publicImageUrl(stripAdminMode(raw)) : raw };
    }),
  };
}

/**
 * All ventures (newest first) or posts (by published date), as the admin lists show them: one row per item
 * (its versions share the slug), shown from its English version (else its Arabic one), with each language's
 * translation state (issue #15 item 6). With `state`, only items whose shown version is in that state
 * (issue #16); with `translation`, only items with a language in that translation state.
 */
export async function listRows(
  session: SessionServices,
  kind: ContentKind,
  state?: ItemState,
  translation?: TranslationState,
): Promise<AdminRow[]> {
  const spec = CONTENT_MODEL[kind];
  const page = await session.tablesDB.listRows({
    databaseId: DATABASE_ID,
    tableId: spec.collectionId,
    // Only what the list and the translation states need (Appwrite always adds the `$` attributes).
    queries: [
      Query.orderDesc(spec.order),
      Query.limit(500),
      Query.select([
        ...new Set([
          spec.title,
          "slug",
          STATUS_COLUMN,
          ...columnFields(kind),
          ...translatedFields(kind),
          ...versionFields(kind),
        ]),
      ]),
    ],
  });
  const bySlug = new Map<string, Models.DefaultRow[]>();
  for (const doc of page.rows) {
    const slug = String(doc.slug);
    bySlug.set(slug, [...(bySlug.get(slug) ?? []), doc]);
  }
  const states = new Map<string, Record<ContentLocale, TranslationState>>();
  for (const r of translationStatus(page.rows.map((doc) => versionInfo(kind, doc)))) {
    const entry = states.get(r.slug) ?? ({} as Record<ContentLocale, TranslationState>);
    entry[r.locale] = r.state;
    states.set(r.slug, entry);
  }
  const rows: AdminRow[] = [];
  for (const [slug, docs] of bySlug) {
    const shown = docs.find((d) => localeOf(d) === "en") ?? docs[0]!;
    const versions: Partial<Record<ContentLocale, string>> = {};
    for (const doc of docs) versions[localeOf(doc)] ??= doc.$id;
    const translations = states.get(slug)!;
    // Filtered here, not by a query: a document written before the lifecycle has no status and is published.
    const base = row(kind, shown);
    if (state && base.state !== state) continue;
    if (translation && !CONTENT_LOCALES.some((l) => translations[l] === translation)) continue;
    rows.push({ ...base, translations, versions });
  }
  return rows;
}

/** The dashboard's totals: the spec's two, and ventures and posts together by state (issue #16). */
export interface DashboardCounts {
  ventures: number;
  posts: number;
  published: number;
  scheduled: number;
  drafts: number;
}

/**
 * Totals for the dashboard (spec §7: "Counts for the dashboard come from the list total"), and by state:
 * scheduled and drafts from the list totals of a `status` query, published the rest (documents written
 * before the lifecycle have no status and are published).
 */
export async function countItems(session: SessionServices): Promise<DashboardCounts> {
  const count = async (kind: ContentKind, state?: ItemState) =>
    (
      await session.tablesDB.listRows({
        databaseId: DATABASE_ID,
        tableId: CONTENT_KINDS[kind].collectionId,
        queries: [...(state ? [Query.equal(STATUS_COLUMN, state)] : []), Query.limit(1), Query.select(["$id"])],
      })
    ).total;
  const [ventures, posts, scheduledV, scheduledP, draftsV, draftsP] = await Promise.all([
    count("venture"),
    count("post"),
    count("venture", "scheduled"),
    count("post", "scheduled"),
    count("venture", "draft"),
    count("post", "draft"),
  ]);
  const scheduled = scheduledV + scheduledP;
  const drafts = draftsV + draftsP;
  return { ventures, posts, published: ventures + posts - scheduled - drafts, scheduled, drafts };
}
