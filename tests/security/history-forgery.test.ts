/**
 * SECURITY C69 (issue #26 item 7; ASVS v5 8.2.2, 1.2.1): the history of an item is written by the site only.
 * Over real HTTP, with the official node-appwrite SDK against the embedded server and the site's production
 * build: a signed-in user's own client cannot create a revision row; a row whose permissions are not the
 * item's revisions' (written with the key, as an older version let users write them) is not listed, not
 * restored and not counted by the prune; a restore checks and sanitizes the revision's fields as a save does,
 * and says why it refused in the admin's language.
 */
import { AppwriteException, ID, Permission, Query, Role, TablesDB, Users } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSessionServices } from "../../lib/appwrite/client.ts";
import { applySchema, type AppwriteSchema } from "../../lib/appwrite/setup.ts";
import {
  REVISIONS_TABLE,
  RevisionInvalidError,
  RevisionMismatchError,
  RevisionStore,
} from "../../lib/publish/history.ts";
import { restoreRevision } from "../../lib/publish/writer.ts";
import { createItem, ownerPermissions, updateItem, type VentureInput } from "../../server/admin/content.ts";
import { register, type NewSession } from "../../server/auth/account.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { REVISIONS_KEPT, CONTENT_MODEL } from "../../model/model.ts";
import schema from "../../model/appwrite.json" with { type: "json" };
import { startSiteStack, Visitor, type SiteStack } from "../helpers/site.ts";

let stack: SiteStack;
let ada: NewSession;
let bob: NewSession;
beforeAll(async () => {
  stack = await startSiteStack();
  const signUp = (name: string) =>
    register(
      stack.backend.services,
      { name, email: `${name}-history@example.com`, password: "correct horse battery staple" },
      { openRegistration: true },
    );
  ada = await signUp("ada");
  bob = await signUp("bob");
});
afterAll(async () => stack?.close());

const services = () => stack.backend.services;
const session = (who: NewSession) => createSessionServices(stack.backend.emulator, who.secret);
const venture = (name: string, slug: string): VentureInput => ({
  name,
  slug,
  websiteURL: "https://history.example",
  shortDescription: `About ${name}.`,
  caseStudy: `<p>Case study of ${name}.</p>`,
});
const ventureRow = (id: string) =>
  services().tablesDB.getRow({ databaseId: DATABASE_ID, tableId: CONTENT_MODEL.venture.collectionId, rowId: id });
/** Every revision row naming `itemId`, read with the API key (what is stored, whoever may read it). */
async function storedRows(itemId: string) {
  return new TablesDB(services().client).listRows({
    databaseId: DATABASE_ID,
    tableId: REVISIONS_TABLE,
    queries: [Query.equal("itemId", itemId), Query.limit(100)],
  });
}
/** A row written with the key, as users could write them before (a false "saved by", a date in 2099). */
function forgeRow(itemId: string, permissions: string[], data: Record<string, unknown> = { name: "Forged" }) {
  return new TablesDB(services().client).createRow({
    databaseId: DATABASE_ID,
    tableId: REVISIONS_TABLE,
    rowId: ID.unique(),
    data: {
      kind: "venture",
      itemId,
      savedAt: "2099-01-01T00:00:00.000+00:00",
      savedBy: "the owner",
      data: JSON.stringify({ ...venture("Forged", "forged-slug"), ...data }),
    },
    permissions,
  });
}

