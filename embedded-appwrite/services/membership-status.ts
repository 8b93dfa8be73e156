import { sessionHeaders } from "../auth/transport.ts";
import { nowDatetime } from "../datetime.ts";
import { createSession, encodeSession } from "../db/sessions.ts";
import { findMembership, findTeam, membershipModel } from "../db/teams.ts";
import type { MembershipRecord } from "../db/teams.ts";
import { findUser, updateUser } from "../db/users.ts";
import { AppwriteError } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import type { Reply } from "../http/router.ts";
import { publishMembership } from "../realtime/team-events.ts";

/**
 * `PATCH /teams/{teamId}/memberships/{membershipId}/status` (AW `Memberships/Status/Update.php`): accept
 * an invitation. Checks, in AW's order: the team exists (404 `team_not_found`), the membership belongs
 * to it (404 `team_membership_mismatch`), `matches(secretHash)` (401 `team_invalid_secret`), `userId`
 * is the invitee and so is the signed-in user if any (401 `team_invite_mismatch`), not yet confirmed
 * (409 `membership_already_confirmed`). Then the membership is confirmed (`joined` = now), the user's
 * email counts as verified, and a caller without a session gets a new one for the invitee (cookies and
 * `X-Fallback-Cookies`, as a login does). Answers 200 Membership.
 */
export function acceptInvitation(
  ctx: RequestContext,
  membership: MembershipRecord,
  given: { userId: string; matches: (secretHash: string) => boolean },
): Reply {
  const store = ctx.app.store;
  const team = findTeam(store, ctx.params["teamId"] ?? "");
  if (!team) throw new AppwriteError("team_not_found");
  if (membership.teamSeq !== team.seq) throw new AppwriteError("team_membership_mismatch");
  if (!given.matches(membership.secretHash)) throw new AppwriteError("team_invalid_secret");
  const signedIn = ctx.caller.isKey ? undefined : ctx.caller.user;
  const mismatch = () =>
    new AppwriteError("team_invite_mismatch", `Invite does not belong to current user (${signedIn?.email ?? ""})`);
  if (given.userId !== membership.userId) throw mismatch();
  if (signedIn && signedIn.seq !== membership.userSeq) throw mismatch();
  if (membership.confirm) throw new AppwriteError("membership_already_confirmed");
  const user = findUser(store, membership.userId);
  if (!user) throw new AppwriteError("user_not_found");
  const now = nowDatetime();
  store.transaction(() => {
    store
      .stmt("UPDATE memberships SET confirm = 1, joined = ?, updated_at = ? WHERE seq = ?")
      .run(now, now, membership.seq);
    updateUser(store, user.seq, { emailVerification: true }, now);
  });
  if (!signedIn) {
    const { session, secret } = createSession(store, user, {
      provider: "email",
      providerUid: user.email ?? "",
      ip: ctx.caller.ip,
      durationSeconds: ctx.app.sessionDuration,
      factor: "email",
    });
    Object.assign(
      ctx.headers,
      sessionHeaders(ctx.app, ctx.req, { value: encodeSession(user.id, secret), expire: session.expire }),
    );
  }
  const model = membershipModel(findMembership(store, membership.id) as MembershipRecord);
  publishMembership(ctx.app.events, model, "update.status");
  return { status: 200, json: model };
}
