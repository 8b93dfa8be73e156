/**
 * The studio team in Appwrite (issue #28 item 1; ARCHITECTURE 11; `model/team.ts`): created by the schema step
 * (`studio setup`, `npm start`) when missing, its first owner named, and a user's role in it looked up. All
 * with the server API key (Appwrite Teams service: `teams.read`, `teams.write`).
 */
import { AppwriteException, Query, Teams, type Models } from "node-appwrite";
import { isStudioRole, STUDIO_TEAM_ID, STUDIO_TEAM_NAME, type StudioRole } from "../../model/team.ts";
import type { AdminServices } from "./client.ts";
import { studioMembership } from "./team-membership.ts";

const teamsOf = (services: Pick<AdminServices, "client">) => new Teams(services.client);

/**
 * Creates the studio team (`STUDIO_TEAM_ID`, roles `owner` and `editor`) unless it exists.
 * @returns true when it was created now.
 * @throws {AppwriteException} when Appwrite refuses (a key without the `teams.write` scope: 401).
 */
export async function ensureStudioTeam(services: Pick<AdminServices, "client">): Promise<boolean> {
  const teams = teamsOf(services);
  try {
    await teams.get({ teamId: STUDIO_TEAM_ID });
    return false;
  } catch (error) {
    if (!(error instanceof AppwriteException && error.code === 404)) throw error;
  }
  try {
    await teams.create({ teamId: STUDIO_TEAM_ID, name: STUDIO_TEAM_NAME, roles: ["owner"] });
    return true;
  } catch (error) {
    // Another process created it first.
    if (error instanceof AppwriteException && error.code === 409) return false;
    throw error;
  }
}

/**
 * The studio role of a membership: `owner` when its roles hold it, else `editor`; null for a pending one (an
 * invitation not accepted yet gives no rights, as in Appwrite).
 */
export function roleOfMembership(membership: Pick<Models.Membership, "roles" | "confirm">): StudioRole | null {
  if (!membership.confirm) return null;
  if (membership.roles.includes("owner")) return "owner";
  return membership.roles.some(isStudioRole) ? "editor" : null;
}

/**
 * The studio role of user `userId` (a confirmed membership of the team), or null for an account outside it
 * (or while the team does not exist).
 * @throws {AppwriteException} when Appwrite fails otherwise (5xx, unreachable).
 */
export async function studioRoleOf(
  services: Pick<AdminServices, "client">,
  userId: string,
): Promise<StudioRole | null> {
  // One rule for "who is in the team" (the inbox asks it too): a confirmed membership (`team-membership.ts`).
  const membership = await studioMembership(services.client, userId);
  return membership ? roleOfMembership({ roles: membership.roles, confirm: true }) : null;
}

/**
 * Names the team's first owner when it has no member yet (issue #28 item 1): the account with e-mail
 * `ownerEmail` (`STUDIO_OWNER_EMAIL`, for a site starting on an Appwrite with users already), else the first
 * account ever registered (the oldest user). Joins at once (a membership created with the key is confirmed).
 * @returns the new owner's user id, or null when the team has members already or no account qualifies yet.
 * @throws {AppwriteException} when Appwrite refuses.
 */
export async function claimFirstOwner(
  services: Pick<AdminServices, "client" | "users">,
  ownerEmail?: string,
): Promise<string | null> {
  await ensureStudioTeam(services);
  const teams = teamsOf(services);
  const members = await teams.listMemberships({ teamId: STUDIO_TEAM_ID, queries: [Query.limit(1)] });
  if (members.total > 0) return null;
  const email = ownerEmail?.trim().toLowerCase();
  const queries = email
    ? [Query.equal("email", email), Query.limit(1)]
    : [Query.orderAsc("$createdAt"), Query.limit(1)];
  const users = await services.users.list({ queries });
  const owner = users.users[0];
  if (!owner || !owner.email) return null;
  try {
    await teams.createMembership({ teamId: STUDIO_TEAM_ID, roles: ["owner"], userId: owner.$id });
  } catch (error) {
    // Two sign-ins at once: the other one named the owner.
    if (error instanceof AppwriteException && error.code === 409) return null;
    throw error;
  }
  return owner.$id;
}
