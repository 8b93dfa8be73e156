/**
 * Issue #16 item 4 over real HTTP against the emulator: every save of a venture or post keeps the version it
 * replaces in the `revisions` table (admin saves as the signed-in user, `studio push` with the API key), the
 * last 20 per item; a revision restores (and the restore is itself a new revision); revisions carry the
 * item's editors' permissions, so a guest or another user cannot read them.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { AppwriteException, Query, TablesDB } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGuestServices, createSessionServices } from "../../lib/appwrite/client.ts";
import { REVISIONS_TABLE, RevisionStore } from "../../lib/publish/history.ts";
import { push } from "../../lib/publish/push.ts";
import { restoreRevision } from "../../lib/publish/writer.ts";
import { createItem, updateItem, type VentureInput } from "../../server/admin/content.ts";
import { register, type NewSession } from "../../server/auth/account.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { REVISIONS_KEPT, CONTENT_MODEL } from "../../model/model.ts";
import { copyFixtureContent, startBackend, type Backend } from "../helpers/stack.ts";

let backend: Backend;
let ada: NewSession;
let bob: NewSession;
beforeAll(async () => {
  backend = await startBackend();
  const signUp = (name: string) =>
    register(
      backend.services,
      { name, email: `${name}@example.com`, password: "correct horse battery staple" },
      { openRegistration: true },
    );
  ada = await signUp("ada");
  bob = await signUp("bob");
});
afterAll(async () => backend?.close());

const venture = (name: string, slug = "history-venture"): VentureInput => ({
  name,
  slug,
  websiteURL: "https://history.example",
  shortDescription: `About ${name}.`,
  caseStudy: `<p>Case study of ${name}.</p>`,
});
const session = (who: NewSession) => createSessionServices(backend.emulator, who.secret);
/** Venture `id` as stored (its id and permissions: what the history compares revisions with). */
const ventureRow = (id: string) =>
  backend.services.tablesDB.getRow({ databaseId: DATABASE_ID, tableId: CONTENT_MODEL.venture.collectionId, rowId: id });
/** The client that writes revisions: the API key's (SECURITY C69). */
const key = () => backend.services.client;
/** Every revision row of `itemId`, read with the API key (what is stored, whoever may read it). */
async function storedRows(itemId: string) {
  return new TablesDB(backend.services.client).listRows({
    databaseId: DATABASE_ID,
    tableId: REVISIONS_TABLE,
    queries: [Query.equal("itemId", itemId), Query.limit(100)],
  });
}

