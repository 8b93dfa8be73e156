/**
 * The Team page's reads and writes (issue #28 item 2; Appwrite Teams: memberships, invitations with a redirect
 * URL, roles). Changes are made with the owner's session, so Appwrite checks that they own the team; the
 * members are listed with the key (names and e-mails of pending invitees too). The team never loses its last
 * owner. Without mail (the embedded server), an invitation's link comes from the embedded server's key-only
 * `…/invitation` route, for the owner to copy.
 */
import { AppwriteException, Query, Teams, type Models } from "node-appwrite";
import { roleOfMembership } from "../../lib/appwrite/studio-team.ts";
import { createGuestServices } from "../../lib/appwrite/client.ts";
import { STUDIO_TEAM_ID, type StudioRole } from "../../model/team.ts";
import { appwriteLocation, getApiKeyServices } from "./appwrite.server.ts";
import { sessionServices } from "./admin.server.ts";

/** One row of the Team page. */
export interface TeamMember {
  membershipId: string;
  userId: string;
  name: string;
  email: string;
  /** The studio role it gives (a pending invitation: the role it will give). */
  role: StudioRole;
  pending: boolean;
}

/** Every membership of the studio team, confirmed members first. */
export async function listTeam(): Promise<TeamMember[]> {
  const teams = new Teams(getApiKeyServices().client);
  const page = await teams.listMemberships({ teamId: STUDIO_TEAM_ID, queries: [Query.limit(100)] });
  return page.memberships
    .map((m) => ({
      membershipId: m.$id,
      userId: m.userId,
      name: m.userName,
      email: m.userEmail,
      role: (m.roles.includes("owner") ? "owner" : "editor") as StudioRole,
      pending: !m.confirm,
    }))
    .sort((a, b) => Number(a.pending) - Number(b.pending));
}

/** A change the team refuses: the last owner would be demoted or removed. */
export class LastOwnerError extends Error {
  override name = "LastOwnerError";
  constructor() {
    super("The team must keep at least one owner.");
  }
}

/** Whether `membershipId` is the team's only confirmed owner. */
async function isLastOwner(membershipId: string): Promise<boolean> {
  const members = await listTeam();
  const owners = members.filter((m) => !m.pending && m.role === "owner");
  return owners.length === 1 && owners[0]!.membershipId === membershipId;
}

/** The owner's Teams service (their session: Appwrite checks the `owner` role). */
const ownerTeams = (secret: string) => new Teams(sessionServices(secret).client);

/**
 * Invites `email` with `role` (Appwrite `createMembership` with the redirect URL `acceptUrl`, which Appwrite's
 * e-mail carries with `membershipId`, `userId`, `secret` and `teamId`). Returns the invitation's link when the
 * embedded server keeps it (no mail can be sent), else null (Appwrite e-mailed it).
 * @throws {AppwriteException} from Appwrite: 401 not the owner, 409 already a member, 503
 * `general_smtp_disabled` (a real Appwrite without SMTP).
 */
export async function inviteMember(
  secret: string,
  email: string,
  role: StudioRole,
  acceptUrl: string,
): Promise<string | null> {
  const membership = await ownerTeams(secret).createMembership({
    teamId: STUDIO_TEAM_ID,
    roles: [role],
    email,
    url: acceptUrl,
  });
  return inviteLink(membership);
}

/** The kept link of a pending invitation (embedded server only), or null. */
export async function inviteLink(membership: Pick<Models.Membership, "$id" | "confirm">): Promise<string | null> {
  if (membership.confirm) return null;
  const { endpoint, projectId } = appwriteLocation();
  const { apiKey } = getApiKeyServices().target;
  const path = `/teams/${STUDIO_TEAM_ID}/memberships/${encodeURIComponent(membership.$id)}/invitation`;
  const response = await fetch(endpoint + path, {
    headers: { "X-Appwrite-Project": projectId, "X-Appwrite-Key": apiKey },
  }).catch(() => null);
  if (!response?.ok) return null;
  const body = (await response.json()) as { url?: unknown };
  return typeof body.url === "string" ? body.url : null;
}

/**
 * Gives member `membershipId` the role `role` (Appwrite `updateMembership`, as the owner).
 * @throws {LastOwnerError} when it would leave the team without an owner; {AppwriteException} from Appwrite.
 */
export async function changeRole(secret: string, membershipId: string, role: StudioRole): Promise<void> {
  if (role !== "owner" && (await isLastOwner(membershipId))) throw new LastOwnerError();
  await ownerTeams(secret).updateMembership({ teamId: STUDIO_TEAM_ID, membershipId, roles: [role] });
}

/**
 * Removes member or invitation `membershipId` (Appwrite `deleteMembership`, as the owner).
 * @throws {LastOwnerError} for the last owner; {AppwriteException} from Appwrite.
 */
export async function removeMember(secret: string, membershipId: string): Promise<void> {
  if (await isLastOwner(membershipId)) throw new LastOwnerError();
  await ownerTeams(secret).deleteMembership({ teamId: STUDIO_TEAM_ID, membershipId });
}

/** What an invitation link names (`/admin/join?membershipId=…&userId=…&secret=…&teamId=…`). */
export interface Invitation {
  membershipId: string;
  userId: string;
  secret: string;
}

/** The invitation of an accept URL's query, or null when it is not one of the studio team's. */
export function invitationOf(url: URL): Invitation | null {
  const get = (name: string) => url.searchParams.get(name) ?? "";
  const id = /^[A-Za-z0-9][A-Za-z0-9._-]{0,35}$/;
  const [membershipId, userId, secret] = [get("membershipId"), get("userId"), get("secret")];
  if (get("teamId") !== STUDIO_TEAM_ID || !id.test(membershipId) || !id.test(userId)) return null;
  if (!/^[A-Za-z0-9]{1,256}$/.test(secret)) return null;
  return { membershipId, userId, secret };
}

/**
 * The pending invitation `invitation` names, with the invitee's e-mail and whether their account has a
 * password yet (a new account created by the invitation has none), or null when it is gone or accepted.
 */
export async function pendingInvitation(
  invitation: Invitation,
): Promise<{ email: string; name: string; hasPassword: boolean } | null> {
  const services = getApiKeyServices();
  try {
    const membership = await new Teams(services.client).getMembership({
      teamId: STUDIO_TEAM_ID,
      membershipId: invitation.membershipId,
    });
    const studioRole = roleOfMembership({ ...membership, confirm: true });
    if (membership.confirm || membership.userId !== invitation.userId || studioRole === null) return null;
    const user = await services.users.get({ userId: invitation.userId });
    return { email: user.email, name: user.name, hasPassword: Boolean(user.passwordUpdate) };
  } catch (error) {
    if (error instanceof AppwriteException && error.code === 404) return null;
    throw error;
  }
}

/**
 * Accepts `invitation` (Appwrite `updateMembershipStatus` with its `userId` and `secret`), as the invitee's
 * session when they just signed in (`sessionSecret`), else as a guest holding the secret.
 * @throws {AppwriteException} 401 `team_invalid_secret` and the like for a wrong or used secret.
 */
export async function acceptInvitation(invitation: Invitation, sessionSecret?: string): Promise<void> {
  const client = sessionSecret ? sessionServices(sessionSecret).client : createGuestServices(appwriteLocation()).client;
  await new Teams(client).updateMembershipStatus({ teamId: STUDIO_TEAM_ID, ...invitation });
}
