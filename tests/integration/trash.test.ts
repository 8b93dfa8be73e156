/**
 * The trash (issue #29 item 9) over real HTTP against the built site and the embedded server: deleting in the
 * admin moves both language versions to the trash with their history; guests never see a trashed item (pages,
 * lists, sitemap, feeds, the page cache); the Trash page lists it for its editors only; restore brings it back
 * as a draft with its history, and refuses when its slug was taken meanwhile; "Delete forever" is the owner's;
 * the scheduler's pass purges what was deleted more than 30 days ago (an injected clock). `studio pull` does
 * not write a trashed item and `studio push` refuses its file.
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ID, Query, Teams, type Models } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RevisionStore, REVISIONS_TABLE } from "../../lib/publish/history.ts";
import { pull } from "../../lib/publish/pull.ts";
import { push } from "../../lib/publish/push.ts";
import { startScheduler } from "../../lib/publish/schedule.ts";
import { moveToTrash, TRASH_TABLE } from "../../lib/publish/trash.ts";
import { purgeExpiredTrash } from "../../lib/publish/trash-purge.ts";
import { createItemDocument, updateItemDocument } from "../../lib/publish/writer.ts";
import { DATABASE_ID, IMAGES_BUCKET_ID } from "../../model/content.ts";
import { CONTENT_MODEL, placeholderDocument } from "../../model/model.ts";
import { STUDIO_TEAM_ID } from "../../model/team.ts";
import { fileViewUrl } from "../../lib/appwrite/client.ts";
import { InputFile } from "node-appwrite/file";
import { markupOf, pageCacheLive, startSiteStack, Visitor, type SiteStack } from "../helpers/site.ts";
import { ROOT } from "../helpers/stack.ts";

let stack: SiteStack;
let owner: Visitor;
let editor: Visitor;
let stranger: Visitor;
const PASSWORD = "correct horse battery";
const SLUG = "what-is-a-micro-service-agency";
const POSTS = CONTENT_MODEL.post.collectionId;
const DAY = 86_400_000;

async function account(name: string): Promise<[Visitor, string]> {
  const user = await stack.backend.services.users.create({
    userId: ID.unique(),
    email: `${name}@trash.test`,
    password: PASSWORD,
    name,
  });
  const visitor = new Visitor(stack.site.url);
  expect((await visitor.login(`${name}@trash.test`, PASSWORD)).status).toBe(302);
  return [visitor, user.$id];
}

const tables = () => stack.backend.services.tablesDB;
/** The rows of `tableId` matching `queries`, read with the key (what is stored, whoever may read it). */
const rows = async (tableId: string, ...queries: string[]) =>
  (await tables().listRows({ databaseId: DATABASE_ID, tableId, queries: [...queries, Query.limit(100)] })).rows;
const guestStatus = async (pathname: string) => (await fetch(stack.site.url + pathname)).status;
const guestText = async (pathname: string) => (await fetch(stack.site.url + pathname)).text();

/** Every URL the sitemap lists (its index, then each part). */
async function sitemapText(): Promise<string> {
  const index = await guestText("/sitemap.xml");
  const parts = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/^https?:\/\/[^/]+/, ""));
  return [index, ...(await Promise.all(parts.map(guestText)))].join("\n");
}

let versions: Models.DefaultRow[];
let batch: string;

beforeAll(async () => {
  stack = await startSiteStack();
  let ownerId: string;
  let editorId: string;
  [owner, ownerId] = await account("owner");
  [editor, editorId] = await account("editor");
  [stranger] = await account("stranger");
  const teams = new Teams(stack.backend.services.client);
  // The schema step may have made the team, and the first sign-in its owner, already (issue #28): 409 is fine.
  const unlessThere = (error: { code?: number }) => {
    if (error.code !== 409) throw error;
  };
  await teams.create({ teamId: STUDIO_TEAM_ID, name: "Studio" }).catch(unlessThere);
  await teams.createMembership({ teamId: STUDIO_TEAM_ID, roles: ["owner"], userId: ownerId }).catch(unlessThere);
  await teams.createMembership({ teamId: STUDIO_TEAM_ID, roles: ["editor"], userId: editorId }).catch(unlessThere);
  versions = await rows(POSTS, Query.equal("slug", SLUG));
  expect(versions.map((v) => v.locale).sort()).toEqual(["ar", "en"]);
  // One save of the English version: the history the trash must keep.
  const english = versions.find((v) => v.locale === "en")!;
  await updateItemDocument(tables(), english.$id, { kind: "post", data: { excerpt: "Edited once." }, savedBy: "ed" });
  batch = english.$id;
}, 60_000);
afterAll(async () => stack?.close());

