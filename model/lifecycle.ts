/**
 * The editorial lifecycle of ventures and posts (issue #16, docs/decisions/0009-editorial-lifecycle.md):
 * each document is a `draft`, `scheduled` or `published`, stored in its `status` column, with its due time
 * in `publishAt`. Guests read only published documents: the one writer (`lib/publish/writer.ts`) derives the
 * document's read permission from its state (`readRoleFor`). Plain data and pure functions, so the browser
 * may import it (the admin's state labels and filter).
 */
import { CONTENT_MODEL, type ContentKind, type ContentKindSpec } from "./model.ts";

/** The states of an item, in the order the admin lists and filters them. */
export const ITEM_STATES = ["published", "scheduled", "draft"] as const;
export type ItemState = (typeof ITEM_STATES)[number];

/** The column holding the state; a document without it (written before the lifecycle) is published. */
export const STATUS_COLUMN = "status";
/** The column holding the due time (Appwrite datetime): when a scheduled item becomes published. */
export const PUBLISH_AT_COLUMN = "publishAt";

/** The column naming who saved a document last (the admin user's name, or `studio push`): edit conflicts say it. */
export const UPDATED_BY_COLUMN = "updatedBy";

/**
 * The Appwrite attributes every content collection gets besides its kind's fields, in the shape
 * `appwrite pull collections` writes (see `model/appwrite.ts`). Both optional, so documents written before
 * the lifecycle stay valid. `updatedBy` serves the edit-conflict check (issue #16 item 5).
 */
export const LIFECYCLE_ATTRIBUTES: readonly Record<string, unknown>[] = [
  { key: STATUS_COLUMN, type: "string", required: false, array: false, size: 16, default: null, encrypt: false },
  { key: PUBLISH_AT_COLUMN, type: "datetime", required: false, array: false, format: "datetime", default: null },
  { key: UPDATED_BY_COLUMN, type: "string", required: false, array: false, size: 128, default: null, encrypt: false },
  // The item's preview key (issue #28 item 4): shared links are signed with it; a new one revokes them.
  { key: "previewKey", type: "string", required: false, array: false, size: 32, default: null, encrypt: false },
];

/** The index the scheduler's query uses: scheduled documents by due time (`status = scheduled`, oldest first). */
export const LIFECYCLE_INDEX = {
  key: "status_publish_at",
  type: "key",
  attributes: [STATUS_COLUMN, PUBLISH_AT_COLUMN],
  orders: ["ASC", "ASC"],
} as const;

/** Whether `value` is one of `ITEM_STATES`. */
export function isItemState(value: unknown): value is ItemState {
  return typeof value === "string" && (ITEM_STATES as readonly string[]).includes(value);
}

/** The state a stored document is in: its `status`, or `published` when it has none (written before the lifecycle). */
export function stateOf(doc: Record<string, unknown>): ItemState {
  const status = doc[STATUS_COLUMN];
  return isItemState(status) ? status : "published";
}

/**
 * The state of an item that is not a draft: `scheduled` while its due time is after `now` (ms since the
 * epoch), else `published`; a draft stays `draft` whatever its date (issue #16 item 1).
 * @param dueAt the due time (ISO date or date-time, Date) or null (no due time: published at once).
 */
export function stateFor(draft: boolean, dueAt: string | Date | null | undefined, now = Date.now()): ItemState {
  if (draft) return "draft";
  if (dueAt === null || dueAt === undefined || dueAt === "") return "published";
  const due = new Date(dueAt).getTime();
  return Number.isFinite(due) && due > now ? "scheduled" : "published";
}

/**
 * The kind's publication date field (`publishedField`: a post's `publishedDate`), which is its due time unless
 * `publishAt` says otherwise; null for a kind without one (a venture). Named in the kind's entry, never guessed
 * from a field's type: another date (an event's) says nothing of when the item is public.
 */
export function dateField(kind: ContentKind): string | null {
  const spec: ContentKindSpec = CONTENT_MODEL[kind];
  return spec.publishedField ?? null;
}

/**
 * The due time of an item from its values: an explicit `publishAt`, else its kind's date field (a post's
 * `publishedDate`), else null (a venture without `publishAt`).
 */
export function dueTimeOf(kind: ContentKind, values: Record<string, unknown>): string | Date | null {
  const explicit = values[PUBLISH_AT_COLUMN];
  if (explicit instanceof Date || (typeof explicit === "string" && explicit !== "")) return explicit;
  const field = dateField(kind);
  const own = field ? values[field] : null;
  return own instanceof Date || (typeof own === "string" && own !== "") ? own : null;
}

/**
 * The read role of a document in `state`: `any` for published; `editors` for drafts and scheduled items, which
 * only the roles that may change the item read (its creator and the studio team; issue #28 item 3, decision
 * 0017), so Appwrite itself keeps them from guests and from other signed-in users (ARCHITECTURE 8, 11).
 */
export function readRoleFor(state: ItemState): "any" | "editors" {
  return state === "published" ? "any" : "editors";
}
