import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Databases, Permission, Role } from "node-appwrite";
import { projectClient, rejection, signedInClient, startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";

let env: TestEmulator;
let alice: Databases;
let bob: Databases;
let guest: Databases;

async function collection(collectionId: string, permissions: string[], documentSecurity: boolean): Promise<void> {
  const admin = new Databases(env.admin);
  await admin.createCollection({ databaseId: "db", collectionId, name: collectionId, permissions, documentSecurity });
  await admin.createStringAttribute({ databaseId: "db", collectionId, key: "t", size: 20, required: false });
}

beforeAll(async () => {
  env = await startTestEmulator();
  await new Databases(env.admin).create({ databaseId: "db", name: "DB" });
  await collection("owned", [Permission.create(Role.users())], true);
  await collection(
    "shared",
    [Permission.create(Role.users()), Permission.read(Role.users()), Permission.update(Role.users())],
    false,
  );
  await collection("closed", [Permission.create(Role.users())], false);
  await collection("guestbook", [Permission.read(Role.guests())], false);
  alice = new Databases((await signedInClient(env, "alice")).client);
  bob = new Databases((await signedInClient(env, "bob")).client);
  guest = new Databases(projectClient(env));
});

afterAll(async () => {
  await env.stop();
});

const doc = (collectionId: string, documentId: string) => ({ databaseId: "db", collectionId, documentId });

describe("permissions for session users (REFERENCE §6)", () => {
  it("given documentSecurity and no collection read, then each user lists and reads only their own documents", async () => {
    await alice.createDocument({ ...doc("owned", "a1"), data: { t: "alice" } });
    await bob.createDocument({ ...doc("owned", "b1"), data: { t: "bob" } });
    const aliceList = await alice.listDocuments({ databaseId: "db", collectionId: "owned" });
    expect([aliceList.total, aliceList.documents.map((d) => d.$id)]).toEqual([1, ["a1"]]);
    const hidden = await rejection(bob.getDocument(doc("owned", "a1")));
    expect([hidden.code, hidden.type]).toEqual([404, "document_not_found"]);
    const update = await rejection(bob.updateDocument({ ...doc("owned", "a1"), data: { t: "hacked" } }));
    expect([update.code, update.type]).toEqual([401, "user_unauthorized"]);
    const remove = await rejection(bob.deleteDocument(doc("owned", "a1")));
    expect([remove.code, remove.type]).toEqual([401, "user_unauthorized"]);
    const missing = await rejection(bob.deleteDocument(doc("owned", "zz")));
    expect([missing.code, missing.type]).toEqual([404, "document_not_found"]);
    expect((await alice.getDocument(doc("owned", "a1")))["t"]).toBe("alice");
    const guestList = await guest.listDocuments({ databaseId: "db", collectionId: "owned" });
    expect(guestList.total).toBe(0);
  });

  it("given an owner, when it grants roles, then roles it holds pass and others' roles are 401", async () => {
    const shared = await alice.updateDocument({
      ...doc("owned", "a1"),
      permissions: [Permission.read(Role.any()), Permission.update(Role.user("alice"))],
    });
    expect(shared.$permissions).toEqual(['read("any")', 'update("user:alice")']);
    expect((await bob.getDocument(doc("owned", "a1")))["t"]).toBe("alice");
    expect((await guest.getDocument(doc("owned", "a1")))["t"]).toBe("alice");
    const foreign = await rejection(
      alice.updateDocument({ ...doc("owned", "a1"), permissions: [Permission.update(Role.user("bob"))] }),
    );
    expect([foreign.code, foreign.type]).toEqual([401, "user_unauthorized"]);
    expect(foreign.message).toContain("Permissions must be one of: (any, users, user:alice");
    const lost = await rejection(alice.deleteDocument(doc("owned", "a1")));
    expect([lost.code, lost.type]).toEqual([401, "user_unauthorized"]);
  });

  it("given collection-level read and update for users, then any user reads and updates any document; guests get 401", async () => {
    await alice.createDocument({ ...doc("shared", "s1"), data: { t: "alice" } });
    expect((await bob.updateDocument({ ...doc("shared", "s1"), data: { t: "bob was here" } }))["t"]).toBe(
      "bob was here",
    );
    expect((await bob.listDocuments({ databaseId: "db", collectionId: "shared" })).total).toBe(1);
    const guestList = await rejection(guest.listDocuments({ databaseId: "db", collectionId: "shared" }));
    expect([guestList.code, guestList.type]).toEqual([401, "user_unauthorized"]);
    const guestCreate = await rejection(guest.createDocument({ ...doc("shared", "g1"), data: { t: "g" } }));
    expect([guestCreate.code, guestCreate.type]).toEqual([401, "user_unauthorized"]);
  });

  it("given documentSecurity off and no collection read, then even the creator's list is 401 and get is 404", async () => {
    await alice.createDocument({ ...doc("closed", "c1"), data: { t: "alice" } });
    const list = await rejection(alice.listDocuments({ databaseId: "db", collectionId: "closed" }));
    expect([list.code, list.type]).toEqual([401, "user_unauthorized"]);
    const get = await rejection(alice.getDocument(doc("closed", "c1")));
    expect([get.code, get.type]).toEqual([404, "document_not_found"]);
  });

  it("given a collection readable by guests only, then signed-in users do not hold the guests role", async () => {
    await new Databases(env.admin).createDocument({ ...doc("guestbook", "g1"), data: { t: "hello" } });
    expect((await guest.getDocument(doc("guestbook", "g1")))["t"]).toBe("hello");
    const user = await rejection(bob.listDocuments({ databaseId: "db", collectionId: "guestbook" }));
    expect([user.code, user.type]).toEqual([401, "user_unauthorized"]);
  });
});