describe("history of an item saved in the admin", () => {
  let itemId: string;

  it("keeps the replaced version at each save, listed newest first with time and who saved", async () => {
    const created = await createItem(backend.emulator, session(ada), ada.user, "venture", venture("First"), null);
    itemId = created.$id;
    const store = new RevisionStore(session(ada).client);
    expect(await store.list(await ventureRow(itemId))).toEqual([]); // creating replaces nothing

    await updateItem(backend.emulator, session(ada), ada.user, "venture", itemId, venture("Second"), null);
    await updateItem(backend.emulator, session(ada), ada.user, "venture", itemId, venture("Third"), null);
    const revisions = await store.list(await ventureRow(itemId));
    expect(revisions.map((r) => r.fields.name)).toEqual(["Second", "First"]);
    expect(revisions[0]).toMatchObject({ kind: "venture", itemId, savedBy: "ada" });
    expect(revisions[1]!.savedAt).toBe(created.$updatedAt);
    expect(revisions[1]!.fields.caseStudy).toContain("Case study of First.");
  });

  it("gives a revision the item's editors' permissions: a guest and another user cannot read it", async () => {
    const [revision] = await new RevisionStore(session(ada).client).list(await ventureRow(itemId));
    const rows = await storedRows(itemId);
    for (const row of rows.rows) {
      // The item's editors: its creator and the studio team (decision 0017).
      expect(row.$permissions).toEqual([
        `read("user:${ada.user.id}")`,
        `update("user:${ada.user.id}")`,
        `delete("user:${ada.user.id}")`,
        'read("team:studio")',
        'update("team:studio")',
        'delete("team:studio")',
      ]);
    }

    const guest = new RevisionStore(createGuestServices(backend.emulator).client);
    const byGet = await guest.get(revision!.id).catch((e: unknown) => e);
    expect(byGet).toBeInstanceOf(AppwriteException);
    expect((byGet as AppwriteException).code).toBe(404);
    const byList = await guest.list(await ventureRow(itemId)).catch((e: unknown) => e);
    // Guests hold no read on the table and none on its rows: refused, or an empty list.
    if (Array.isArray(byList)) expect(byList).toEqual([]);
    else expect((byList as AppwriteException).code).toBe(401);

    const other = new RevisionStore(session(bob).client);
    expect(await other.list(await ventureRow(itemId))).toEqual([]);
    await expect(other.get(revision!.id)).rejects.toMatchObject({ code: 404 });
    // Nor may another user restore it onto the item.
    await expect(
      restoreRevision(session(bob).tablesDB, "venture", itemId, revision!.id, "bob", key()),
    ).rejects.toBeInstanceOf(AppwriteException);
  });

  it("restores a revision, and the restore is itself a new revision", async () => {
    const store = new RevisionStore(session(ada).client);
    const first = (await store.list(await ventureRow(itemId))).find((r) => r.fields.name === "First")!;
    const restored = await restoreRevision(session(ada).tablesDB, "venture", itemId, first.id, "ada", key());
    expect(restored).toMatchObject({ name: "First", shortDescription: "About First.", updatedBy: "ada" });
    const doc = await backend.services.databases.getDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.venture.collectionId,
      documentId: itemId,
    });
    expect(doc.caseStudy).toContain("Case study of First.");
    expect((await store.list(await ventureRow(itemId))).map((r) => r.fields.name)).toEqual([
      "Third",
      "Second",
      "First",
    ]);
  });

  it(`keeps only the last ${REVISIONS_KEPT} per item`, async () => {
    for (let i = 0; i < REVISIONS_KEPT + 2; i += 1) {
      await updateItem(backend.emulator, session(ada), ada.user, "venture", itemId, venture(`Save ${i}`), null);
    }
    const revisions = await new RevisionStore(session(ada).client).list(await ventureRow(itemId));
    expect(revisions).toHaveLength(REVISIONS_KEPT);
    expect(revisions[0]!.fields.name).toBe(`Save ${REVISIONS_KEPT}`);
    expect(revisions.at(-1)!.fields.name).toBe("Save 1");
    expect((await storedRows(itemId)).total).toBe(REVISIONS_KEPT); // pruned, not just hidden
  });

  it("keeps a revision for every editor when another editor saves, and nothing when a save is refused", async () => {
    const shared = await createItem(
      backend.emulator,
      session(ada),
      ada.user,
      "venture",
      venture("Shared", "shared-venture"),
      null,
    );
    await backend.services.databases.updateDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.venture.collectionId,
      documentId: shared.$id,
      permissions: [...shared.$permissions, 'update("users")'],
    });
    // Bob may update it (through `users`), though he does not hold Ada's role the revision also grants.
    await updateItem(
      backend.emulator,
      session(bob),
      bob.user,
      "venture",
      shared.$id,
      venture("By Bob", "shared-venture"),
      null,
    );
    const [kept] = await new RevisionStore(session(ada).client).list(await ventureRow(shared.$id));
    expect(kept).toMatchObject({ savedBy: "ada", fields: { name: "Shared" } });
    expect((await new RevisionStore(session(bob).client).list(await ventureRow(shared.$id))).map((r) => r.id)).toEqual([
      kept!.id,
    ]);

    // A user who may not update the item gets Appwrite's refusal, and no revision is left behind.
    const before = (await storedRows(itemId)).total;
    const refused = await updateItem(
      backend.emulator,
      session(bob),
      bob.user,
      "venture",
      itemId,
      venture("Bob's"),
      null,
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppwriteException);
    expect((await storedRows(itemId)).total).toBe(before);
  });

  it("keeps each language version's history apart", async () => {
    const other = await createItem(
      backend.emulator,
      session(ada),
      ada.user,
      "venture",
      venture("Other", "other-venture"),
      null,
    );
    await updateItem(
      backend.emulator,
      session(ada),
      ada.user,
      "venture",
      other.$id,
      venture("Other 2", "other-venture"),
      null,
    );
    expect(
      (await new RevisionStore(session(ada).client).list(await ventureRow(other.$id))).map((r) => r.fields.name),
    ).toEqual(["Other"]);
  });
});

describe("history of an item pushed from files", () => {
  it("records what `studio push` overwrites, with the API key only able to read it", async () => {
    const contentDir = await copyFixtureContent();
    expect((await push(backend.services, { contentDir })).failed).toBe(0);
    const file = path.join(contentDir, "ventures/alpha-agency.md");
    await writeFile(file, (await readFile(file, "utf8")).replace("name: Alpha Agency", "name: Alpha Renamed"));
    const second = await push(backend.services, { contentDir, force: true });
    expect(second.failed).toBe(0);

    const [doc] = (
      await backend.services.databases.listDocuments({
        databaseId: DATABASE_ID,
        collectionId: CONTENT_MODEL.venture.collectionId,
        queries: [Query.equal("slug", "alpha-agency")],
      })
    ).documents;
    expect(doc!.name).toBe("Alpha Renamed");
    const revisions = await new RevisionStore(backend.services.client).list(await ventureRow(doc!.$id));
    expect(revisions).toHaveLength(1);
    expect(revisions[0]).toMatchObject({ savedBy: "studio push", fields: { name: "Alpha Agency" } });
    // A pushed item is the studio team's: its revisions are the team's (issue #28), no other user reads them.
    expect((await storedRows(doc!.$id)).rows[0]!.$permissions).toEqual([
      'read("team:studio")',
      'update("team:studio")',
      'delete("team:studio")',
    ]);
    expect(await new RevisionStore(session(bob).client).list(await ventureRow(doc!.$id))).toEqual([]);
  });
});