describe("revision rows are written by the site only (C69)", () => {
  it("refuses a signed-in user's own createRow in the revisions table, for another's item and their own", async () => {
    const item = await createItem(
      stack.backend.emulator,
      session(ada),
      ada.user,
      "venture",
      venture("Ada's", "c69-own"),
      null,
    );
    for (const who of [bob, ada]) {
      const refused = await session(who)
        .tablesDB.createRow({
          databaseId: DATABASE_ID,
          tableId: REVISIONS_TABLE,
          rowId: ID.unique(),
          data: {
            kind: "venture",
            itemId: item.$id,
            savedAt: "2099-01-01T00:00:00.000+00:00",
            savedBy: "ada",
            data: JSON.stringify({ name: "Not what Ada wrote" }),
          },
          permissions: [Permission.read(Role.users())],
        })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AppwriteException);
      expect((refused as AppwriteException).code).toBe(401);
    }
    expect((await storedRows(item.$id)).total).toBe(0);
  });

  it("given an installation whose revisions table still lets users create rows, setup removes it once", async () => {
    const { tablesDB } = services();
    const table = await tablesDB.getTable({ databaseId: DATABASE_ID, tableId: REVISIONS_TABLE });
    await tablesDB.updateTable({
      databaseId: DATABASE_ID,
      tableId: REVISIONS_TABLE,
      name: table.name,
      permissions: [Permission.create(Role.users())],
      rowSecurity: table.rowSecurity,
      enabled: table.enabled,
    });
    expect(await applySchema(services(), schema as AppwriteSchema)).toEqual([`updated collection ${REVISIONS_TABLE}`]);
    expect(await applySchema(services(), schema as AppwriteSchema)).toEqual([]);
    const migrated = await tablesDB.getTable({ databaseId: DATABASE_ID, tableId: REVISIONS_TABLE });
    expect(migrated.$permissions).toEqual([]);
    expect(migrated.rowSecurity).toBe(true);
  });
});

describe("rows that are not the item's revisions (C69)", () => {
  it("are neither listed, restored nor counted by the prune: 20 forged rows leave the real history whole", async () => {
    const { emulator } = stack.backend;
    const created = await createItem(emulator, session(ada), ada.user, "venture", venture("One", "c69-prune"), null);
    await updateItem(emulator, session(ada), ada.user, "venture", created.$id, venture("Two", "c69-prune"), null);
    await updateItem(emulator, session(ada), ada.user, "venture", created.$id, venture("Three", "c69-prune"), null);
    // As users could write them: readable by every signed-in user, or by the forger only; as an older site
    // version could: the right roles but for read only.
    const forged = [];
    for (let i = 0; i < REVISIONS_KEPT; i += 1) {
      const permissions =
        i % 3 === 0
          ? [Permission.read(Role.users()), Permission.update(Role.users()), Permission.delete(Role.users())]
          : i % 3 === 1
            ? [Permission.read(Role.user(bob.user.id)), Permission.delete(Role.user(bob.user.id))]
            : [Permission.read(Role.user(ada.user.id))];
      forged.push(await forgeRow(created.$id, permissions));
    }

    const item = await ventureRow(created.$id);
    const asAda = await new RevisionStore(session(ada).client).list(item);
    expect(asAda.map((r) => r.fields.name)).toEqual(["Two", "One"]);
    expect(asAda.map((r) => r.savedBy)).toEqual(["ada", "ada"]);
    const asKey = await new RevisionStore(services().client).list(item);
    expect(asKey.map((r) => r.fields.name)).toEqual(["Two", "One"]);

    // Ada's next save prunes with the key: before, the 20 forged rows (dated 2099) were the newest 20 and
    // every real revision was deleted.
    await updateItem(emulator, session(ada), ada.user, "venture", created.$id, venture("Four", "c69-prune"), null);
    const after = await new RevisionStore(session(ada).client).list(await ventureRow(created.$id));
    expect(after.map((r) => r.fields.name)).toEqual(["Three", "Two", "One"]);
    expect((await storedRows(created.$id)).total).toBe(3 + REVISIONS_KEPT); // forged rows not deleted either

    // A forged row Ada can read is no version of her item: restoring it is refused, the item unchanged.
    const readable = forged[0]!;
    const refused = await restoreRevision(
      session(ada).tablesDB,
      "venture",
      created.$id,
      readable.$id,
      "ada",
      services().client,
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RevisionMismatchError);
    expect((await ventureRow(created.$id)).name).toBe("Four");
  });
});

