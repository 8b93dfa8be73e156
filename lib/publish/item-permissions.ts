/**
 * Who may change a venture or post, as Appwrite permission strings (issue #28 item 1, decision 0017): the
 * studio team (`team:studio`, `model/team.ts`) on every item, and the creating user on an item made in the
 * admin. Read permission follows the state (`statePermissions` in `writer.ts`): `read("any")` when published,
 * else only the item's editors (the roles holding `update`), never every signed-in user.
 */
import { Permission, Role } from "node-appwrite";
import { STUDIO_TEAM_ID, type StudioRole } from "../../model/team.ts";

/** The team's role string, as `Role.team` writes it (`team:studio`). */
export const STUDIO_TEAM = Role.team(STUDIO_TEAM_ID);

/** The roles that never make a principal an editor: guests, everyone, every signed-in user. */
const OPEN_ROLES = new Set(["any", "guests", "users"]);

/**
 * The editor roles of an item with `permissions`: every role granted `update`, except the open ones (`any`,
 * `guests`, `users`). E.g. `["team:studio", "user:abc"]`.
 */
export function editorRolesOf(permissions: readonly string[]): string[] {
  const roles = permissions.flatMap((p) => {
    const match = /^update\("(.+)"\)$/.exec(p);
    return match?.[1] && !OPEN_ROLES.has(match[1]) ? [match[1]] : [];
  });
  return [...new Set(roles)];
}

/**
 * `permissions` with `update` and `delete` for the studio team added when missing (the team edits every
 * item: ARCHITECTURE 11). Idempotent; order of the others kept.
 */
export function withStudioTeam(permissions: readonly string[]): string[] {
  const wanted = [Permission.update(STUDIO_TEAM), Permission.delete(STUDIO_TEAM)];
  return [...permissions, ...wanted.filter((p) => !permissions.includes(p))];
}

/**
 * The permissions of an item created in the admin by `userId` (spec §3 "update and delete by the creating
 * user", extended by decision 0017 with the studio team). The writer adds the state's read permission.
 */
export function creatorPermissions(userId: string): string[] {
  return withStudioTeam([Permission.update(Role.user(userId)), Permission.delete(Role.user(userId))]);
}

/**
 * The Appwrite roles a signed-in user holds for permission checks (Appwrite docs "Permissions"): `any`,
 * `users`, `user:<id>`, and for a confirmed member of the studio team `team:studio` and `team:studio/<role>`.
 */
export function heldRoles(userId: string, studioRole: StudioRole | null): string[] {
  const roles = [Role.any(), Role.users(), Role.user(userId)];
  if (studioRole) roles.push(STUDIO_TEAM, Role.team(STUDIO_TEAM_ID, studioRole));
  return roles;
}

/** Whether a principal holding `held` (`heldRoles`) may `action` an item with `permissions`. */
export function mayAct(permissions: readonly string[], held: readonly string[], action: "update" | "delete"): boolean {
  return held.some((role) => permissions.includes(`${action}("${role}")`));
}

/**
 * Whether an item with `permissions` was written by `studio` from files: no user holds `update` on it, only
 * the team (or nobody, before the team existed). The admin says so when it shows the item read-only.
 */
export function isFromFiles(permissions: readonly string[]): boolean {
  return !editorRolesOf(permissions).some((role) => role.startsWith("user:"));
}

/**
 * Whether two rows are edited by the same roles (`editorRolesOf`): the test of "a language version joins an
 * item only when its author may edit the item" (issue #28 item 5). The admin and `studio` write every version
 * of an item with the item's editors; a row written around the product by anyone else has other editors.
 */
export function sameEditors(a: readonly string[], b: readonly string[]): boolean {
  const x = editorRolesOf(a).sort();
  const y = editorRolesOf(b).sort();
  return x.length === y.length && x.every((role, i) => role === y[i]);
}
