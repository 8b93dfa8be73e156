import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Query, Users } from "node-appwrite";
import { rejection, startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";

let env: TestEmulator;
let users: Users;

beforeAll(async () => {
  env = await startTestEmulator();
  users = new Users(env.admin);
});

afterAll(async () => {
  await env.stop();
});

describe("users", () => {
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
});
