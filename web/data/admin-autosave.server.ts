/**
 * Autosave of drafts (issue #29 item 3): the admin's edit forms post their input a few seconds after typing
 * stops, with `intent=autosave`, to the same action as Save (`saveItem`: same session, permissions, validation,
 * sanitizing and edit-conflict check). What differs is here: an autosave only ever writes a draft (an item, or
 * a language version of it, that is published or scheduled is refused: autosave never changes what guests
 * see), and it answers with what it wrote instead of going to the edit page.
 */
import { data } from "react-router";
import type { Models } from "node-appwrite";
import { stateOf } from "../../model/lifecycle.ts";
import { CONTENT_MODEL, type ContentKind } from "../../model/model.ts";

/** The `intent` an autosave posts. */
export const AUTOSAVE_INTENT = "autosave";

/** What a successful autosave answers (JSON): the item's id and each written version's new `$updatedAt`. */
export interface AutosaveResult {
  autosaved: {
    /** The id of the route's document (a new item's, once the autosave created it as a draft). */
    id: string;
    /** Its `$updatedAt` now: the version the next save posts. */
    version: string;
    /** The other language versions written, by locale: their `$updatedAt` now. */
    otherVersions: Record<string, string>;
    /** When it was written (ISO 8601, UTC), for "Saved 10:42". */
    at: string;
  };
}

/** An autosave met an item (or a language version) that is published or scheduled: nothing is written. */
export class NotADraftError extends Error {
  override name = "NotADraftError";
  constructor(readonly id: string) {
    super(`Row ${id} is not a draft: only drafts are autosaved; save it with Update.`);
  }
}

/**
 * Refuses an autosave of `row` unless it is a draft (issue #29 item 3: "never a published or scheduled item").
 * @throws {NotADraftError} when `row` is published or scheduled.
 */
export function refuseUnlessDraft(row: Models.DefaultRow): void {
  if (stateOf(row) !== "draft") throw new NotADraftError(row.$id);
}

/** The answer of a successful autosave: `saved` (the route's document) and the other versions' `$updatedAt`. */
export function autosaved(saved: Models.DefaultRow, otherVersions: Record<string, string>) {
  const result: AutosaveResult = {
    autosaved: { id: saved.$id, version: saved.$updatedAt, otherVersions, at: new Date().toISOString() },
  };
  return data(result);
}

/** The admin edit page of item `id` of `kind` (`/admin/<adminPath>/edit/<id>`, `web/routes.ts`). */
export function editPathOf(kind: ContentKind, id: string): string {
  return `/admin/${CONTENT_MODEL[kind].adminPath}/edit/${encodeURIComponent(id)}`;
}