describe("a restore checks and sanitizes as a save (C69)", () => {
  /** A venture of `who` whose revision (kept with the site's own code) holds `fields`; the item as it is now. */
  async function itemWithRevision(userId: string, slug: string, fields: Record<string, unknown>) {
    const row = await services().tablesDB.createRow({
      databaseId: DATABASE_ID,
      tableId: CONTENT_MODEL.venture.collectionId,
      rowId: ID.unique(),
      data: { ...venture("Then", slug), locale: "en", userId, ...fields },
      permissions: ownerPermissions(userId),
    });
    const revisionId = await new RevisionStore(services().client).record("venture", row);
    const now = await services().tablesDB.updateRow({
      databaseId: DATABASE_ID,
      tableId: CONTENT_MODEL.venture.collectionId,
      rowId: row.$id,
      data: venture("Now", slug),
    });
    return { now, revisionId };
  }

  it("refuses a revision whose slug a save refuses, and writes nothing", async () => {
    const { now, revisionId } = await itemWithRevision(ada.user.id, "c69-bad-slug", { slug: "../../Etc Passwd" });
    const refused = await restoreRevision(
      session(ada).tablesDB,
      "venture",
      now.$id,
      revisionId,
      "ada",
      services().client,
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RevisionInvalidError);
    expect((refused as Error).message).toContain("slug");
    const after = await ventureRow(now.$id);
    expect(after).toMatchObject({ slug: "c69-bad-slug", name: "Now" });
    expect(after.$updatedAt).toBe(now.$updatedAt);
    expect((await storedRows(now.$id)).total).toBe(1); // no new revision either
  });

  it("sanitizes a revision's HTML: no script or handler reaches the item", async () => {
    const { now, revisionId } = await itemWithRevision(ada.user.id, "c69-script", {
      caseStudy:
        '<p onclick="alert(1)">Kept words.</p><script>alert(document.cookie)</script><img src=x onerror=alert(2)>',
    });
    const restored = await restoreRevision(
      session(ada).tablesDB,
      "venture",
      now.$id,
      revisionId,
      "ada",
      services().client,
    );
    const stored = String((await ventureRow(now.$id)).caseStudy);
    expect(restored.name).toBe("Then");
    expect(stored).toContain("Kept words.");
    expect(stored).not.toMatch(/<script|onclick|onerror|alert/i);
  });

  it("refuses through the admin with the reason in the admin's language (English and Arabic)", async () => {
    const cy = new Visitor(stack.site.url);
    expect((await cy.register("cy-history@example.com")).status).toBe(302);
    const [user] = (
      await new Users(services().client).list({ queries: [Query.equal("email", "cy-history@example.com")] })
    ).users;
    const { now, revisionId } = await itemWithRevision(user!.$id, "c69-admin", { slug: "Not A Slug" });
    const form = { kind: "venture", id: now.$id, revisionId };
    const reasons: Record<string, string> = {};
    for (const language of ["en", "ar"]) {
      const reply = await cy.request("/admin/history", {
        method: "POST",
        form,
        headers: { "Accept-Language": language },
      });
      expect(reply.status).toBe(302);
      const location = new URL(reply.location!, stack.site.url);
      expect(location.pathname).toBe(`/admin/ventures/edit/${now.$id}`);
      reasons[language] = location.searchParams.get("restoreFailed") ?? "";
    }
    expect(reasons.en).toContain("must be lowercase letters, digits and single hyphens");
    expect(reasons.ar).toContain("يجب أن يتكوّن");
    expect(await ventureRow(now.$id)).toMatchObject({ slug: "c69-admin", name: "Now" });

    // A forged row readable by the user is refused as no version of the item, in either language.
    const forged = await forgeRow(now.$id, [Permission.read(Role.users())]);
    const reply = await cy.request("/admin/history", {
      method: "POST",
      form: { ...form, revisionId: forged.$id },
      headers: { "Accept-Language": "ar" },
    });
    expect(new URL(reply.location!, stack.site.url).searchParams.get("restoreFailed")).toContain(
      "ليست نسخة من هذا العنصر",
    );
    expect(await ventureRow(now.$id)).toMatchObject({ name: "Now" });
  });
});
