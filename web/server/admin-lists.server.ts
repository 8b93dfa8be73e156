/**
 * The admin's lists and dashboard (spec §2, §7): rows of ventures and posts with each item's state, the filter
 * by state, and the totals (issue #16 adds published, scheduled and drafts), read with the user's session.
 */
import { Query, type Models } from "node-appwrite";
import { stripAdminMode, type SessionServices } from "../../lib/appwrite/client.ts";
import { CONTENT_KINDS, DATABASE_ID, type ContentKind } from "../../schemas/content.ts";
import { isItemState, STATUS_COLUMN, stateOf, type ItemState } from "../../schemas/lifecycle.ts";
import { CONTENT_MODEL, columnFields, type ContentKindSpec, type FieldType } from "../../schemas/model.ts";
import { publicImageUrl } from "./content.server.ts";

/** The state a list is filtered by (`?state=draft|scheduled|published`), or null for all. */
export function stateFilterOf(request: Request): ItemState | null {
  const value = new URL(request.url).searchParams.get("state");
  return isItemState(value) ? value : null;
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
}

function row(kind: ContentKind, doc: Models.DefaultRow): AdminRow {
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
 * All ventures (newest first) or posts (by published date), as the admin lists show them; with `state`, only
 * those in that state (issue #16: the lists filter by state).
 */
export async function listRows(session: SessionServices, kind: ContentKind, state?: ItemState): Promise<AdminRow[]> {
  const spec = CONTENT_MODEL[kind];
  const page = await session.tablesDB.listRows({
    databaseId: DATABASE_ID,
    tableId: spec.collectionId,
    // Only what the list shows: bodies can be large (Appwrite always adds the `$` attributes).
    queries: [
      Query.orderDesc(spec.order),
      Query.limit(500),
      Query.select([...new Set([spec.title, "slug", STATUS_COLUMN, ...columnFields(kind)])]),
    ],
  });
  // Filtered here, not by a query: a document written before the lifecycle has no status and is published.
  return page.rows.map((doc) => row(kind, doc)).filter((r) => !state || r.state === state);
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
