import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Account, Databases, Permission, Query, Role, Users } from "node-appwrite";
import { projectClient, rejection, startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";
import { ARGON2_OPTIONS } from "../../../embedded-appwrite/db/users.ts";

let env: TestEmulator;
let users: Users;

beforeAll(async () => {
  // At Appwrite's own Argon2 cost: the stored hashes below are checked for it (SECURITY C11).
  env = await startTestEmulator(undefined, { passwordHashing: ARGON2_OPTIONS });
  users = new Users(env.admin);
});

afterAll(async () => {
  await env.stop();
});

describe("users", () => {
  it("given an Argon2 hash from another project, then the imported user signs in with its password; other strings are refused", async () => {
    const source = await users.create({ userId: "moved", email: "moved@example.com", password: "a moving passphrase" });
    await users.delete({ userId: "moved" });
    const imported = await users.createArgon2User({
      userId: "moved",
      email: "moved@example.com",
      password: source.password!,
      name: "Moved",
    });
    expect(imported).toMatchObject({ $id: "moved", name: "Moved", hash: "argon2", password: source.password });
    const session = await new Account(projectClient(env)).createEmailPasswordSession({
      email: "moved@example.com",
      password: "a moving passphrase",
    });
    expect(session.userId).toBe("moved");
    const refused = await rejection(
      users.createArgon2User({ userId: "plain", email: "plain@example.com", password: "not a hash at all" }),
    );
    expect([refused.code, refused.type]).toEqual([400, "general_argument_invalid"]);
    await users.delete({ userId: "moved" }); // the list tests below count every user
  });

  it("given a new user, then the User model has a lowercased email and an Argon2id hash, never the password", async () => {
    const user = await users.create({
      userId: "ada",
      email: "Ada@Example.COM",
      password: "correct horse battery",
      name: "Ada",
    });
    expect(user).toMatchObject({
      $id: "ada",
      name: "Ada",
      email: "ada@example.com",
      status: true,
      labels: [],
      emailVerification: false,
      phoneVerification: false,
      mfa: false,
      prefs: {},
      phone: "",
      hash: "argon2",
    });
    expect(user.password).toMatch(/^\$argon2id\$v=19\$m=65536,t=4,p=3\$/);
    expect(JSON.stringify(user)).not.toContain("correct horse battery");
    expect(user.targets[0]).toMatchObject({ providerType: "email", identifier: "ada@example.com" });
  });

  it("given a taken ID or email, then 409 user_already_exists", async () => {
    const sameId = await rejection(
      users.create({ userId: "ada", email: "other@example.com", password: "password123" }),
    );
    expect([sameId.code, sameId.type]).toEqual([409, "user_already_exists"]);
    const sameEmail = await rejection(
      users.create({ userId: "ada2", email: "ADA@example.com", password: "password123" }),
    );
    expect([sameEmail.code, sameEmail.type]).toEqual([409, "user_already_exists"]);
  });

  it("given a password under 8 characters, then 400 general_argument_invalid", async () => {
    const error = await rejection(users.create({ userId: "short", email: "short@example.com", password: "short" }));
    expect([error.code, error.type]).toEqual([400, "general_argument_invalid"]);
  });

  it("given users, when listed with queries or search, then matches come back", async () => {
    await users.create({ userId: "bob", email: "bob@example.com", password: "password123", name: "Bob Builder" });
    const byEmail = await users.list({ queries: [Query.equal("email", "bob@example.com")] });
    expect(byEmail.users.map((u) => u.$id)).toEqual(["bob"]);
    const byName = await users.list({ search: "Builder" });
    expect(byName.users.map((u) => u.$id)).toEqual(["bob"]);
    const all = await users.list({ queries: [Query.orderDesc("name")] });
    expect(all.total).toBe(2);
    expect(all.users.map((u) => u.$id)).toEqual(["bob", "ada"]);
  });

  it("given a user, when deleted, then 204 and get gives 404 user_not_found", async () => {
    expect((await users.get({ userId: "bob" })).$id).toBe("bob");
    await users.delete({ userId: "bob" });
    const error = await rejection(users.get({ userId: "bob" }));
    expect([error.code, error.type]).toEqual([404, "user_not_found"]);
  });

  it("given a user, when name and password are updated by the key, then the model and logins follow", async () => {
    await users.create({ userId: "carol", email: "carol@example.com", password: "password-123", name: "Carol" });
    const before = await users.get({ userId: "carol" });
    const renamed = await users.updateName({ userId: "carol", name: "Caroline" });
    expect(renamed.name).toBe("Caroline");
    const changed = await users.updatePassword({ userId: "carol", password: "another-pass-9" });
    expect(changed.password).not.toBe(before.password);
    expect(changed.password).toMatch(/^\$argon2id\$v=19\$m=65536,t=4,p=3\$/);
    const old = await rejection(
      new Account(env.admin).createEmailPasswordSession({ email: "carol@example.com", password: "password-123" }),
    );
    expect(old.type).toBe("user_invalid_credentials");
    const short = await rejection(users.updatePassword({ userId: "carol", password: "short" }));
    expect([short.code, short.type]).toEqual([400, "general_argument_invalid"]);
    const missing = await rejection(users.updateName({ userId: "nobody", name: "x" }));
    expect([missing.code, missing.type]).toEqual([404, "user_not_found"]);
  });

  it("given a user, when the key creates a session for it, then the secret signs in with setSession and the session is listed", async () => {
    const session = await users.createSession({ userId: "carol" });
    expect(session).toMatchObject({ userId: "carol", provider: "server", factors: ["server"] });
    expect(session.secret).not.toBe("");
    const me = await new Account(projectClient(env).setSession(session.secret)).get();
    expect(me).toMatchObject({ $id: "carol", name: "Caroline" });
    expect(me).not.toHaveProperty("password");
    const list = await users.listSessions({ userId: "carol" });
    expect(list.sessions.map((s) => [s.$id, s.secret])).toEqual([[session.$id, ""]]);
    const { jwt } = await users.createJWT({ userId: "carol", sessionId: session.$id });
    expect((await new Account(projectClient(env).setJWT(jwt)).get()).$id).toBe("carol");
    await users.deleteSession({ userId: "carol", sessionId: session.$id });
    expect((await users.listSessions({ userId: "carol" })).total).toBe(0);
    expect((await rejection(new Account(projectClient(env).setSession(session.secret)).get())).code).toBe(401);
    const gone = await rejection(users.deleteSession({ userId: "carol", sessionId: session.$id }));
    expect([gone.code, gone.type]).toEqual([404, "user_session_not_found"]);
  });

  it("given labels and verification set by the key, then the user's session holds the label and verified roles", async () => {
    const labelled = await users.updateLabels({ userId: "carol", labels: ["editor"] });
    expect(labelled.labels).toEqual(["editor"]);
    expect((await users.updateEmailVerification({ userId: "carol", emailVerification: true })).emailVerification).toBe(
      true,
    );
    const byLabel = await users.list({ queries: [Query.contains("labels", ["editor"])] });
    expect(byLabel.users.map((u) => u.$id)).toEqual(["carol"]);
    const admin = new Databases(env.admin);
    await admin.create({ databaseId: "roles", name: "Roles" });
    await admin.createCollection({ databaseId: "roles", collectionId: "c", name: "C", documentSecurity: true });
    await admin.createStringAttribute({ databaseId: "roles", collectionId: "c", key: "t", size: 9, required: false });
    const grants: [string, string][] = [
      ["l", Role.label("editor")],
      ["v", Role.users("verified")],
      ["u", Role.users("unverified")],
    ];
    for (const [id, role] of grants) {
      await admin.createDocument({
        databaseId: "roles",
        collectionId: "c",
        documentId: id,
        data: { t: id },
        permissions: [Permission.read(role)],
      });
    }
    const session = await users.createSession({ userId: "carol" });
    const visible = await new Databases(projectClient(env).setSession(session.secret)).listDocuments({
      databaseId: "roles",
      collectionId: "c",
    });
    expect(visible.documents.map((d) => d.$id)).toEqual(["l", "v"]);
  });

  it("given a guest or a signed-in user, when calling /users, then 401 general_unauthorized_scope", async () => {
    const guest = await rejection(new Users(projectClient(env)).list());
    expect([guest.code, guest.type]).toEqual([401, "general_unauthorized_scope"]);
    const session = await users.createSession({ userId: "carol" });
    const user = await rejection(new Users(projectClient(env).setSession(session.secret)).list());
    expect([user.code, user.type]).toEqual([401, "general_unauthorized_scope"]);
  });
});
