/**
 * The studio team's permissions on rows written before the team (issue #28 item 1): every venture and post gets
 * `update` and `delete` for `team:studio` (`withStudioTeam`), its read permissions derived again from its state
 * (`statePermissions`: a draft no longer carries `read("users")`), and its kept revisions the permissions the
 * item's revisions get now (`revisionPermissions`), so the team reads the history of every item. Run by
 * `studio setup` and `npm start`'s schema step, with the API key. Idempotent: a second run changes nothing.
 */
import { Query, type Models } from "node-appwrite";
import { DATABASE_ID } from "../../model/content.ts";
import { stateOf } from "../../model/lifecycle.ts";
import type { AdminServices } from "../appwrite/client.ts";
import { listPages } from "../appwrite/paginate.ts";
import { REVISIONS_TABLE, revisionPermissions } from "./history.ts";
import { withStudioTeam } from "./item-permissions.ts";
import { statePermissions } from "./writer.ts";

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");

/** The permissions a content row should carry now: the team's added, reads derived from its state. */
export function teamRowPermissions(row: Pick<Models.DefaultRow, "$permissions"> & Record<string, unknown>): string[] {
  return statePermissions(withStudioTeam(row.$permissions), stateOf(row));
}

/**
 * Gives every row of content table `tableId` the team's permissions (`teamRowPermissions`) and moves its
 * revisions that carried the item's old editors' permissions to the new ones.
 * @returns how many rows changed.
 * @throws {AppwriteException} when Appwrite refuses a read or a write.
 */
export async function applyTeamPermissions(
  services: Pick<AdminServices, "tablesDB">,
  tableId: string,
): Promise<number> {
  const { tablesDB } = services;
  let changed = 0;
  const pages = listPages(
    (queries) => tablesDB.listRows({ databaseId: DATABASE_ID, tableId, queries, total: false }).then((p) => p.rows),
    // $permissions comes back with every row (Appwrite returns system attributes whatever is selected).
    { queries: [Query.select(["$id", "status"])] },
  );
  for await (const rows of pages) {
    for (const row of rows) {
      const wanted = teamRowPermissions(row);
      if (sameSet(wanted, row.$permissions)) continue;
      await tablesDB.updateRow({ databaseId: DATABASE_ID, tableId, rowId: row.$id, permissions: wanted });
      await moveRevisions(services, row.$id, revisionPermissions(row.$permissions), revisionPermissions(wanted));
      changed++;
    }
  }
  return changed;
}

/** Rewrites the revisions of `itemId` that carry exactly `from` to carry `to` (others are not the site's). */
async function moveRevisions(
  { tablesDB }: Pick<AdminServices, "tablesDB">,
  itemId: string,
  from: string[],
  to: string[],
): Promise<void> {
  const pages = listPages(
    (queries) =>
      tablesDB
        .listRows({ databaseId: DATABASE_ID, tableId: REVISIONS_TABLE, queries, total: false })
        .then((p) => p.rows),
    { queries: [Query.equal("itemId", itemId), Query.select(["$id"])] },
  );
  for await (const revisions of pages) {
    for (const revision of revisions) {
      if (!sameSet(revision.$permissions, from)) continue;
      await tablesDB.updateRow({
        databaseId: DATABASE_ID,
        tableId: REVISIONS_TABLE,
        rowId: revision.$id,
        permissions: to,
      });
    }
  }
}
