/**
 * A slug names one item in every language (issue #15 decision 0008: an item's versions share it). The table's
 * unique index is on slug and locale, so it refuses a second English "harbor" but not an Arabic one: since an
 * item may start in Arabic (issue #29 item 8), a new Arabic-first item could take the slug of another's English
 * item (and `/ar/…/harbor` would show it as that item's translation). Checked here across locales.
 */
import { Query } from "node-appwrite";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL, CONTENT_LOCALES, type ContentKind } from "../../model/model.ts";
import { getApiKeyServices } from "./appwrite.server.ts";

/**
 * Whether a row of `kind` other than `own` (the item's versions' ids) has `slug`, in any locale. Read with the
 * site's key, so another user's draft counts too; only the answer leaves the server (as the index's refusal
 * does today).
 * @throws Appwrite's error when the table cannot be read (the save then fails with the spec's message, §8).
 */
export async function slugUsedElsewhere(kind: ContentKind, slug: string, own: readonly string[]): Promise<boolean> {
  const page = await getApiKeyServices().tablesDB.listRows({
    databaseId: DATABASE_ID,
    tableId: CONTENT_MODEL[kind].collectionId,
    total: false,
    queries: [Query.equal("slug", slug), Query.select(["$id"]), Query.limit(CONTENT_LOCALES.length + own.length + 1)],
  });
  return page.rows.some((row) => !own.includes(row.$id));
}
