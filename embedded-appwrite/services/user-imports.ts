import { createUserRecord, emailParam, phoneParam } from "../auth/new-user.ts";
import { ARGON2_PHC, userModel } from "../db/users.ts";
import { invalidParam, missingParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { customIdParam, stringParam } from "../http/params.ts";
import type { Reply, Router } from "../http/router.ts";

/**
 * `POST /users/argon2` (Appwrite "Create user with Argon2 password", REFERENCE §4 "Users"): 201 User whose
 * password is the given Argon2 hash, kept as it is, so the user signs in with the password it was made from
 * (how `studio transfer` moves users between projects). `password` must be an Argon2 PHC string (400
 * `general_argument_invalid` otherwise); a taken ID, email or phone → 409 `user_already_exists`.
 */
async function createArgon2User(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  const id = customIdParam(body, "userId");
  const email = emailParam(body);
  const phone = phoneParam(body);
  const hash = body["password"];
  if (hash === undefined || hash === null || hash === "") throw missingParam("password");
  if (typeof hash !== "string" || !ARGON2_PHC.test(hash)) {
    throw invalidParam("password", "Value must be an Argon2 hash in the PHC string format.");
  }
  const name = stringParam(body, "name", { max: 128 }) ?? "";
  const user = await createUserRecord(ctx.app.store, { id, email, phone, passwordHash: hash, name });
  return { status: 201, json: userModel(user) };
}

/** User imports with a password hash (REFERENCE §4 "Users"): Argon2, the hash Appwrite itself writes. */
export function register(router: Router): void {
  router.add("POST", "/users/argon2", "users.write", createArgon2User);
}
