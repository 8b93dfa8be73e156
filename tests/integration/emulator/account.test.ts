import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Account, Databases, ID, Permission, Role, Users } from "node-appwrite";
import { projectClient, rejection, signedInClient, startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";

let env: TestEmulator;

beforeAll(async () => {
  env = await startTestEmulator();
});

afterAll(async () => {
  await env.stop();
});

describe("account: sign-up", () => {
  it("given a guest, when it signs up, then 201 Account without password fields, email lowercased", async () => {
    const account = await new Account(projectClient(env)).create({
      userId: "signup1",
      email: "New.User@Example.com",
      password: "password-123",
      name: "New",
    });
    expect(account).toMatchObject({ $id: "signup1", email: "new.user@example.com", name: "New", labels: [] });
    expect(account).not.toHaveProperty("password");
    expect(account).not.toHaveProperty("hash");
    expect(account.targets[0]).toMatchObject({ providerType: "email", identifier: "new.user@example.com" });
  });

  it("given a taken email, or a password under 8 or over 256 chars, then 409 / 400; 256 chars is accepted", async () => {
    const guest = new Account(projectClient(env));
    const taken = await rejection(
      guest.create({ userId: ID.unique(), email: "new.user@example.com", password: "x".repeat(8) }),
    );
    expect([taken.code, taken.type]).toEqual([409, "user_already_exists"]);
    const short = await rejection(guest.create({ userId: ID.unique(), email: "s@example.com", password: "1234567" }));
    expect([short.code, short.type]).toEqual([400, "general_argument_invalid"]);
    const long = await rejection(
      guest.create({ userId: ID.unique(), email: "l@example.com", password: "y".repeat(257) }),
    );
    expect([long.code, long.type]).toEqual([400, "general_argument_invalid"]);
    const max = await guest.create({ userId: ID.unique(), email: "max@example.com", password: "é".repeat(256) });
    const session = await new Account(env.admin).createEmailPasswordSession({
      email: max.email,
      password: "é".repeat(256),
    });
    expect(session.userId).toBe(max.$id);
    const truncated = await rejection(
      new Account(env.admin).createEmailPasswordSession({ email: max.email, password: "é".repeat(255) }),
    );
    expect(truncated.type).toBe("user_invalid_credentials");
  });
});

describe("account: sessions", () => {
  it("given a guest login, then 201 Session with an empty secret; with the API key, the secret works with setSession", async () => {
    await new Users(env.admin).create({ userId: "ssr", email: "ssr@example.com", password: "password-123" });
    const asGuest = await new Account(projectClient(env)).createEmailPasswordSession({
      email: "SSR@example.com",
      password: "password-123",
    });
    expect(asGuest).toMatchObject({ userId: "ssr", provider: "email", providerUid: "ssr@example.com", secret: "" });
    expect(asGuest).toMatchObject({ current: true, factors: ["password"], countryCode: "--", countryName: "Unknown" });

    const asKey = await new Account(env.admin).createEmailPasswordSession({
      email: "ssr@example.com",
      password: "password-123",
    });
    expect(asKey.secret).not.toBe("");
    const me = await new Account(projectClient(env).setSession(asKey.secret)).get();
    expect(me.$id).toBe("ssr");
    const sessions = await new Account(projectClient(env).setSession(asKey.secret)).listSessions();
    expect(sessions.total).toBe(2);
    expect(sessions.sessions.map((s) => [s.$id === asKey.$id, s.current, s.secret])).toEqual([
      [false, false, ""],
      [true, true, ""],
    ]);
  });

  it("given wrong credentials or no session, then 401 with Appwrite's types", async () => {
    const wrong = await rejection(
      new Account(env.admin).createEmailPasswordSession({ email: "ssr@example.com", password: "wrong-password" }),
    );
    expect([wrong.code, wrong.type]).toEqual([401, "user_invalid_credentials"]);
    const unknown = await rejection(
      new Account(env.admin).createEmailPasswordSession({ email: "nobody@example.com", password: "wrong-password" }),
    );
    expect([unknown.code, unknown.type, unknown.message]).toEqual([401, wrong.type, wrong.message]);
    const guest = await rejection(new Account(projectClient(env)).get());
    expect([guest.code, guest.type, guest.message]).toEqual([
      401,
      "general_unauthorized_scope",
      'User (role: guests) missing scopes (["account"])',
    ]);
    const forged = Buffer.from(JSON.stringify({ id: "ssr", secret: "forged" })).toString("base64");
    const tampered = await rejection(new Account(projectClient(env).setSession(forged)).get());
    expect([tampered.code, tampered.type]).toEqual([401, "general_unauthorized_scope"]);
    const key = await rejection(new Account(env.admin).get());
    expect([key.code, key.type]).toEqual([401, "general_unauthorized_scope"]);
  });

  it("given a signed-in user, when it logs in again, then 401 user_session_already_exists", async () => {
    const { client } = await signedInClient(env, "twice");
    const error = await rejection(
      new Account(client).createEmailPasswordSession({ email: "twice@example.com", password: "password-123" }),
    );
    expect([error.code, error.type]).toEqual([401, "user_session_already_exists"]);
  });

  it("given a session, when current is fetched then deleted, then its secret no longer works and other users cannot see it", async () => {
    const { client, sessionId } = await signedInClient(env, "leaver");
    const account = new Account(client);
    expect((await account.getSession({ sessionId: "current" })).$id).toBe(sessionId);
    expect((await account.getSession({ sessionId })).current).toBe(true);
    await account.deleteSession({ sessionId: "current" });
    const after = await rejection(account.get());
    expect([after.code, after.type]).toEqual([401, "general_unauthorized_scope"]);
    const { client: other } = await signedInClient(env, "bystander");
    const foreign = await rejection(new Account(other).getSession({ sessionId }));
    expect([foreign.code, foreign.type]).toEqual([404, "user_session_not_found"]);
  });

  it("given two sessions, when deleteSessions is called, then both stop working", async () => {
    const { client, secret } = await signedInClient(env, "everywhere");
    const second = await new Account(env.admin).createEmailPasswordSession({
      email: "everywhere@example.com",
      password: "password-123",
    });
    await new Account(client).deleteSessions();
    for (const s of [secret, second.secret]) {
      const error = await rejection(new Account(projectClient(env).setSession(s)).get());
      expect(error.code).toBe(401);
    }
  });
});

describe("account: profile", () => {
  it("given a user, when name and prefs are updated, then get reflects them", async () => {
    const { client } = await signedInClient(env, "profile");
    const account = new Account(client);
    expect((await account.updateName({ name: "Renamed" })).name).toBe("Renamed");
    const updated = await account.updatePrefs({ prefs: { theme: "dark", n: 2 } });
    expect(updated.prefs).toEqual({ theme: "dark", n: 2 });
    expect(await account.getPrefs()).toEqual({ theme: "dark", n: 2 });
    expect((await account.get()).name).toBe("Renamed");
  });

  it("given two sessions, when the password changes with the right oldPassword, then the other session ends and the new password works", async () => {
    const { client, sessionId } = await signedInClient(env, "changer");
    const other = await new Account(env.admin).createEmailPasswordSession({
      email: "changer@example.com",
      password: "password-123",
    });
    const account = new Account(client);
    const wrong = await rejection(account.updatePassword({ password: "new-password-1", oldPassword: "nope-nope" }));
    expect([wrong.code, wrong.type]).toEqual([401, "user_invalid_credentials"]);
    await account.updatePassword({ password: "new-password-1", oldPassword: "password-123" });
    const sessions = await account.listSessions();
    expect(sessions.sessions.map((s) => s.$id)).toEqual([sessionId]);
    expect((await rejection(new Account(projectClient(env).setSession(other.secret)).get())).code).toBe(401);
    const old = await rejection(
      new Account(env.admin).createEmailPasswordSession({ email: "changer@example.com", password: "password-123" }),
    );
    expect(old.type).toBe("user_invalid_credentials");
    const fresh = await new Account(env.admin).createEmailPasswordSession({
      email: "changer@example.com",
      password: "new-password-1",
    });
    expect(fresh.userId).toBe("changer");
  });
});

describe("account: JWT", () => {
  it("given a session, when a JWT is created, then setJWT authenticates; JWT plus session → 403; a bad JWT → 401", async () => {
    const { client, secret } = await signedInClient(env, "jwtuser");
    const { jwt } = await new Account(client).createJWT({ duration: 60 });
    expect(jwt.split(".")).toHaveLength(3);
    const viaJwt = projectClient(env).setJWT(jwt);
    expect((await new Account(viaJwt).get()).$id).toBe("jwtuser");
    const again = await rejection(new Account(viaJwt).createJWT());
    expect([again.code, again.type]).toEqual([403, "user_jwt_creation_denied"]);
    const both = await rejection(new Account(projectClient(env).setJWT(jwt).setSession(secret)).get());
    expect([both.code, both.type]).toEqual([403, "user_jwt_and_cookie_set"]);
    const bad = await rejection(new Account(projectClient(env).setJWT(`${jwt}x`)).get());
    expect([bad.code, bad.type]).toEqual([401, "user_jwt_invalid"]);
    await new Account(client).deleteSession({ sessionId: "current" });
    const ended = await rejection(new Account(viaJwt).get());
    expect([ended.code, ended.type]).toEqual([401, "general_unauthorized_scope"]);
  });
});

describe("account: documents created in a session", () => {
  it("given a session user, when it creates a document without permissions, then it owns read/update/delete; granting another user's role → 401", async () => {
    const admin = new Databases(env.admin);
    await admin.create({ databaseId: "db", name: "DB" });
    await admin.createCollection({
      databaseId: "db",
      collectionId: "notes",
      name: "Notes",
      permissions: [Permission.create(Role.users())],
      documentSecurity: true,
    });
    await admin.createStringAttribute({ databaseId: "db", collectionId: "notes", key: "t", size: 20, required: false });
    const { client } = await signedInClient(env, "writer");
    const mine = await new Databases(client).createDocument({
      databaseId: "db",
      collectionId: "notes",
      documentId: "n1",
      data: { t: "hi" },
    });
    expect(mine.$permissions).toEqual(['read("user:writer")', 'update("user:writer")', 'delete("user:writer")']);
    const foreign = await rejection(
      new Databases(client).createDocument({
        databaseId: "db",
        collectionId: "notes",
        documentId: "n2",
        data: { t: "x" },
        permissions: [Permission.read(Role.user("someone-else"))],
      }),
    );
    expect([foreign.code, foreign.type]).toEqual([401, "user_unauthorized"]);
    const { client: other } = await signedInClient(env, "reader");
    const hidden = await rejection(
      new Databases(other).getDocument({ databaseId: "db", collectionId: "notes", documentId: "n1" }),
    );
    expect([hidden.code, hidden.type]).toEqual([404, "document_not_found"]);
    const guestCreate = await rejection(
      new Databases(projectClient(env)).createDocument({
        databaseId: "db",
        collectionId: "notes",
        documentId: "g",
        data: { t: "g" },
      }),
    );
    expect([guestCreate.code, guestCreate.type]).toEqual([401, "user_unauthorized"]);
  });
});
