import { AppwriteError, invalidParam } from "./errors.ts";
import type { Caller } from "./http/context.ts";

/** Permission actions; `write` is an alias expanded by `aggregatePermissions`. */
export type Action = "read" | "create" | "update" | "delete";

/** Actions a document or file accepts; collections and buckets accept `create` too ([UDB] `Database::PERMISSIONS`). */
export const RECORD_ACTIONS: readonly Action[] = ["read", "update", "delete"];
/** Actions a collection or bucket accepts. */
export const CONTAINER_ACTIONS: readonly Action[] = ["create", "read", "update", "delete"];

const PERMISSION = /^(read|create|update|delete|write)\("([^"]+)"\)$/;
const ROLE =
  /^(any|guests|users(\/(verified|unverified))?|user:[A-Za-z0-9][A-Za-z0-9._-]{0,35}(\/(verified|unverified))?|team:[A-Za-z0-9][A-Za-z0-9._-]{0,35}(\/[A-Za-z0-9._-]{1,81})?|member:[A-Za-z0-9][A-Za-z0-9._-]{0,35}|label:[A-Za-z0-9]{1,36})$/;

/**
 * Validate permission strings (`read("any")`, REFERENCE §6) and expand `write` into the
 * allowed subset of create/update/delete, dropping duplicates ([UDB] `Permission::aggregate`).
 * Throws 400 `general_argument_invalid` for a malformed permission, an unknown role, or an
 * action the resource does not accept.
 */
export function aggregatePermissions(permissions: readonly string[], allowed: readonly Action[]): string[] {
  const result: string[] = [];
  for (const permission of permissions) {
    const match = PERMISSION.exec(permission);
    if (!match) {
      throw invalidParam("permissions", `Invalid permission string format: "${permission}".`);
    }
    const [, action = "", role = ""] = match;
    if (!ROLE.test(role)) {
      throw invalidParam("permissions", `Role "${role}" is not allowed.`);
    }
    const actions =
      action === "write"
        ? (["create", "update", "delete"] as const).filter((a) => allowed.includes(a))
        : [action as Action];
    for (const a of actions) {
      if (!allowed.includes(a)) {
        throw invalidParam("permissions", `Permission "${a}" is not allowed. Must be one of: ${allowed.join(", ")}.`);
      }
      const text = `${a}("${role}")`;
      if (!result.includes(text)) result.push(text);
    }
  }
  return result;
}

/** Roles granted `action` by a list of (aggregated) permission strings. */
export function rolesFor(permissions: readonly string[], action: Action): string[] {
  const prefix = `${action}("`;
  return permissions.filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length, -2));
}

/** True when the caller holds a role that `permissions` grants `action` to. Keys always pass. */
export function isAllowed(caller: Caller, permissions: readonly string[], action: Action): boolean {
  if (caller.isKey) return true;
  return rolesFor(permissions, action).some((role) => caller.roles.includes(role));
}

/**
 * A non-key caller may only grant roles it holds (AW `Documents/Create.php` `setPermissions`).
 * Throws 401 `user_unauthorized` "Permissions must be one of: (…)" otherwise.
 */
export function assertGrantable(caller: Caller, permissions: readonly string[]): void {
  if (caller.isKey) return;
  for (const permission of permissions) {
    const role = /\("([^"]+)"\)$/.exec(permission)?.[1] ?? "";
    if (!caller.roles.includes(role)) {
      throw new AppwriteError("user_unauthorized", `Permissions must be one of: (${caller.roles.join(", ")})`);
    }
  }
}

/**
 * Permissions a record gets when the request names none (AW `Documents/Create.php`,
 * `Files/Create.php`): for a signed-in user, every record action for `user:<id>`
 * (`read`, `update`, `delete`); for API keys and guests, none (REFERENCE §6).
 */
export function defaultPermissions(caller: Caller): string[] {
  if (caller.isKey || !caller.user) return [];
  return RECORD_ACTIONS.map((action) => `${action}("user:${caller.user?.id}")`);
}
