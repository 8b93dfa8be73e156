/**
 * The studio team (issue #28; ARCHITECTURE "the studio team as an Appwrite team"): the people who run the site,
 * as one Appwrite team with the roles `owner` and `editor` (Appwrite Teams, memberships with roles). Items pushed
 * by `studio` belong to the team; the inbox (issue #31) is the team's. Plain data, so the browser may import it.
 */

/** The team's id, fixed so every process and `studio` name the same team (Appwrite team ids: ≤ 36 chars). */
export const STUDIO_TEAM_ID = "studio";

/** The team's display name in Appwrite's console. */
export const STUDIO_TEAM_NAME = "Studio";

/** Membership roles, most powerful first: the owner manages the team; editors edit every item. */
export const STUDIO_ROLES = ["owner", "editor"] as const;

/** One of `STUDIO_ROLES`. */
export type StudioRole = (typeof STUDIO_ROLES)[number];

/**
 * The Appwrite permission role string for the whole team (`team:studio`) or one of its roles
 * (`team:studio/owner`), as Appwrite's `Role.team(id, role)` writes it (Appwrite docs, "Permissions": roles).
 */
export function studioTeamRole(role?: StudioRole): string {
  return role ? `team:${STUDIO_TEAM_ID}/${role}` : `team:${STUDIO_TEAM_ID}`;
}

/** Whether `value` names a studio role (refuse anything else where a role comes from input). */
export function isStudioRole(value: unknown): value is StudioRole {
  return typeof value === "string" && (STUDIO_ROLES as readonly string[]).includes(value);
}
