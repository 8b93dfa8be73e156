/**
 * Issue #29 item 3 over real HTTP: a save stays in the editor (it lands on the item's edit page); autosave
 * (`/admin/autosave`, the edit form's action with `intent=autosave`) writes a draft and nothing guests see,
 * creates a new item as a draft, never touches a published item, and refuses to overwrite someone else's
 * newer save, saying who and when. And the new item forms' AI boxes, off without a Gemini key.
 */
import { ID, Query } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { formatDate } from "../../lib/text/dates.ts";
import { markupOf, startSiteStack, Visitor, type SiteStack } from "../helpers/site.ts";

let stack: SiteStack;
let ada: Visitor;
let bob: Visitor;
const POSTS = CONTENT_MODEL.post.collectionId;

async function post(slug: string) {
  const page = await stack.backend.services.databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId: POSTS,
    queries: [Query.equal("slug", slug), Query.equal("locale", "en")],
  });
  return page.documents[0];
}

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};
const fields = (slug: string, excerpt = "From the admin.") => ({
  title: `Autosaved ${slug}`,
  slug,
  excerpt,
  authorName: "Ada",
  publishedDate: "2026-03-01",
  content: "<h2>Hi</h2><p>Text.</p>",
  locale: "en",
});
const autosave = (who: Visitor, id: string | null, values: Record<string, string>) =>
  who.request(`/admin/autosave?kind=post${id ? `&id=${id}` : ""}`, {
    method: "POST",
    form: form({ ...values, intent: "autosave" }),
  });

beforeAll(async () => {
  stack = await startSiteStack();
  for (const name of ["Ada", "Bob"]) {
    await stack.backend.services.users.create({
      userId: ID.unique(),
      email: `${name.toLowerCase()}@example.com`,
      password: "correct horse battery",
      name,
    });
  }
  // Ada signs in first: the studio team's owner (model/team.ts).
  ada = new Visitor(stack.site.url);
  expect((await ada.login("ada@example.com")).status).toBe(302);
  bob = new Visitor(stack.site.url);
  expect((await bob.login("bob@example.com")).status).toBe(302);
});
afterAll(async () => {
  await stack?.close();
});

describe("saving stays in the editor", () => {
  it("lands a new item on its own edit page, and a save of it on the same page", async () => {
    const created = await ada.request("/admin/blog/new", {
      method: "POST",
      form: form({ ...fields("stays-here"), intent: "draft" }),
    });
    const id = (await post("stays-here"))!.$id;
    expect(created.status).toBe(302);
    expect(created.location).toBe(`/admin/blog/edit/${id}`);
    const saved = await ada.request(`/admin/blog/edit/${id}`, {
      method: "POST",
      form: form({ ...fields("stays-here", "Changed."), intent: "draft" }),
    });
    expect(saved.location).toBe(`/admin/blog/edit/${id}`);
    expect(await post("stays-here")).toMatchObject({ excerpt: "Changed.", status: "draft" });
  });

  it("shows the save's message on the edit page it lands on, once, as a form posted without JavaScript does", async () => {
    await ada.request("/admin/blog/new", {
      method: "POST",
      form: form({ ...fields("plain-form"), intent: "publish" }),
    });
    const id = (await post("plain-form"))!.$id;
    // "Update", a published item's save: the answer redirects to the same edit page with the flash cookie.
    const saved = await ada.request(`/admin/blog/edit/${id}`, {
      method: "POST",
      form: form({ ...fields("plain-form", "Saved without JavaScript."), intent: "save" }),
    });
    expect(saved.status).toBe(302);
    expect(saved.location).toBe(`/admin/blog/edit/${id}`);
    const flash = saved.headers
      .getSetCookie()
      .find((line) => /^(__Host-)?admin_flash=[^;]/.test(line))!
      .split(";")[0]!;
    const region = (html: string) =>
      /<[^>]*role="status"[^>]*aria-live="polite"[^>]*>([\s\S]*?)<\/div>/
        .exec(markupOf(html))?.[1]
        ?.replace(/<[^>]+>|[\u2068\u2069]/g, "") ?? "";
    const shown = await ada.request(saved.location!, { headers: { Cookie: `${ada.cookie}; ${flash}; locale=en` } });
    expect(region(shown.text)).toBe("Saved “Autosaved plain-form”.");
    // Read once: the answer clears the cookie, and the next load (a reload) shows no message.
    expect(shown.headers.getSetCookie().some((line) => /admin_flash=;|admin_flash=[^;]*;.*Max-Age=0/.test(line))).toBe(
      true,
    );
    const reloaded = await ada.request(saved.location!, { headers: { Cookie: `${ada.cookie}; locale=en` } });
    expect(region(reloaded.text)).toBe("");
  });
});

