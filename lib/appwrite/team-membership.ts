/**
 * Who is in the studio team (issue #28 contract `model/team.ts`; issue #31: "the inbox is the team's"): a
 * user is a member when they hold a confirmed membership of team `STUDIO_TEAM_ID` (Appwrite Teams). The one
 * place that answers it, so the roles work (#28) can reuse or replace it: both the site (API key) and
 * `studio` (API key or a member's session) call `studioMembership`.
 */
import { AppwriteException, Query, Teams, type Client } from "node-appwrite";
import { STUDIO_TEAM_ID, isStudioRole, type StudioRole } from "../../model/team.ts";

/** A confirmed membership of the studio team: the user and their studio roles (`owner`, `editor`). */
export interface StudioMembership {
  userId: string;
  roles: StudioRole[];
}

/** Appwrite's answers that mean "no such team, or not yours to see": not a member, never an outage. */
function isAbsence(error: unknown): boolean {
  return error instanceof AppwriteException && (error.code === 404 || error.code === 401 || error.code === 403);
}

/**
 * The studio membership of `userId`, or null when they have none, it is not confirmed yet (an invitation
 * not accepted), or the team does not exist. `client` is an API-key client, or the user's own session client
 * (Appwrite lets a member list their team's memberships; a stranger gets 404, read as null).
 * @throws {AppwriteException} when Appwrite fails otherwise (5xx, unreachable): never read as "not a member"
 *   silently, the caller shows an error.
 */
export async function studioMembership(client: Client, userId: string): Promise<StudioMembership | null> {
  try {
    const list = await new Teams(client).listMemberships({
      teamId: STUDIO_TEAM_ID,
      queries: [Query.equal("userId", userId), Query.limit(5)],
    });
    const membership = list.memberships.find((m) => m.userId === userId && m.confirm);
    return membership ? { userId, roles: membership.roles.filter(isStudioRole) } : null;
  } catch (error) {
    if (isAbsence(error)) return null;
    throw error;
  }
}

/**
 * The ids of every confirmed member of the studio team (the team notice's recipients, issue #31 item 3), in
 * Appwrite's order; empty when the team does not exist. `client` is an API-key client.
 * @throws {AppwriteException} when Appwrite fails otherwise.
 */
export async function studioMemberIds(client: Client): Promise<string[]> {
  const ids: string[] = [];
  try {
    for (let offset = 0; ; offset += 100) {
      const page = await new Teams(client).listMemberships({
        teamId: STUDIO_TEAM_ID,
        queries: [Query.limit(100), Query.offset(offset)],
      });
      ids.push(...page.memberships.filter((m) => m.confirm).map((m) => m.userId));
      if (page.memberships.length < 100) return ids;
    }
  } catch (error) {
    if (isAbsence(error)) return ids;
    throw error;
  }
}