describe("moving an item to the trash", () => {
  it("moves both versions and their history there, and guests never see it again", async () => {
    await pageCacheLive(stack.site, `/en/blog/${SLUG}`); // the page is cached before the deletion
    expect(await guestText("/en/rss.xml")).toContain(SLUG);

    const reply = await owner.request("/admin/blog", { method: "POST", form: { intent: "delete", id: batch } });
    expect(reply.status).toBe(200);
    expect(await rows(POSTS, Query.equal("slug", SLUG))).toEqual([]);
    const trashed = await rows(TRASH_TABLE, Query.equal("batch", batch));
    expect(trashed.map((r) => r.itemId).sort()).toEqual(versions.map((v) => v.$id).sort());
    expect(trashed.every((r) => r.deletedBy === "owner" && r.kind === "post")).toBe(true);
    // Only the item's editors (the studio team, for an item pushed from files) may read it.
    expect(trashed[0]!.$permissions).toEqual(['read("team:studio")']);
    expect((await rows(REVISIONS_TABLE, Query.equal("itemId", batch))).length).toBeGreaterThan(0);

    for (const locale of ["en", "ar"]) {
      expect(await guestStatus(`/${locale}/blog/${SLUG}`)).toBe(404);
      expect(await guestText(`/${locale}/blog`)).not.toContain(SLUG);
      expect(await guestText(`/${locale}/rss.xml`)).not.toContain(SLUG);
    }
    expect(await sitemapText()).not.toContain(SLUG);

    const title = String(versions.find((v) => v.locale === "en")!.title);
    /** The Trash page as `who` sees it (without the hydration data, which carries every admin message). */
    const trashPage = async (who: Visitor, init?: RequestInit) =>
      markupOf((await who.request("/admin/trash", init)).text);
    const listed = await trashPage(owner);
    expect(listed).toContain(title);
    expect(listed).toContain("Delete forever");
    expect(listed).toContain(">30<"); // days left
    const forEditor = await trashPage(editor);
    expect(forEditor).toContain(title);
    expect(forEditor).not.toContain("Delete forever");
    expect(await trashPage(stranger)).not.toContain(title);
    const arabic = await trashPage(owner, { headers: { Cookie: `${owner.cookie}; locale=ar` } });
    expect(arabic).toContain("الأيام المتبقية");
    expect(arabic).toContain("حذف نهائي");
  });

  it("is not written by studio pull, and studio push refuses its file, even with --force", async () => {
    // The site's content/ (what the stack pushed), copied: the files of the trashed post are in it.
    const dir = await mkdtemp(path.join(tmpdir(), "trash-content-"));
    await cp(path.join(ROOT, "content"), dir, { recursive: true });
    const files = [`posts/${SLUG}.md`, `posts/${SLUG}.ar.md`].map((f) => path.join(dir, f));
    try {
      const pushed = await push(stack.backend.services, { contentDir: dir, force: true });
      const refused = pushed.items.filter((i) => i.slug === SLUG);
      expect(refused.map((i) => i.action)).toEqual(["conflict", "conflict"]);
      expect(refused[0]!.reason).toMatch(/is in the site's trash \(deleted in the admin by owner on .*\); restore it/);
      expect(await rows(POSTS, Query.equal("slug", SLUG))).toEqual([]);

      for (const file of files) await rm(file);
      const pulled = await pull(stack.backend.services, { contentDir: dir });
      expect(pulled.items.some((i) => i.slug === SLUG)).toBe(false);
      const { readContent } = await import("../../lib/content/read.ts");
      expect((await readContent(dir)).items.some((i) => i.slug === SLUG)).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("restoring and deleting forever", () => {
  it("restores both versions as a draft, with their ids and history", async () => {
    const reply = await editor.request("/admin/trash", { method: "POST", form: { intent: "restore", batch } });
    expect(reply.status).toBe(200);
    expect(markupOf(reply.text)).toContain("as a draft.");
    const back = await rows(POSTS, Query.equal("slug", SLUG));
    expect(back.map((v) => v.$id).sort()).toEqual(versions.map((v) => v.$id).sort());
    for (const row of back) {
      expect(row.status).toBe("draft");
      expect(row.$permissions).not.toContain('read("any")');
      expect(row.$permissions).toContain('update("team:studio")');
      // A new preview key: links shared before the deletion stay dead (SECURITY C66).
      expect(row.previewKey).toMatch(/^[0-9a-f]{24}$/);
      expect(row.previewKey).not.toBe(versions.find((v) => v.$id === row.$id)!.previewKey);
    }
    expect(back.find((v) => v.locale === "en")!.excerpt).toBe("Edited once.");
    const history = await new RevisionStore(stack.backend.services.client).list(back.find((v) => v.$id === batch)!);
    // The version the one save replaced, kept before the deletion, is its history again.
    expect(history.map((r) => r.fields.excerpt)).toContain(versions.find((v) => v.locale === "en")!.excerpt);
    expect(await rows(TRASH_TABLE, Query.equal("batch", batch))).toEqual([]);
    expect(await guestStatus(`/en/blog/${SLUG}`)).toBe(404); // a draft: still not the guests'
  });

  it("refuses a restore whose slug was taken meanwhile, saying what to do; deletes forever for the owner only", async () => {
    await owner.request("/admin/blog", { method: "POST", form: { intent: "delete", id: batch } });
    const blocker = await createItemDocument(tables(), {
      kind: "post",
      data: placeholderDocument("post", { slug: SLUG, title: "Someone else's" }),
      permissions: ['update("team:studio")', 'delete("team:studio")'],
      lifecycle: { state: "draft", publishAt: null },
    });
    const refused = await owner.request("/admin/trash", { method: "POST", form: { intent: "restore", batch } });
    expect(refused.status).toBe(409);
    expect(markupOf(refused.text)).toContain(`Cannot restore: another item now uses the slug “${SLUG}” in English.`);
    expect((await rows(TRASH_TABLE, Query.equal("batch", batch))).length).toBe(2);
    expect((await rows(POSTS, Query.equal("slug", SLUG))).map((r) => r.$id)).toEqual([blocker.$id]);

    const notOwner = await editor.request("/admin/trash", { method: "POST", form: { intent: "purge", batch } });
    expect(notOwner.status).toBe(403);
    expect(markupOf(notOwner.text)).toContain("owner can delete items forever.");
    const purged = await owner.request("/admin/trash", { method: "POST", form: { intent: "purge", batch } });
    expect(purged.status).toBe(200);
    expect(await rows(TRASH_TABLE, Query.equal("batch", batch))).toEqual([]);
    expect(await rows(REVISIONS_TABLE, Query.equal("itemId", batch))).toEqual([]);
  });
});

describe("the purge after 30 days", () => {
  /** A venture with its own image and one revision, moved to the trash `daysAgo` days before now. */
  async function trashedVenture(slug: string, daysAgo: number) {
    const file = await stack.backend.services.storage.createFile({
      bucketId: IMAGES_BUCKET_ID,
      fileId: ID.unique(),
      file: InputFile.fromBuffer(Buffer.from(`GIF89a-${slug}`), `${slug}.gif`),
    });
    const logoUrl = fileViewUrl(stack.backend.emulator, IMAGES_BUCKET_ID, file.$id);
    const row = await createItemDocument(tables(), {
      kind: "venture",
      data: placeholderDocument("venture", { slug, logoUrl }),
      permissions: ['update("team:studio")', 'delete("team:studio")'],
      lifecycle: { state: "published", publishAt: null },
    });
    await updateItemDocument(tables(), row.$id, { kind: "venture", data: { name: "Renamed" } });
    await moveToTrash(tables(), tables(), "venture", [row], { deletedBy: "test", now: Date.now() - daysAgo * DAY });
    return { id: row.$id, fileId: file.$id };
  }
  const fileExists = (fileId: string) =>
    stack.backend.services.storage.getFile({ bucketId: IMAGES_BUCKET_ID, fileId }).then(
      () => true,
      () => false,
    );

  it("purges what was deleted more than 30 days ago with its history and image, and keeps the rest", async () => {
    const old = await trashedVenture("trash-old", 31);
    const recent = await trashedVenture("trash-recent", 29);
    expect(await purgeExpiredTrash(stack.backend.services)).toBe(1);
    expect(await rows(TRASH_TABLE, Query.equal("itemId", old.id))).toEqual([]);
    expect(await rows(REVISIONS_TABLE, Query.equal("itemId", old.id))).toEqual([]);
    expect(await fileExists(old.fileId)).toBe(false);
    expect((await rows(TRASH_TABLE, Query.equal("itemId", recent.id))).length).toBe(1);
    expect((await rows(REVISIONS_TABLE, Query.equal("itemId", recent.id))).length).toBe(1);
    expect(await fileExists(recent.fileId)).toBe(true);

    // Two days later, the scheduler's first pass purges the other one.
    const scheduler = startScheduler(stack.backend.services, { onDue: () => {}, now: () => Date.now() + 2 * DAY });
    try {
      await scheduler.ready;
    } finally {
      scheduler.close();
    }
    expect(await rows(TRASH_TABLE, Query.equal("itemId", recent.id))).toEqual([]);
    expect(await fileExists(recent.fileId)).toBe(false);
  });
});

describe("studio setup on a database from before the trash", () => {
  it("adds the trash table, and moving to the trash works there", async () => {
    const { applyContentSchema } = await import("../../lib/appwrite/content-schema.ts");
    const schema = (await import("../../model/appwrite.json", { with: { type: "json" } })).default;
    await tables().deleteTable({ databaseId: DATABASE_ID, tableId: TRASH_TABLE });
    const changes = await applyContentSchema(stack.backend.services, schema as never);
    expect(changes.join("\n")).toContain(TRASH_TABLE);
    const row = await createItemDocument(tables(), {
      kind: "venture",
      data: placeholderDocument("venture", { slug: "after-setup" }),
      permissions: ['update("team:studio")', 'delete("team:studio")'],
      lifecycle: { state: "published", publishAt: null },
    });
    await moveToTrash(tables(), tables(), "venture", [row], { deletedBy: "test" });
    expect((await rows(TRASH_TABLE, Query.equal("itemId", row.$id))).length).toBe(1);
  });
});
