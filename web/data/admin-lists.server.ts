/**
 * The admin's lists (spec §2, §7): pages of ventures and posts with each item's state, found by search,
 * filters, sort and page (issue #17 item 6), read with the user's session. The dashboard's totals:
 * `dashboard.server.ts`.
 */
import { Query, type Models } from "node-appwrite";
import { stripAdminMode, type SessionServices } from "../../lib/appwrite/client.ts";
import { rowsWhereIn } from "../../lib/appwrite/paginate.ts";
import { DATABASE_ID, type ContentKind } from "../../model/content.ts";
import { PUBLISH_AT_COLUMN, STATUS_COLUMN, stateOf, type ItemState } from "../../model/lifecycle.ts";
import {
  CONTENT_LOCALES,
  CONTENT_MODEL,
  DEFAULT_CONTENT_LOCALE,
  columnFields,
  translatedFields,
  versionFields,
  type ContentKindSpec,
  type ContentLocale,
  type FieldType,
} from "../../model/model.ts";
import { translationStatus, type TranslationState } from "../../lib/translate/status.ts";
import { publicImageUrl } from "./content.server.ts";
import { mayAct, sameEditors } from "../../lib/publish/item-permissions.ts";
import { documentLocale, versionInfoOf } from "./admin-versions.server.ts";
import { PAGE_SIZE, parseListQuery, type ListQuery } from "../components/admin/list-query.ts";

/** The list's query from the request's URL (`list-query.ts`: search, sort, page, state and translation filters). */
export function listQueryOf(request: Request): ListQuery {
  return parseListQuery(new URL(request.url).searchParams);
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
  /** A scheduled item's publish time (ISO, UTC), which the list names with the site's zone (issue #29). */
  publishAt: string | null;
  /** The item's title field (a venture's name, a post's title), for the delete dialog. */
  name: string;
  slug: string;
  cells: AdminCell[];
  /** Each language's translation state (issue #15 item 6): missing, unreviewed, stale or up-to-date. */
  translations: Record<ContentLocale, TranslationState>;
  /** The document id of each language version the item has. */
  versions: Partial<Record<ContentLocale, string>>;
  /**
   * Whether the user may change the item (issue #28 item 3: the studio team, or its creator); the list offers
   * Edit and Delete only then, else "View".
   */
  editable: boolean;
  /**
   * "View on site": the item's public URL in its shown version's language; for a draft or scheduled item
   * it is the preview a signed-in user opens (`preview.server.ts`).
   */
  viewUrl: string;
}

/**
 * Whose items a list shows (issue #28 item 3): `owner` (a user outside the studio team) sees only the items
 * they created; `held` (`heldRoles`) decides which rows are editable. Without a scope, every readable item,
 * all editable (the team's view).
 */
export interface ListScope {
  owner?: string;
  held?: readonly string[];
  /**
   * The admin's language (issue #29 item 7): a row shows the item's version in it, when it has one (its
   * title, its columns, "View on site" at `/ar/…`); its state and Edit stay the default version's.
   */
  locale?: ContentLocale;
}

/** The queries that keep a list to `scope.owner`'s items. */
export const scopeQueries = (scope: ListScope | undefined) =>
  scope?.owner ? [Query.equal("userId", scope.owner)] : [];

/** A page of an admin list: its rows, how many items the query found, and which page this is (from 1). */
export interface AdminList {
  rows: AdminRow[];
  total: number;
  page: number;
}

/** How many version keys one request of the list's scan reads. */
const SCAN_BATCH = 1000;
/**
 * Every row of `kind` matching `queries` (filters, orders, `select`) that `session` may read, `SCAN_BATCH` rows
 * a request by offset, ties broken by `$id` so the pages neither repeat nor skip a row. For the admin's lists
 * and dashboard, which group versions by slug over the whole table.
 * @throws {AppwriteException} when Appwrite refuses or cannot be reached.
 */
export async function scanRows(
  session: SessionServices,
  kind: ContentKind,
  queries: string[],
): Promise<Models.DefaultRow[]> {
  const rows: Models.DefaultRow[] = [];
  for (let offset = 0; ; offset += SCAN_BATCH) {
    const batch = await session.tablesDB.listRows({
      databaseId: DATABASE_ID,
      tableId: CONTENT_MODEL[kind].collectionId,
      total: false,
      queries: [...queries, Query.orderAsc("$id"), Query.limit(SCAN_BATCH), Query.offset(offset)],
    });
    rows.push(...batch.rows);
    if (batch.rows.length < SCAN_BATCH) break;
  }
  return rows;
}

