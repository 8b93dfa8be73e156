/**
 * `EmulatorOptions.passwordHashing` (docs/decisions/0022): a backend started with a lower Argon2id cost stores
 * real Argon2id hashes at that cost, says so in the User model, and still refuses a wrong password and an
 * unknown e-mail; without the option the cost is Appwrite's (tests/integration/emulator/users.test.ts).
 */
import { Account, Client, ID } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackend, type Backend } from "../../helpers/stack.ts";

let backend: Backend;
beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => {
  await backend?.close();
});

const account = () =>
  new Account(new Client().setEndpoint(backend.emulator.endpoint).setProject(backend.emulator.projectId));

describe("a test backend's password cost", () => {
  it("hashes with Argon2id at the given cost, reports it, and still tells a right password from a wrong one", async () => {
    const user = await backend.services.users.create({
      userId: ID.unique(),
      email: "cost@example.com",
      password: "a long enough passphrase",
    });
    expect(user.password).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/);
    expect(user.hashOptions).toMatchObject({ type: "argon2", memoryCost: 8, timeCost: 1, threads: 1 });

    const session = await account().createEmailPasswordSession({
      email: "cost@example.com",
      password: "a long enough passphrase",
    });
    expect(session.userId).toBe(user.$id);
    for (const [email, password] of [
      ["cost@example.com", "a wrong passphrase!"],
      ["nobody@example.com", "a long enough passphrase"],
    ]) {
      await expect(account().createEmailPasswordSession({ email: email!, password: password! })).rejects.toMatchObject({
        code: 401,
        type: "user_invalid_credentials",
      });
    }
  });
});
