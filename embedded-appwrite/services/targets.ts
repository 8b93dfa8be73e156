import { nowDatetime } from "../datetime.ts";
import { runList } from "../db/list.ts";
import { findTarget, identifierTaken, userTargetsTable } from "../db/targets.ts";
import type { Target } from "../db/targets.ts";
import { updateUser } from "../db/users.ts";
import type { UserRecord } from "../db/users.ts";
import { AppwriteError, invalidParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { customIdParam, pathParam, queriesParam, stringParam, totalParam } from "../http/params.ts";
import type { Reply, Router } from "../http/router.ts";
import { compileQueries, SYSTEM_QUERY_FIELDS } from "../queries.ts";
import type { QuerySchema } from "../queries.ts";
import { loadUser } from "./users.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+[1-9]\d{6,14}$/;

/** Fields `Query` may use on a user's targets (AW `Validator/Queries/Targets`). */
const TARGET_QUERIES: QuerySchema = {
  fields: new Map([
    ...SYSTEM_QUERY_FIELDS,
    ["name", { column: "name", type: "string" }],
    ["providerId", { column: "provider_id", type: "string" }],
    ["providerType", { column: "provider_type", type: "string" }],
    ["identifier", { column: "identifier", type: "string" }],
    ["expired", { column: "expired", type: "boolean" }],
  ]),
  selectable: false,
};

/** Check an identifier for its provider type: 400 `general_invalid_email` / `general_invalid_phone` (AW Users). */
function checkIdentifier(providerType: string, identifier: string): string {
  if (providerType === "email") {
    if (!EMAIL.test(identifier)) throw new AppwriteError("general_invalid_email");
    return identifier.toLowerCase();
  }
  if (providerType === "sms" && !PHONE.test(identifier)) throw new AppwriteError("general_invalid_phone");
  return identifier;
}

function saveTargets(ctx: RequestContext, user: UserRecord, targets: Target[]): void {
  updateUser(ctx.app.store, user.seq, { targets }, nowDatetime());
}

function loadTarget(ctx: RequestContext): { user: UserRecord; target: Target } {
  const user = loadUser(ctx);
  const id = pathParam(ctx, "targetId");
  const target = (user.targets as Target[]).find((t) => t.$id === id);
  if (!target) throw new AppwriteError("user_target_not_found");
  return { user, target };
}

/**
 * `POST /users/{userId}/targets`: 201 Target. `providerType` is `email`, `sms` or `push`; an email
 * identifier must be an address (400 `general_invalid_email`). A taken target ID or identifier →
 * 409 `user_target_already_exists` (AW `Users/Http/Targets/Create.php`).
 */
async function createTarget(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  const id = customIdParam(body, "targetId");
  const providerType = stringParam(body, "providerType", { required: true, max: 16 });
  if (!["email", "sms", "push"].includes(providerType)) {
    throw invalidParam("providerType", "Value must be one of (email, sms, push)");
  }
  const identifier = checkIdentifier(providerType, stringParam(body, "identifier", { required: true, max: 2048 }));
  const providerId = stringParam(body, "providerId", { max: 36 }) ?? null;
  const name = stringParam(body, "name", { max: 128 }) ?? "";
  const user = loadUser(ctx);
  return ctx.app.store.transaction(() => {
    if (findTarget(ctx.app.store, id) || identifierTaken(ctx.app.store, identifier)) {
      throw new AppwriteError("user_target_already_exists");
    }
    const now = nowDatetime();
    const target: Target = {
      $id: id,
      $createdAt: now,
      $updatedAt: now,
      name,
      userId: user.id,
      providerId: providerId === "" ? null : providerId,
      providerType,
      identifier,
      expired: false,
    };
    saveTargets(ctx, user, [...(user.targets as Target[]), target]);
    return { status: 201, json: target };
  });
}

function listTargets(ctx: RequestContext): Reply {
  const user = loadUser(ctx);
  const q = compileQueries(queriesParam(ctx), TARGET_QUERIES);
  const { rows, total } = runList<{ json: string }>(
    ctx.app.store,
    { table: userTargetsTable(user.seq), columns: "json", idColumn: "id", seqColumn: "seq", scope: [], noun: "Target" },
    q,
    totalParam(ctx),
  );
  return { status: 200, json: { total, targets: rows.map((r) => JSON.parse(r.json) as Target) } };
}

function getTarget(ctx: RequestContext): Reply {
  return { status: 200, json: loadTarget(ctx).target };
}

/** `PATCH /users/{userId}/targets/{targetId}`: change `identifier`, `providerId` and/or `name`. */
async function updateTarget(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  const identifierRaw = stringParam(body, "identifier", { max: 2048 });
  const providerId = stringParam(body, "providerId", { max: 36 });
  const name = stringParam(body, "name", { max: 128 });
  return ctx.app.store.transaction(() => {
    const { user, target } = loadTarget(ctx);
    const next: Target = { ...target, $updatedAt: nowDatetime() };
    if (identifierRaw !== undefined) {
      next.identifier = checkIdentifier(target.providerType, identifierRaw);
      if (identifierTaken(ctx.app.store, next.identifier, target.$id)) {
        throw new AppwriteError("user_target_already_exists");
      }
    }
    if (providerId !== undefined) next.providerId = providerId === "" ? null : providerId;
    if (name !== undefined) next.name = name;
    saveTargets(
      ctx,
      user,
      (user.targets as Target[]).map((t) => (t.$id === target.$id ? next : t)),
    );
    return { status: 200, json: next };
  });
}

function deleteTarget(ctx: RequestContext): Reply {
  const { user, target } = loadTarget(ctx);
  saveTargets(
    ctx,
    user,
    (user.targets as Target[]).filter((t) => t.$id !== target.$id),
  );
  return { status: 204, empty: true };
}

/**
 * Users' messaging targets (OpenAPI `usersCreateTarget`…`usersDeleteTarget`; API key, scopes
 * `targets.read`/`targets.write`). Each user with an e-mail already has an `email` target
 * (`auth/new-user.ts`), as Appwrite creates one with the user.
 */
export function register(router: Router): void {
  router.add("POST", "/users/:userId/targets", "targets.write", createTarget);
  router.add("GET", "/users/:userId/targets", "targets.read", listTargets);
  router.add("GET", "/users/:userId/targets/:targetId", "targets.read", getTarget);
  router.add("PATCH", "/users/:userId/targets/:targetId", "targets.write", updateTarget);
  router.add("DELETE", "/users/:userId/targets/:targetId", "targets.write", deleteTarget);
}
