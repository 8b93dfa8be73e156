/**
 * The studio team (issue #28), from outside over HTTP: an owner (the first account), an invited editor and a
 * self-registered stranger. The four observations of the issue: the owner corrects content pushed from files;
 * a stranger reads no one else's draft (page, admin, `.data`, direct Appwrite call, preview link); a row written
 * around the product with another item's slug is not its version; an anonymous Appwrite session is not a
 * sign-in. SECURITY rows C37–C39 (extended by decision 0017), C76–C79 (docs/security.md).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { ID, Permission, Query, Role } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSessionServices } from "../../lib/appwrite/client.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { ROOT } from "../helpers/fixtures.ts";
import { markupOf, startSiteStack, Visitor, type SiteStack } from "../helpers/site.ts";

let stack: SiteStack;
let owner: Visitor;
let stranger: Visitor;
let editor: Visitor;
const VENTURES = CONTENT_MODEL.venture.collectionId;

const target = () => ({ endpoint: stack.backend.emulator.endpoint, projectId: stack.backend.emulator.projectId });
/** The Appwrite session secret in a visitor's cookie (React Router's cookie: base64 of its JSON value). */
const secretOf = (v: Visitor) =>
  JSON.parse(Buffer.from(decodeURIComponent(v.cookie.slice(v.cookie.indexOf("=") + 1)), "base64").toString()) as string;

async function ventureForm(fields: Record<string, string>, logo = false): Promise<FormData> {
  const form = new FormData();
  // Issue #29: only an explicit publish makes a save public.
  for (const [k, v] of Object.entries({ intent: "publish", ...fields })) form.set(k, v);
  if (logo)
    form.set("logo", new Blob([await readFile(path.join(ROOT, "content/images/clinic-ledger-logo.png"))]), "logo.png");
  return form;
}
const fields = (slug: string, name = `Venture ${slug}`) => ({
  name,
  slug,
  websiteURL: "https://example.com",
  shortDescription: "Short.",
  caseStudy: "<h2>The Problem</h2><p>Text.</p>",
});
async function row(slug: string, locale = "en") {
  const page = await stack.backend.services.tablesDB.listRows({
    databaseId: DATABASE_ID,
    tableId: VENTURES,
    queries: [Query.equal("slug", slug), Query.equal("locale", locale)],
  });
  return page.rows[0];
}
async function pushedVenture() {
  const page = await stack.backend.services.tablesDB.listRows({
    databaseId: DATABASE_ID,
    tableId: VENTURES,
    queries: [Query.isNull("userId"), Query.equal("locale", "en"), Query.limit(1)],
  });
  return page.rows[0]!;
}

beforeAll(async () => {
  stack = await startSiteStack();
  owner = new Visitor(stack.site.url);
  expect((await owner.register("owner@example.com")).status).toBe(302);
  stranger = new Visitor(stack.site.url);
  expect((await stranger.register("stranger@example.com")).status).toBe(302);
  // The owner invites an editor from the Team page; without mail the page shows the link to copy.
  const invite = await owner.request("/admin/team", {
    method: "POST",
    form: { intent: "invite", email: "editor@example.com", role: "editor" },
  });
  expect(invite.status).toBe(200);
  const link = /value="(http[^"]+\/en\/join\?[^"]+)"/.exec(invite.text)?.[1]?.replaceAll("&amp;", "&");
  expect(link).toBeTruthy();
  editor = new Visitor(stack.site.url);
  const join = new URL(link!);
  expect((await editor.request(join.pathname + join.search)).text).toContain("Choose your name and a password");
  const joined = await editor.request(join.pathname + join.search, {
    method: "POST",
    form: { name: "Edie", password: "correct horse battery" },
  });
  expect(joined.status).toBe(302);
  expect(joined.location).toBe("/admin");
}, 240_000);
afterAll(async () => stack?.close());

