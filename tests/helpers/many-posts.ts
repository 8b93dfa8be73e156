/**
 * 500 blog posts for the admin list tests (issue #17 item 6), written with the API key in bulk (not through
 * the admin), so a list has ten pages of 50:
 * - post n (0–499) is `ledger-NNN`, "Ledger NNN", published on 2020-01-01 plus n days (so newest first is
 *   n = 499, 498, …), except n = 137, "Zanzibar Harbour Almanac" (the one a search finds);
 * - every 25th (n = 0, 25, …, 475) also has an Arabic version, "دفتر NNN", on the same day: still one item;
 * - n = 499 has only an Arabic version, "دفتر 499" (its list row and its "View on site" are Arabic);
 * - every n ≡ 1 (mod 5) is a draft (100 drafts), readable by signed-in users only.
 */
import { ID, Permission, Role } from "node-appwrite";
import { withStudioTeam } from "../../lib/publish/item-permissions.ts";
import { STUDIO_TEAM_ID } from "../../model/team.ts";
import type { AdminServices } from "../../lib/appwrite/client.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { STATUS_COLUMN } from "../../model/lifecycle.ts";
import { CONTENT_MODEL } from "../../model/model.ts";

export const MANY = 500;
export const ALMANAC = 137;
export const pad = (n: number) => String(n).padStart(3, "0");
/** The title the English list shows for post n. */
export const titleOf = (n: number) =>
  n === ALMANAC ? "Zanzibar Harbour Almanac" : n === 499 ? "دفتر 499" : `Ledger ${pad(n)}`;
export const isDraft = (n: number) => n % 5 === 1;
export const hasArabic = (n: number) => n % 25 === 0;

/** Writes the 500 posts (520 documents), 100 a request. */
export async function seedManyPosts(services: AdminServices): Promise<void> {
  const rows: object[] = [];
  const day = (n: number) => new Date(Date.UTC(2020, 0, 1 + n)).toISOString();
  const version = (n: number, locale: "en" | "ar", title: string) => ({
    $id: ID.unique(),
    // As `studio push` writes them: the team edits them (decision 0017), drafts are the team's to read.
    $permissions: withStudioTeam([
      isDraft(n) ? Permission.read(Role.team(STUDIO_TEAM_ID)) : Permission.read(Role.any()),
    ]),
    title,
    slug: `ledger-${pad(n)}`,
    excerpt: `Post ${n} of the ledger series.`,
    authorName: "Ledger Desk",
    publishedDate: day(n),
    content: `<p>Entry ${n}.</p>`,
    locale,
    [STATUS_COLUMN]: isDraft(n) ? "draft" : "published",
  });
  for (let n = 0; n < MANY; n += 1) {
    if (n === 499) rows.push(version(n, "ar", titleOf(n)));
    else rows.push(version(n, "en", titleOf(n)));
    if (hasArabic(n)) rows.push(version(n, "ar", `دفتر ${pad(n)}`));
  }
  for (let i = 0; i < rows.length; i += 100) {
    await services.tablesDB.createRows({
      databaseId: DATABASE_ID,
      tableId: CONTENT_MODEL.post.collectionId,
      rows: rows.slice(i, i + 100),
    });
  }
}