/** How many items' versions one request reads by slug (Appwrite takes at most 100 values in a query). */
const SLUG_BATCH = 50;

function row(
  kind: ContentKind,
  doc: Models.DefaultRow,
): Omit<AdminRow, "translations" | "versions" | "viewUrl" | "editable"> {
  const spec: ContentKindSpec = CONTENT_MODEL[kind];
  // The image first, then the other columns in the order of the description.
  const columns = columnFields(kind).sort((a, b) => Number(b === spec.image) - Number(a === spec.image));
  return {
    id: doc.$id,
    state: stateOf(doc),
    publishAt: stateOf(doc) === "scheduled" ? ((doc[PUBLISH_AT_COLUMN] as string | null | undefined) ?? null) : null,
    name: String(doc[spec.title] ?? ""),
    slug: String(doc.slug),
    cells: columns.map((field) => {
      const type = spec.fields[field]!.type;
      const raw = (doc[field] as string | null | undefined) ?? null;
      return { field, type, value: type === "image" ? publicImageUrl(stripAdminMode(raw)) : raw };
    }),
  };
}

/** The fields a list row and its translation states read (Appwrite always adds the `$` attributes). */
function listFields(kind: ContentKind): string[] {
  const spec = CONTENT_MODEL[kind];
  return [
    ...new Set([
      spec.title,
      "slug",
      STATUS_COLUMN,
      PUBLISH_AT_COLUMN,
      ...columnFields(kind),
      ...translatedFields(kind),
      ...versionFields(kind),
    ]),
  ];
}

/** Every version of the items `slugs` of `kind`, with `fields`, read `SLUG_BATCH` items at a time. */
function versionsOf(
  session: SessionServices,
  kind: ContentKind,
  slugs: readonly string[],
  fields: string[],
): Promise<Models.DefaultRow[]> {
  // Not counted: the list counts items, not versions.
  const table = { databaseId: DATABASE_ID, tableId: CONTENT_MODEL[kind].collectionId };
  return rowsWhereIn(session.tablesDB, table, "slug", slugs, {
    batch: SLUG_BATCH,
    rowsPerValue: CONTENT_LOCALES.length,
    select: fields,
  });
}

/** Each item's translation state by language (issue #15 item 6), from all of its versions. */
function translationStates(
  kind: ContentKind,
  docs: Models.DefaultRow[],
): Map<string, Record<ContentLocale, TranslationState>> {
  const states = new Map<string, Record<ContentLocale, TranslationState>>();
  for (const r of translationStatus(docs.map((doc) => versionInfoOf(kind, doc)))) {
    const entry = states.get(r.slug) ?? ({} as Record<ContentLocale, TranslationState>);
    entry[r.locale] = r.state;
    states.set(r.slug, entry);
  }
  return states;
}

/** The rows of the items `slugs`, in that order, from their versions `docs` (every version of each). */
function rowsOf(kind: ContentKind, slugs: readonly string[], docs: Models.DefaultRow[], scope?: ListScope): AdminRow[] {
  const bySlug = new Map<string, Models.DefaultRow[]>();
  for (const doc of docs) bySlug.set(String(doc.slug), [...(bySlug.get(String(doc.slug)) ?? []), doc]);
  const states = translationStates(kind, docs);
  return slugs.flatMap((slug) => {
    const all = bySlug.get(slug);
    if (!all) return []; // deleted since the scan
    // The item's versions: the rows edited by the same roles as its first one (issue #28 item 5).
    const first = all.reduce((a, b) => (b.$createdAt < a.$createdAt ? b : a));
    const versions = all.filter((d) => sameEditors(d.$permissions, first.$permissions));
    const shown = versions.find((d) => documentLocale(d) === DEFAULT_CONTENT_LOCALE) ?? versions[0]!;
    const ids: Partial<Record<ContentLocale, string>> = {};
    for (const doc of versions) ids[documentLocale(doc)] ??= doc.$id;
    const display = versions.find((d) => scope?.locale && documentLocale(d) === scope.locale) ?? shown;
    const viewUrl = `/${documentLocale(display)}/${CONTENT_MODEL[kind].publicPath}/${encodeURIComponent(slug)}`;
    const editable = !scope?.held || mayAct(shown.$permissions, scope.held, "update");
    const { cells, name } = row(kind, display);
    return [{ ...row(kind, shown), cells, name, translations: states.get(slug)!, versions: ids, viewUrl, editable }];
  });
}

