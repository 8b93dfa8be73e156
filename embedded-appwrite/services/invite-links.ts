import { AppwriteError } from "../errors.ts";
import type { AppState, RequestContext } from "../http/context.ts";
import type { Reply } from "../http/router.ts";

/**
 * Invitation links of pending memberships (a deviation, docs/emulator.md "Teams"): Appwrite e-mails the invitee
 * `url?membershipId=…&userId=…&secret=…&teamId=…`; the embedded server sends no membership e-mail, so it keeps
 * that link in memory and gives it to the API key only (`GET …/memberships/{membershipId}/invitation`), for a
 * site to show its owner to copy (issue #28 item 2). Kept until accepted, deleted, renewed or the server stops.
 */
const links = new WeakMap<AppState, Map<string, string>>();

function linksOf(app: AppState): Map<string, string> {
  let map = links.get(app);
  if (!map) links.set(app, (map = new Map()));
  return map;
}

/** Keeps the link of a pending invitation, as Appwrite's invitation e-mail would carry it. */
export function keepInviteLink(
  app: AppState,
  invite: { url: string; membershipId: string; userId: string; secret: string; teamId: string },
): void {
  const link = new URL(invite.url);
  link.searchParams.set("membershipId", invite.membershipId);
  link.searchParams.set("userId", invite.userId);
  link.searchParams.set("secret", invite.secret);
  link.searchParams.set("teamId", invite.teamId);
  linksOf(app).set(invite.membershipId, link.toString());
}

/** Forgets the link of `membershipId` (accepted, deleted). */
export function dropInviteLink(app: AppState, membershipId: string): void {
  linksOf(app).delete(membershipId);
}

/**
 * `GET /teams/{teamId}/memberships/{membershipId}/invitation` (embedded only, API key only): `{url}`, the
 * pending invitation's link; 404 `membership_not_found` when none is kept; 401 `user_unauthorized` for a
 * session or a guest.
 */
export function getInviteLink(ctx: RequestContext): Reply {
  if (!ctx.caller.isKey) throw new AppwriteError("user_unauthorized");
  const url = linksOf(ctx.app).get(ctx.params.membershipId ?? "");
  if (!url) throw new AppwriteError("membership_not_found");
  return { status: 200, json: { url } };
}