describe("the AI assistant boxes without a Gemini key (issue #17 item 4)", () => {
  it("are rendered with their controls disabled and a sentence an editor understands, read out with them", async () => {
    expect(process.env.GEMINI_API_KEY).toBeUndefined();
    for (const path of ["/admin/ventures/new", "/admin/blog/new"]) {
      const html = markupOf((await ada.request(path, { headers: { Cookie: `${ada.cookie}; locale=en` } })).text);
      const box = /<section aria-labelledby="ai-[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
      expect(box, path).toContain("AI drafting isn&#x27;t set up on this site yet.");
      expect(html, path).not.toContain("GEMINI_API_KEY");
      const generate = [...html.matchAll(/<button[^>]*>[^<]*Generate[^<]*<\/button>/g)].map((m) => m[0]);
      expect(generate.length, path).toBeGreaterThan(0);
      for (const button of generate) {
        expect(button, path).toMatch(/ disabled=""/);
        expect(button, path).toMatch(/aria-describedby="ai-off-/);
      }
      expect(box, path).toMatch(/<input[^>]*id="ai-topic-[^>]* disabled=""/);
    }
  });
});

describe("autosave", () => {
  it("writes a draft as a draft, guests still see nothing, and answers with the new version", async () => {
    await ada.request("/admin/blog/new", { method: "POST", form: form({ ...fields("auto-draft"), intent: "draft" }) });
    const opened = (await post("auto-draft"))!;
    const reply = await autosave(ada, opened.$id, {
      ...fields("auto-draft", "Typed a moment ago."),
      version: opened.$updatedAt,
    });
    expect(reply.status).toBe(200);
    const answer = JSON.parse(reply.text) as { autosaved: { id: string; version: string; at: string } };
    const now = (await post("auto-draft"))!;
    expect(now).toMatchObject({ excerpt: "Typed a moment ago.", status: "draft" });
    expect(answer.autosaved).toMatchObject({ id: opened.$id, version: now.$updatedAt });
    expect((await new Visitor(stack.site.url).request("/en/blog/auto-draft")).status).toBe(404);
  });

  it("refuses to overwrite someone else's newer save, naming them, and writes nothing", async () => {
    await ada.request("/admin/blog/new", { method: "POST", form: form({ ...fields("contested"), intent: "draft" }) });
    const opened = (await post("contested"))!;
    // Bob may edit it too, as a team member would.
    await stack.backend.services.databases.updateDocument({
      databaseId: DATABASE_ID,
      collectionId: POSTS,
      documentId: opened.$id,
      permissions: [...opened.$permissions, 'update("users")', 'read("users")'],
    });
    const version = (await post("contested"))!.$updatedAt;
    const bobs = await bob.request(`/admin/blog/edit/${opened.$id}`, {
      method: "POST",
      form: form({ ...fields("contested", "Bob's words."), intent: "draft", version }),
    });
    expect(bobs.status).toBe(302);
    const reply = await autosave(ada, opened.$id, { ...fields("contested", "Ada's words."), version });
    expect(reply.status).toBe(409);
    const answer = JSON.parse(reply.text) as { formError: string; conflict: { version: string } };
    const theirs = (await post("contested"))!;
    expect(answer.formError).toContain(`changed by Bob at ${formatDate(theirs.$updatedAt, "moment", "en")} since`);
    expect(answer.conflict.version).toBe(theirs.$updatedAt);
    expect(theirs.excerpt).toBe("Bob's words.");
  });

  it("never autosaves a published item: 409, and what guests see is unchanged", async () => {
    await ada.request("/admin/blog/new", { method: "POST", form: form({ ...fields("live-one"), intent: "publish" }) });
    const live = (await post("live-one"))!;
    expect(live.status).toBe("published");
    const reply = await autosave(ada, live.$id, { ...fields("live-one", "Half-typed."), version: live.$updatedAt });
    expect(reply.status).toBe(409);
    expect(JSON.parse(reply.text)).toMatchObject({ notDraft: true });
    expect(await post("live-one")).toMatchObject({ excerpt: "From the admin.", status: "published" });
    expect((await new Visitor(stack.site.url).request("/en/blog/live-one")).status).toBe(200);
  });

  it("creates a new item as a draft, and refuses another intent or a stranger's session", async () => {
    const reply = await autosave(ada, null, fields("first-autosave"));
    expect(reply.status).toBe(200);
    const created = (await post("first-autosave"))!;
    expect(JSON.parse(reply.text)).toMatchObject({ autosaved: { id: created.$id } });
    expect(created.status).toBe("draft");
    const publish = await ada.request(`/admin/autosave?kind=post&id=${created.$id}`, {
      method: "POST",
      form: form({ ...fields("first-autosave"), intent: "publish" }),
    });
    expect(publish.status).toBe(400);
    expect((await post("first-autosave"))!.status).toBe("draft");
    // Bob may not change Ada's item: nothing is written.
    const stranger = await autosave(bob, created.$id, { ...fields("first-autosave", "Bob was here.") });
    expect(stranger.status).toBeGreaterThanOrEqual(400);
    expect((await post("first-autosave"))!.excerpt).toBe("From the admin.");
  });
});
