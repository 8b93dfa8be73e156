/**
 * The media library over HTTP (issue #30 item 3): the studio team uploads, lists and searches images; a file that
 * is not an image, an account outside the team and a cross-site post are refused; where-used comes from the
 * bodies and featured images; a used image is not deleted (the message names where it is used); a replaced
 * image is shown everywhere it was used; the public page renders the inline image responsive. The quota is the
 * featured images' (checked through the library module with a small limit). SECURITY rows in docs/security.md.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Query } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSessionServices } from "../../lib/appwrite/client.ts";
import { DATABASE_ID, IMAGES_BUCKET_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { uploadMedia } from "../../server/admin/media-library.ts";
import { updateItem, type PostInput } from "../../server/admin/content.ts";
import { QuotaExceededError } from "../../server/admin/quota.ts";
import { ROOT } from "../helpers/fixtures.ts";
import { markupOf, startSiteStack, Visitor, type SiteStack } from "../helpers/site.ts";

let stack: SiteStack;
let owner: Visitor;
let stranger: Visitor;
const POSTS = CONTENT_MODEL.post.collectionId;
const API = "/admin/media/api";
const image = (name: string) => readFile(path.join(ROOT, "content/images", name));
const secretOf = (v: Visitor) =>
  JSON.parse(Buffer.from(decodeURIComponent(v.cookie.slice(v.cookie.indexOf("=") + 1)), "base64").toString()) as string;

interface Entry {
  id: string;
  url: string;
  name: string;
  width: number;
  height: number;
  alt: Record<string, string>;
  uses: { rowId: string; field: string; title: string }[];
}

async function upload(who: Visitor, bytes: Buffer, name: string, alt: Record<string, string> = {}, extra = {}) {
  const form = new FormData();
  form.set("intent", "upload");
  form.set("file", new Blob([new Uint8Array(bytes)]), name);
  for (const [l, text] of Object.entries(alt)) form.set(`alt.${l}`, text);
  for (const [k, v] of Object.entries(extra)) form.set(k, String(v));
  const reply = await who.request(API, { method: "POST", form, headers: { Accept: "application/json" } });
  return { status: reply.status, body: JSON.parse(reply.text) as { ok: boolean; message: string; image?: Entry } };
}
async function list(who: Visitor, q = "") {
  const reply = await who.request(`${API}?q=${encodeURIComponent(q)}`, { headers: { Accept: "application/json" } });
  return { status: reply.status, images: reply.status === 200 ? (JSON.parse(reply.text).images as Entry[]) : [] };
}
async function post(who: Visitor, fields: Record<string, string>, file?: Buffer) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set("file", new Blob([new Uint8Array(file)]), "new.jpg");
  const reply = await who.request(API, { method: "POST", form, headers: { Accept: "application/json" } });
  return { status: reply.status, body: JSON.parse(reply.text) as { ok: boolean; message: string; image?: Entry } };
}
const fileCount = async () => (await stack.backend.services.storage.listFiles({ bucketId: IMAGES_BUCKET_ID })).total;
async function englishPost() {
  const page = await stack.backend.services.tablesDB.listRows({
    databaseId: DATABASE_ID,
    tableId: POSTS,
    queries: [Query.equal("slug", "join-learn-build-earn"), Query.equal("locale", "en")],
  });
  return page.rows[0]!;
}
const setBody = (rowId: string, content: string) =>
  stack.backend.services.tablesDB.updateRow({ databaseId: DATABASE_ID, tableId: POSTS, rowId, data: { content } });

beforeAll(async () => {
  stack = await startSiteStack();
  owner = new Visitor(stack.site.url);
  expect((await owner.register("owner@example.com")).status).toBe(302); // the first account owns the team
  stranger = new Visitor(stack.site.url);
  expect((await stranger.register("stranger@example.com")).status).toBe(302);
}, 240_000);
afterAll(async () => stack?.close());

describe("the media library (issue #30 item 3)", () => {
  it("lets the team upload, list and search; refuses non-images, strangers and cross-site posts", async () => {
    const before = await fileCount();
    const added = await upload(owner, await image("join-learn-build-earn.jpg"), "Team photo.jpg", {
      en: "The studio team at a whiteboard",
      ar: "فريق الاستوديو أمام السبورة",
    });
    expect(added.status).toBe(200);
    expect(added.body.image).toMatchObject({ name: "Team photo.jpg", width: 1600, height: 900 });
    expect(added.body.image!.alt).toEqual({ en: "The studio team at a whiteboard", ar: "فريق الاستوديو أمام السبورة" });

    // A page of HTML named .png is not an image: refused with the featured image's message, nothing stored.
    const html = await upload(owner, Buffer.from("<html><script>alert(1)</script></html>"), "x.png");
    expect(html.status).toBe(400);
    expect(html.body.message).toContain("Only JPEG, PNG, GIF or WebP images can be uploaded.");
    expect(await fileCount()).toBe(before + 1);

    expect((await list(owner, "whiteboard")).images.map((i) => i.id)).toEqual([added.body.image!.id]);
    expect((await list(owner, "السبورة")).images).toHaveLength(1);
    expect((await list(owner, "no such picture")).images).toEqual([]);
    expect((await list(owner)).images.length).toBeGreaterThan(1); // the featured images pushed from files too

    // Outside the team: no page, no list, no upload (404 as for a page that does not exist).
    expect((await list(stranger)).status).toBe(404);
    expect((await stranger.request("/admin/media")).status).toBe(404);
    expect((await upload(stranger, await image("join-learn-build-earn.jpg"), "s.jpg")).status).toBe(404);
    const crossSite = await owner.request(API, {
      method: "POST",
      form: { intent: "delete", id: added.body.image!.id },
      headers: { Origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(400);
    expect(await fileCount()).toBe(before + 1);
  });

  it("keeps to the user's upload quota", async () => {
    const services = stack.backend.services;
    const me = (await services.users.list({ queries: [Query.equal("email", "owner@example.com")] })).users[0]!;
    const session = createSessionServices(stack.backend.emulator, secretOf(owner));
    const user = { id: me.$id, name: me.name, email: me.email };
    const before = await fileCount();
    await expect(
      uploadMedia(
        services,
        session,
        user,
        { bytes: await image("join-learn-build-earn.jpg"), name: "x.jpg" },
        {
          quota: { files: 1, bytes: 500 * 1024 * 1024 },
        },
      ),
    ).rejects.toBeInstanceOf(QuotaExceededError);
    expect(await fileCount()).toBe(before);
  });

  it("says where an image is used, refuses to delete it then, replaces it everywhere, deletes it once unused", async () => {
    const added = (await upload(owner, await image("ideation-to-exit-the-eight-phases.jpg"), "phases.jpg")).body.image!;
    const other = (await upload(owner, await image("clinic-ledger-logo.png"), "logo.png")).body.image!;
    const row = await englishPost();
    const body = String(row.content);
    await setBody(
      row.$id,
      `${body}<p>Phases:</p><img src="/media/${added.id}" alt="The eight phases" width="1600" height="900">` +
        `<img src="/media/${other.id}" alt="A logo" width="${other.width}" height="${other.height}">`,
    );

    const used = (await list(owner, "phases.jpg")).images[0]!;
    expect(used.uses).toEqual([expect.objectContaining({ rowId: row.$id, field: "body", title: String(row.title) })]);

    const refused = await post(owner, { intent: "delete", id: added.id });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(String(row.title));
    expect((await stack.backend.services.storage.getFile({ bucketId: IMAGES_BUCKET_ID, fileId: added.id })).$id).toBe(
      added.id,
    );

    // The public page: the inline images responsive, the second lazy, no attribute the body did not earn.
    const page = markupOf(await fetch(`${stack.site.url}/en/blog/join-learn-build-earn`).then((r) => r.text()));
    expect(page).toContain(
      `<img src="/media/${added.id}" alt="The eight phases" srcset="/media/${added.id}?w=160 160w, /media/${added.id}?w=320 320w`,
    );
    expect(page).toContain(
      `/media/${added.id} 1600w" sizes="(min-width: 808px) 768px, calc(100vw - 40px)" width="1600" height="900">`,
    );
    expect(page).toMatch(
      new RegExp(
        `src="/media/${other.id}" alt="A logo" srcset="[^"]+" sizes="[^"]+" width="\\d+" height="\\d+" loading="lazy" decoding="async"`,
      ),
    );

    // Replace: a new id, every use rewritten, the old file gone, the page shows the new one.
    const replaced = await post(owner, { intent: "replace", id: added.id }, await image("join-learn-build-earn.jpg"));
    expect(replaced.status).toBe(200);
    const fresh = replaced.body.image!;
    expect(fresh.id).not.toBe(added.id);
    const rewritten = String((await englishPost()).content);
    expect(rewritten).toContain(`/media/${fresh.id}`);
    expect(rewritten).not.toContain(`/media/${added.id}`);
    await expect(
      stack.backend.services.storage.getFile({ bucketId: IMAGES_BUCKET_ID, fileId: added.id }),
    ).rejects.toMatchObject({ code: 404 });
    const shown = await fetch(`${stack.site.url}/en/blog/join-learn-build-earn`).then((r) => r.text());
    expect(shown).toContain(`src="/media/${fresh.id}"`);
    expect(shown).not.toContain(`/media/${added.id}`);

    // Unused again: deleted, file and row.
    await setBody(row.$id, body);
    const deleted = await post(owner, { intent: "delete", id: fresh.id });
    expect(deleted.body).toMatchObject({ ok: true, message: "Image deleted." });
    expect((await list(owner, fresh.id)).images).toEqual([]);
  });

  it("writes a pasted library image's stored size into the body when the item is saved", async () => {
    const added = (await upload(owner, await image("join-learn-build-earn.jpg"), "pasted.jpg")).body.image!;
    const services = stack.backend.services;
    const me = (await services.users.list({ queries: [Query.equal("email", "owner@example.com")] })).users[0]!;
    const session = createSessionServices(stack.backend.emulator, secretOf(owner));
    const row = await englishPost();
    const input = {
      title: String(row.title),
      slug: String(row.slug),
      excerpt: String(row.excerpt),
      authorName: String(row.authorName),
      publishedDate: String(row.publishedDate).slice(0, 10),
      content: `${String(row.content)}<p><img src="/media/${added.id}" alt="Pasted by URL"></p>`,
    } as PostInput;
    await updateItem(
      stack.backend.emulator,
      session,
      { id: me.$id, name: me.name, email: me.email },
      "post",
      row.$id,
      input,
      null,
    );
    expect(String((await englishPost()).content)).toContain(
      `<img src="/media/${added.id}" alt="Pasted by URL" width="1600" height="900">`,
    );
  });
});
