import { createUserRecord, emailParam, emailTarget, phoneParam } from "../auth/new-user.ts";
import { hashPassword, passwordParam } from "../auth/passwords.ts";
import { nowDatetime } from "../datetime.ts";
import { runList } from "../db/list.ts";
import { findUser, toUser, updateUser, userModel } from "../db/users.ts";
import type { UserChanges, UserRecord, UserRow } from "../db/users.ts";
import { AppwriteError, invalidParam, missingParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import {
  boolParam,
  customIdParam,
  pathParam,
  queriesParam,
  searchParam,
  stringArrayParam,
  stringParam,
  totalParam,
} from "../http/params.ts";
import type { Reply, Router } from "../http/router.ts";
import { compileQueries, SYSTEM_QUERY_FIELDS } from "../queries.ts";
import type { QuerySchema } from "../queries.ts";

const USER_QUERIES: QuerySchema = {
  fields: new Map([
    ...SYSTEM_QUERY_FIELDS,
    ["name", { column: "name", type: "string" }],
    ["email", { column: "email", type: "string" }],
    ["phone", { column: "phone", type: "string" }],
    ["status", { column: "status", type: "boolean" }],
    ["passwordUpdate", { column: "password_update", type: "datetime" }],
    ["registration", { column: "registration", type: "datetime" }],
    ["emailVerification", { column: "email_verification", type: "boolean" }],
    ["phoneVerification", { column: "phone_verification", type: "boolean" }],
    ["labels", { column: "labels", type: "string", array: true }],
    ["accessedAt", { column: "accessed_at", type: "datetime" }],
  ]),
  selectable: false,
};

/** The user of path parameter `userId`; 404 `user_not_found` when missing. */
export function loadUser(ctx: RequestContext): UserRecord {
  const user = findUser(ctx.app.store, pathParam(ctx, "userId"));
  if (!user) throw new AppwriteError("user_not_found");
  return user;
}

/**
 * `POST /users`: 201 User. Email is lowercased; password must be 8–256 chars (400
 * `general_argument_invalid`) and is hashed with Argon2id; a taken ID, email or phone → 409
 * `user_already_exists` (REFERENCE §4 "Users").
 */
async function createUser(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  const id = customIdParam(body, "userId");
  const email = emailParam(body);
  const phone = phoneParam(body);
  const password = passwordParam(body, "password", false);
  const name = stringParam(body, "name", { max: 128 }) ?? "";
  const user = await createUserRecord(ctx.app.store, { id, email, phone, password, name }, ctx.app.passwordHashing);
  return { status: 201, json: userModel(user) };
}

function listUsers(ctx: RequestContext): Reply {
  const q = compileQueries(queriesParam(ctx), USER_QUERIES);
  const search = searchParam(ctx);
  const words = search === undefined ? [] : search.split(/\s+/).filter((w) => w !== "");
  const scope = words.map((word) => {
    const like = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return {
      sql: `id LIKE ? ESCAPE '\\' OR name LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\' OR phone LIKE ? ESCAPE '\\'`,
      params: [like, like, like, like],
    };
  });
  const { rows, total } = runList<UserRow>(
    ctx.app.store,
    { table: "users", columns: "*", idColumn: "id", seqColumn: "seq", scope, noun: "User" },
    q,
    totalParam(ctx),
  );
  return { status: 200, json: { total, users: rows.map((r) => userModel(toUser(r))) } };
}

function getUser(ctx: RequestContext): Reply {
  return { status: 200, json: userModel(loadUser(ctx)) };
}

function deleteUser(ctx: RequestContext): Reply {
  const user = loadUser(ctx);
  ctx.app.store.stmt("DELETE FROM users WHERE seq = ?").run(user.seq);
  return { status: 204, empty: true };
}

/**
 * Apply `changes` to the user and answer 200 User. A taken email or phone → 409
 * `user_email_already_exists` / `user_phone_already_exists`.
 */
function change(ctx: RequestContext, user: UserRecord, changes: UserChanges): Reply {
  try {
    updateUser(ctx.app.store, user.seq, changes, nowDatetime());
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE") {
      throw new AppwriteError(changes.phone !== undefined ? "user_phone_already_exists" : "user_email_already_exists");
    }
    throw error;
  }
  return { status: 200, json: userModel(findUser(ctx.app.store, user.id) as UserRecord) };
}