describe("the studio team (issue #28 item 1)", () => {
  it("lets the owner and an invited editor correct a venture pushed from files; the stranger sees it read-only", async () => {
    const pushed = await pushedVenture();
    const slug = String(pushed.slug);
    for (const [who, name] of [
      [owner, "Corrected by the owner"],
      [editor, "Corrected by the editor"],
    ] as const) {
      const form = await owner.request(`/admin/ventures/edit/${pushed.$id}`);
      expect(markupOf(form.text)).not.toContain("Only the studio team can edit content published from files.");
      const save = await who.request(`/admin/ventures/edit/${pushed.$id}`, {
        method: "POST",
        form: await ventureForm({ ...fields(slug, name), websiteURL: String(pushed.websiteURL) }),
      });
      expect(save.status).toBe(302);
      expect((await row(slug))!.name).toBe(name);
    }
    // The stranger is told before typing, in English and Arabic, and is offered no save.
    const shown = await stranger.request(`/admin/ventures/edit/${pushed.$id}`, {
      headers: { Cookie: `${stranger.cookie}; locale=en` },
    });
    expect(markupOf(shown.text)).toContain("Only the studio team can edit content published from files.");
    // Read-only before any typing: the fields are in a disabled fieldset, and no save, publish or unpublish button.
    expect(shown.text).toMatch(/<fieldset disabled=""/);
    expect(shown.text).not.toContain('name="intent"');
    // The stranger's list holds only their own items (issue #28 item 3): no Edit or Delete is offered for it.
    const list = await stranger.request("/admin/ventures", { headers: { Cookie: `${stranger.cookie}; locale=en` } });
    expect(markupOf(list.text)).not.toContain(`/admin/ventures/edit/${pushed.$id}`);
    const ar = await stranger.request(`/admin/ventures/edit/${pushed.$id}`, {
      headers: { Cookie: `${stranger.cookie}; locale=ar` },
    });
    expect(markupOf(ar.text)).toContain("لا يستطيع تعديل المحتوى المنشور من الملفات إلا فريق الاستوديو.");
    const refused = await stranger.request(`/admin/ventures/edit/${pushed.$id}`, {
      method: "POST",
      form: await ventureForm(fields(slug, "Taken over")),
    });
    expect(refused.status).toBe(401);
    expect((await row(slug))!.name).toBe("Corrected by the editor");
  });

  it("shows the Team page to the owner only", async () => {
    const page = await owner.request("/admin/team", { headers: { Cookie: `${owner.cookie}; locale=en` } });
    expect(page.text).toContain("editor@example.com");
    expect(page.text).toContain("Editor");
    expect((await editor.request("/admin/team")).status).toBe(404);
    expect((await stranger.request("/admin/team")).status).toBe(404);
  });

  it("never removes or demotes the last owner", async () => {
    const team = await owner.request("/admin/team");
    const membershipId = /name="membershipId" value="([^"]+)"/.exec(
      team.text.slice(team.text.indexOf('data-member="owner@example.com"')),
    )?.[1];
    const demote = await owner.request("/admin/team", {
      method: "POST",
      form: { intent: "role", role: "editor", membershipId: membershipId! },
    });
    expect(demote.status).toBe(409);
    const remove = await owner.request("/admin/team", {
      method: "POST",
      form: { intent: "remove", membershipId: membershipId! },
    });
    expect(remove.status).toBe(409);
    expect((await owner.request("/admin/team")).status).toBe(200);
  });
});

