import { hash } from "@node-rs/argon2";
import { runList } from "../db/list.ts";
import { nowDatetime } from "../datetime.ts";
import { AppwriteError, invalidParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import {
  customIdParam,
  pathParam,
  queriesParam,
  searchParam,
  stringParam,
  totalParam,
  uniqueId,
} from "../http/params.ts";
import type { Router } from "../http/router.ts";
import { compileQueries, SYSTEM_QUERY_FIELDS } from "../queries.ts";
import type { QuerySchema } from "../queries.ts";

/** Appwrite's Argon2id parameters for new passwords (utopia `Hashes/Argon2.php`; SECURITY C11). */
export const ARGON2_OPTIONS = { memoryCost: 65536, timeCost: 4, parallelism: 3 } as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+[1-9]\d{6,14}$/;

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

type UserRow = Record<string, unknown>;

/**
 * Appwrite `User` model (REFERENCE §3, AW `Model/User.php`). Like Appwrite for API-key callers,
 * `password` is the Argon2id PHC hash (never the password), with `hash`/`hashOptions`.
 */
function userModel(row: UserRow): Record<string, unknown> {
  const prefs = JSON.parse(row["prefs"] as string) as Record<string, unknown>;
  return {
    $id: row["id"],
    $createdAt: row["created_at"],
    $updatedAt: row["updated_at"],
    name: row["name"],
    password: row["password_hash"] ?? "",
    hash: "argon2",
    hashOptions: {
      type: "argon2",
      memoryCost: ARGON2_OPTIONS.memoryCost,
      timeCost: ARGON2_OPTIONS.timeCost,
      threads: ARGON2_OPTIONS.parallelism,
    },
    registration: row["registration"],
    status: row["status"] === 1,
    labels: JSON.parse(row["labels"] as string) as string[],
    passwordUpdate: row["password_update"],
    email: row["email"] ?? "",
    phone: row["phone"] ?? "",
    emailVerification: row["email_verification"] === 1,
    phoneVerification: row["phone_verification"] === 1,
    mfa: row["mfa"] === 1,
    prefs,
    targets: JSON.parse(row["targets"] as string) as unknown[],
    accessedAt: row["accessed_at"],
  };
}

function findUser(ctx: RequestContext, id: string): UserRow | undefined {
  return ctx.app.store.stmt("SELECT * FROM users WHERE id = ?").get(id) as UserRow | undefined;
}

/**
 * `POST /users`: 201 User. Email is lowercased; password must be 8–256 chars (400
 * `general_argument_invalid`) and is hashed with Argon2id; a taken ID, email or phone → 409
 * `user_already_exists` (REFERENCE §4 "Users").
 */
async function createUser(ctx: RequestContext) {
  const body = await ctx.body();
  const id = customIdParam(body, "userId");
  const rawEmail = stringParam(body, "email", { max: 254 });
  const email = rawEmail === undefined || rawEmail === "" ? null : rawEmail.toLowerCase();
  if (email !== null && !EMAIL.test(email)) throw invalidParam("email", "Value must be a valid email address");
  const rawPhone = stringParam(body, "phone", { max: 16 });
  const phone = rawPhone === undefined || rawPhone === "" ? null : rawPhone;
  if (phone !== null && !PHONE.test(phone)) {
    throw invalidParam("phone", "Phone number must start with a '+' can have a maximum of fifteen digits.");
  }
  const password = body["password"];
  if (password !== undefined && password !== null) {
    if (typeof password !== "string" || [...password].length < 8 || [...password].length > 256) {
      throw invalidParam("password", "Password must be between 8 and 256 characters long.");
    }
  }
  const name = stringParam(body, "name", { max: 128 }) ?? "";
  const store = ctx.app.store;
  const taken = () =>
    store.stmt("SELECT 1 FROM users WHERE id = ? OR email = ? OR phone = ?").get(id, email, phone) !== undefined;
  if (taken()) throw new AppwriteError("user_already_exists");
  const passwordHash = typeof password === "string" ? await hash(password, ARGON2_OPTIONS) : null;
  const now = nowDatetime();
  const targets =
    email === null
      ? []
      : [
          {
            $id: uniqueId(),
            $createdAt: now,
            $updatedAt: now,
            name: "",
            userId: id,
            providerId: null,
            providerType: "email",
            identifier: email,
            expired: false,
          },
        ];
  try {
    store
      .stmt(
        "INSERT INTO users (id, name, email, phone, password_hash, status, labels, prefs, targets, email_verification, phone_verification, mfa, registration, password_update, accessed_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, 0, 0, 0, ?, ?, ?, ?, ?)",
      )
      .run(
        id,
        name,
        email,
        phone,
        passwordHash,
        "[]",
        "{}",
        JSON.stringify(targets),
        now,
        passwordHash ? now : "",
        now,
        now,
        now,
      );
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE")
      throw new AppwriteError("user_already_exists");
    throw error;
  }
  return { status: 201, json: userModel(findUser(ctx, id) as UserRow) };
}

function listUsers(ctx: RequestContext) {
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
  return { status: 200, json: { total, users: rows.map(userModel) } };
}

function getUser(ctx: RequestContext) {
  const row = findUser(ctx, pathParam(ctx, "userId"));
  if (!row) throw new AppwriteError("user_not_found");
  return { status: 200, json: userModel(row) };
}

function deleteUser(ctx: RequestContext) {
  const id = pathParam(ctx, "userId");
  const result = ctx.app.store.stmt("DELETE FROM users WHERE id = ?").run(id);
  if (result.changes === 0) throw new AppwriteError("user_not_found");
  return { status: 204, empty: true as const };
}

/**
 * Users (REFERENCE §4 "Users"): `POST/GET /users`, `GET/DELETE /users/{userId}`.
 * API key only: guests get 401 `general_unauthorized_scope`.
 */
export function register(router: Router): void {
  router.add("POST", "/users", "users.write", createUser);
  router.add("GET", "/users", "users.read", listUsers);
  router.add("GET", "/users/:userId", "users.read", getUser);
  router.add("DELETE", "/users/:userId", "users.write", deleteUser);
}