async function updateName(ctx: RequestContext): Promise<Reply> {
  const name = stringParam(await ctx.body(), "name", { required: true, max: 128 });
  return change(ctx, loadUser(ctx), { name });
}

/** `PATCH /users/{id}/password`: 8–256 chars, or `""` to remove the password (AW allows empty). */
async function updatePassword(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  if (body["password"] === undefined) throw missingParam("password");
  const password = passwordParam(body, "password", false);
  const now = nowDatetime();
  const passwordHash = password === undefined ? null : await hashPassword(password, ctx.app.passwordHashing);
  return change(ctx, loadUser(ctx), { passwordHash, passwordUpdate: password === undefined ? "" : now });
}

/** `PATCH /users/{id}/email`: lowercased; the `email` target follows; verification is reset. */
async function updateEmail(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  if (body["email"] === undefined) throw missingParam("email");
  const email = emailParam(body);
  const user = loadUser(ctx);
  const others = user.targets.filter((t) => (t as { providerType?: string }).providerType !== "email");
  const targets = email === null ? others : [...others, emailTarget(user.id, email, nowDatetime())];
  return change(ctx, user, { email, targets, emailVerification: false });
}

async function updatePhone(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  if (body["number"] === undefined) throw missingParam("number");
  return change(ctx, loadUser(ctx), { phone: phoneParam(body, "number"), phoneVerification: false });
}

async function updateStatus(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  if (body["status"] === undefined) throw missingParam("status");
  return change(ctx, loadUser(ctx), { status: boolParam(body, "status", true) });
}

async function updateEmailVerification(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  if (body["emailVerification"] === undefined) throw missingParam("emailVerification");
  return change(ctx, loadUser(ctx), { emailVerification: boolParam(body, "emailVerification", false) });
}

/** `PUT /users/{id}/labels`: at most 1000 labels of 1–36 alphanumeric characters (AW `Validator/Labels`). */
async function updateLabels(ctx: RequestContext): Promise<Reply> {
  const labels = stringArrayParam(await ctx.body(), "labels", 36);
  if (labels === undefined) throw missingParam("labels");
  if (labels.some((l) => !/^[A-Za-z0-9]{1,36}$/.test(l))) {
    throw invalidParam(
      "labels",
      "Value must be a valid array and Value must be a valid string of alphanumeric characters",
    );
  }
  return change(ctx, loadUser(ctx), { labels: [...new Set(labels)] });
}

function getPrefs(ctx: RequestContext): Reply {
  return { status: 200, json: loadUser(ctx).prefs };
}

async function updatePrefs(ctx: RequestContext): Promise<Reply> {
  const prefs = (await ctx.body())["prefs"];
  if (prefs === undefined || prefs === null) throw missingParam("prefs");
  if (typeof prefs !== "object" || Array.isArray(prefs) || JSON.stringify(prefs).length > 65535) {
    throw invalidParam("prefs", "Value must be a valid object and no longer than 65535 chars");
  }
  const user = loadUser(ctx);
  updateUser(ctx.app.store, user.seq, { prefs: prefs as Record<string, unknown> }, nowDatetime());
  return { status: 200, json: prefs };
}

/**
 * Users (REFERENCE §4 "Users"; API key only, guests and users get 401
 * `general_unauthorized_scope`): create, list (queries, search), get, delete, and updates of
 * name, password, email, phone, status, email verification, labels and prefs.
 */
export function register(router: Router): void {
  router.add("POST", "/users", "users.write", createUser);
  router.add("GET", "/users", "users.read", listUsers);
  router.add("GET", "/users/:userId", "users.read", getUser);
  router.add("DELETE", "/users/:userId", "users.write", deleteUser);
  router.add("PATCH", "/users/:userId/name", "users.write", updateName);
  router.add("PATCH", "/users/:userId/password", "users.write", updatePassword);
  router.add("PATCH", "/users/:userId/email", "users.write", updateEmail);
  router.add("PATCH", "/users/:userId/phone", "users.write", updatePhone);
  router.add("PATCH", "/users/:userId/status", "users.write", updateStatus);
  router.add("PATCH", "/users/:userId/verification", "users.write", updateEmailVerification);
  router.add("PUT", "/users/:userId/labels", "users.write", updateLabels);
  router.add("GET", "/users/:userId/prefs", "users.read", getPrefs);
  router.add("PATCH", "/users/:userId/prefs", "users.write", updatePrefs);
}
