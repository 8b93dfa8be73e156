/**
 * What the signed-in user may do in the admin (issue #28 items 1–3): their studio role (owner, editor, or none
 * for an account outside the team), the Appwrite roles they hold, and whose items their lists show. Appwrite's
 * permissions decide every read and write; this only shapes what the admin offers (read-only forms, Edit and
 * Delete in lists, the Team page).
 */
import { data } from "react-router";
import { studioRoleOf } from "../../lib/appwrite/studio-team.ts";
import { heldRoles, isFromFiles, mayAct } from "../../lib/publish/item-permissions.ts";
import type { SignedInUser } from "../../server/auth/account.ts";
import type { StudioRole } from "../../model/team.ts";
import { getApiKeyServices } from "./appwrite.server.ts";
import type { ListScope } from "./admin-lists.server.ts";

/** A user's access: their studio role (null outside the team) and the roles they hold (`heldRoles`). */
export interface Access {
  role: StudioRole | null;
  held: string[];
}

/**
 * The access of `user`, looked up with the API key (the team's memberships).
 * @throws {AppwriteException} when Appwrite fails.
 */
export async function accessOf(user: SignedInUser): Promise<Access> {
  const role = await studioRoleOf(getApiKeyServices(), user.id);
  return { role, held: heldRoles(user.id, role) };
}

/** The lists' scope of `access` (`ListScope`): the team sees every item, anyone else their own. */
export function listScopeOf(user: SignedInUser, access: Access): ListScope {
  return access.role ? { held: access.held } : { owner: user.id, held: access.held };
}

/** Why an item is shown read-only: pushed from files (the team's), or another user's. */
export type ReadOnlyReason = "files" | "other";

/**
 * Null when `access` may change an item with `permissions`, else why not (issue #28 item 3: shown before any
 * typing, never as an error after saving).
 */
export function readOnlyReason(permissions: readonly string[], access: Pick<Access, "held">): ReadOnlyReason | null {
  if (mayAct(permissions, access.held, "update")) return null;
  return isFromFiles(permissions) ? "files" : "other";
}

/**
 * The 404 the admin answers someone who may not see a page, or a thing that does not exist (SECURITY C65: a
 * stranger learns nothing, not even that the page exists). It carries no message of its own, so the admin's
 * error screen (routes/admin/layout.tsx) says "Page Not Found" in the admin's language.
 */
export function pageNotFound() {
  return data(null, { status: 404 });
}

/**
 * The owner's access, or a 404 for anyone else (the Team page is the owner's: issue #28 item 2; a page that
 * does not exist for them, as Appwrite answers `team_not_found`).
 * @throws {Response} 404 when `user` is not the team's owner.
 */
export async function requireOwner(user: SignedInUser): Promise<Access> {
  const access = await accessOf(user);
  if (access.role !== "owner") throw pageNotFound();
  return access;
}
