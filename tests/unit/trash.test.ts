/**
 * The trash's pure rules (issue #29 item 9): days left before the purge, grouping a deleted item's versions,
 * and `studio transfer` carrying the trash with the rest of the site.
 */
import { describe, expect, it } from "vitest";
import { daysLeft, groupTrash, purgeBefore, type TrashedVersion } from "../../lib/publish/trash.ts";
import { transferScope } from "../../lib/transfer/transfer.ts";
import type { AppwriteSchema } from "../../lib/appwrite/setup.ts";
import schema from "../../model/appwrite.json" with { type: "json" };

const DAY = 86_400_000;
const deletedAt = "2026-11-01T12:00:00.000+00:00";
const at = Date.parse(deletedAt);

function version(batch: string, locale: "en" | "ar", when = deletedAt): TrashedVersion {
  return {
    rowId: `${batch}-${locale}`,
    kind: "post",
    itemId: `${batch}-${locale}`,
    batch,
    slug: batch,
    locale,
    title: `${batch} ${locale}`,
    image: null,
    deletedAt: when,
    deletedBy: "ada",
    data: {},
    editors: ["team:studio"],
  };
}

describe("the trash", () => {
  it("counts 30 days left at the deletion, 1 on the last day, 0 once due", () => {
    expect(daysLeft(deletedAt, at)).toBe(30);
    expect(daysLeft(deletedAt, at + 29.5 * DAY)).toBe(1);
    expect(daysLeft(deletedAt, at + 30 * DAY)).toBe(0);
    expect(daysLeft(deletedAt, at + 40 * DAY)).toBe(0);
    expect(purgeBefore(at + 30 * DAY)).toBe(deletedAt);
  });

  it("groups the versions deleted together, newest deletion first", () => {
    const items = groupTrash(
      [version("a", "en"), version("b", "en", "2026-11-02T00:00:00.000+00:00"), version("a", "ar")],
      at,
    );
    expect(items.map((i) => [i.batch, i.versions.map((v) => v.locale)])).toEqual([
      ["b", ["en"]],
      ["a", ["en", "ar"]],
    ]);
    expect(items[1]).toMatchObject({ kind: "post", deletedBy: "ada", daysLeft: 30 });
  });

  it("is carried by studio transfer with the content and its history", () => {
    const tables = transferScope(schema as unknown as AppwriteSchema).tables.map((t) => t.tableId);
    expect(tables).toEqual(expect.arrayContaining(["blog_posts", "revisions", "trash"]));
  });
});