describe("everyone else sees only their own (issue #28 items 3, 4)", () => {
  let draftId: string;
  beforeAll(async () => {
    const save = await owner.request("/admin/ventures/new", {
      method: "POST",
      form: await ventureForm({ ...fields("owners-secret-draft"), intent: "save" }, true),
    });
    expect(save.status).toBe(302);
    draftId = (await row("owners-secret-draft"))!.$id;
  });

  it("keeps the owner's draft from the stranger on every route, .data request and direct Appwrite call", async () => {
    expect((await stranger.request("/en/ventures/owners-secret-draft")).status).toBe(404);
    expect((await stranger.request("/admin/ventures")).text).not.toContain("owners-secret-draft");
    expect((await stranger.request("/admin/ventures.data")).text).not.toContain("owners-secret-draft");
    expect((await stranger.request(`/admin/ventures/edit/${draftId}`)).status).toBe(404);
    expect((await stranger.request(`/admin/ventures/edit/${draftId}.data`)).text).not.toContain(
      "Venture owners-secret-draft",
    );
    const direct = createSessionServices(target(), secretOf(stranger));
    await expect(
      direct.tablesDB.getRow({ databaseId: DATABASE_ID, tableId: VENTURES, rowId: draftId }),
    ).rejects.toMatchObject({ code: 404 });
    const listed = await direct.tablesDB.listRows({
      databaseId: DATABASE_ID,
      tableId: VENTURES,
      queries: [Query.equal("status", "draft")],
    });
    expect(listed.rows.map((r) => r.slug)).not.toContain("owners-secret-draft");
    // The editor reads it (the team reads every draft).
    expect((await editor.request("/en/ventures/owners-secret-draft")).status).toBe(200);
  });

  it("counts on the stranger's dashboard only what the stranger may see", async () => {
    const before = await stranger.request("/admin.data");
    expect(before.text).not.toMatch(/"drafts",[1-9]/);
  });

  it("signs preview links only for an editor, bound to the document; revoking ends them", async () => {
    const refused = await stranger.request("/admin/preview-link", {
      method: "POST",
      form: { kind: "venture", id: draftId },
    });
    expect(refused.status).toBe(404);
    const shared = await editor.request("/admin/preview-link", {
      method: "POST",
      form: { kind: "venture", id: draftId },
    });
    const { url } = JSON.parse(shared.text) as { url: string };
    const guest = new Visitor(stack.site.url);
    const link = new URL(url);
    expect((await guest.request(link.pathname + link.search)).text).toContain("Venture owners-secret-draft");
    // Bound to this document: another slug with the same token is refused.
    expect((await guest.request(`/en/ventures/other-slug${link.search}`)).status).not.toBe(200);
    // Revoked by an editor: the link stops working.
    await owner.request("/admin/preview-link", {
      method: "POST",
      form: { kind: "venture", id: draftId, intent: "revoke" },
    });
    expect((await guest.request(link.pathname + link.search)).status).not.toBe(200);
  });
});

describe("versions belong to their item (issue #28 item 5)", () => {
  it("never shows a stranger's row with the owner's slug as its other version or alternate", async () => {
    const save = await owner.request("/admin/ventures/new", {
      method: "POST",
      form: await ventureForm(fields("owners-item"), true),
    });
    expect(save.status).toBe(302);
    const direct = createSessionServices(target(), secretOf(stranger));
    const me = await direct.account.get();
    await direct.tablesDB.createRow({
      databaseId: DATABASE_ID,
      tableId: VENTURES,
      rowId: ID.unique(),
      data: { ...fields("owners-item", "نص الغريب"), locale: "ar", userId: me.$id, status: "published" },
      permissions: [Permission.read(Role.any()), Permission.update(Role.user(me.$id))],
    });
    const ar = await new Visitor(stack.site.url).request("/ar/ventures/owners-item");
    expect(ar.text).not.toContain("نص الغريب");
    const en = await new Visitor(stack.site.url).request("/en/ventures/owners-item");
    expect(en.text).not.toMatch(/hreflang="ar"[^>]*owners-item|owners-item[^>]*hreflang="ar"/);
    // The owner's save of the item is not half-written by the stranger's row.
    const id = (await row("owners-item"))!.$id;
    const edit = await owner.request(`/admin/ventures/edit/${id}`, {
      method: "POST",
      form: await ventureForm({
        ...fields("owners-item", "Renamed"),
        otherLocale: "ar",
        "ar.name": "اسم",
        "ar.shortDescription": "قصير",
        "ar.caseStudy": "<p>نص</p>",
      }),
    });
    expect(edit.status).not.toBe(302);
    expect((await row("owners-item"))!.name).toBe("Venture owners-item");
  });
});

describe("sessions (issue #28 item 6)", () => {
  it("never takes an anonymous Appwrite session for a signed-in editor", async () => {
    // Its secret (given to the key, as a site signing in would get it), wrapped as the site's own cookie.
    const response = await fetch(`${stack.backend.emulator.endpoint}/account/sessions/anonymous`, {
      method: "POST",
      headers: {
        "X-Appwrite-Project": stack.backend.emulator.projectId,
        "X-Appwrite-Key": stack.backend.emulator.apiKey,
        "Content-Type": "application/json",
      },
      body: "{}",
    });
    expect(response.status).toBe(201);
    const { secret } = (await response.json()) as { secret: string };
    expect(secret).toBeTruthy();
    const anonymous = new Visitor(stack.site.url);
    anonymous.cookie = `studio_session=${encodeURIComponent(Buffer.from(JSON.stringify(secret)).toString("base64"))}`;
    const admin = await anonymous.request("/admin");
    expect(admin.status).toBe(302);
    expect(admin.location).toMatch(/\/login/);
  });
});