/**
 * One page of an admin list (issue #17 item 6): one row per item (its versions share the slug), shown from
 * its English version (else its Arabic one; its columns and "View on site" in `scope.locale` where it has that
 * version, issue #29 item 7), with each language's translation state (issue #15 item 6),
 * found by `query` (`list-query.ts`).
 *
 * Appwrite does what it can: it finds the versions whose title/name contains the search (`Query.contains`, a
 * substring test that needs no index, unlike `Query.search`'s fulltext index with its whole-word matching),
 * and orders them by date or name (then by id, so pages never overlap). It cannot group versions into items,
 * so the list reads the ordered versions' keys only (slug, locale, state, a few bytes each, `SCAN_BATCH` at
 * a time), groups them by slug in that order (an item takes the place of its shown version), keeps the items
 * whose shown version is in `query.state`, cuts the page, and reads the page's versions in full
 * (`Query.equal("slug", …)`). With `query.translation`, the matching items' versions are read in full first,
 * since a translation state compares each version's text with its source's.
 * @returns the page's rows, the number of items found, and the page shown (the last one when `query.page`
 * is past the end).
 */
export async function listPage(
  session: SessionServices,
  kind: ContentKind,
  query: ListQuery,
  scope?: ListScope,
): Promise<AdminList> {
  const spec = CONTENT_MODEL[kind];
  const order = query.sort.endsWith("asc") ? Query.orderAsc : Query.orderDesc;
  const keyFields = ["slug", "locale", STATUS_COLUMN];
  const keys = await scanRows(session, kind, [
    ...(query.search ? [Query.contains(spec.title, query.search)] : []),
    ...scopeQueries(scope),
    order(query.sort.startsWith("name") ? spec.title : spec.order),
    Query.select(keyFields),
  ]);
  // Each item at the place of its shown version (English, else the first found).
  const places = new Map<string, { at: number; shown: Models.DefaultRow }>();
  keys.forEach((doc, at) => {
    const slug = String(doc.slug);
    const seen = places.get(slug);
    if (
      !seen ||
      (documentLocale(doc) === DEFAULT_CONTENT_LOCALE && documentLocale(seen.shown) !== DEFAULT_CONTENT_LOCALE)
    )
      places.set(slug, { at, shown: doc });
  });
  // A search may find only an item's Arabic version: its state is its English version's, when it has one.
  const lacking = [...places]
    .filter(([, p]) => documentLocale(p.shown) !== DEFAULT_CONTENT_LOCALE)
    .map(([slug]) => slug);
  for (const doc of await versionsOf(session, kind, lacking, keyFields)) {
    if (documentLocale(doc) === DEFAULT_CONTENT_LOCALE) places.get(String(doc.slug))!.shown = doc;
  }
  let slugs = [...places]
    .sort(([, a], [, b]) => a.at - b.at)
    .filter(([, p]) => !query.state || stateOf(p.shown) === query.state)
    .map(([slug]) => slug);
  let full: Models.DefaultRow[] | null = null;
  if (query.translation) {
    full = await versionsOf(session, kind, slugs, listFields(kind));
    const states = translationStates(kind, full);
    slugs = slugs.filter((slug) => CONTENT_LOCALES.some((l) => states.get(slug)?.[l] === query.translation));
  }
  const total = slugs.length;
  const page = Math.min(query.page, Math.max(1, Math.ceil(total / PAGE_SIZE)));
  const shown = slugs.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const wanted = new Set(shown);
  const docs = full
    ? full.filter((doc) => wanted.has(String(doc.slug)))
    : await versionsOf(session, kind, shown, listFields(kind));
  return { rows: rowsOf(kind, shown, docs, scope), total, page };
}
