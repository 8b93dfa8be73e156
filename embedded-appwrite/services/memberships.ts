import { timingSafeEqual } from "node:crypto";
import { createUserRecord, emailParam, phoneParam } from "../auth/new-user.ts";
import { nowDatetime } from "../datetime.ts";
import { runList } from "../db/list.ts";
import type { Condition } from "../db/list.ts";
import {
  findMembership,
  findMembershipOf,
  hashInviteSecret,
  membershipModel,
  newInviteSecret,
  toMembership,
} from "../db/teams.ts";
import type { MembershipRecord, TeamRecord, TeamRow } from "../db/teams.ts";
import { findUser, findUserByEmail } from "../db/users.ts";
import type { UserRecord } from "../db/users.ts";
import { AppwriteError, invalidParam, missingParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { originAllowed } from "../http/handle.ts";
import { isUid, pathParam, queriesParam, searchParam, stringParam, totalParam } from "../http/params.ts";
import type { Reply, Router } from "../http/router.ts";
import { uniqueId } from "../ids.ts";
import { compileQueries, SYSTEM_QUERY_FIELDS } from "../queries.ts";
import type { QuerySchema } from "../queries.ts";
import { publishMembership } from "../realtime/team-events.ts";
import { acceptInvitation } from "./membership-status.ts";
import { dropInviteLink, getInviteLink, keepInviteLink } from "./invite-links.ts";
import { isTeamOwner, loadTeam, rolesParam } from "./teams.ts";
import { loadUser } from "./users.ts";

const MEMBERSHIP_QUERIES: QuerySchema = {
  fields: new Map([
    ...SYSTEM_QUERY_FIELDS,
    ["userId", { column: "user_id", type: "string" }],
    ["teamId", { column: "team_id", type: "string" }],
    ["invited", { column: "invited", type: "datetime" }],
    ["joined", { column: "joined", type: "datetime" }],
    ["confirm", { column: "confirm", type: "boolean" }],
    ["roles", { column: "roles", type: "string", array: true }],
  ]),
  selectable: false,
};

function uidParam(body: Record<string, unknown>, name: string): string | undefined {
  const value = stringParam(body, name, { max: 36 });
  if (value === undefined || value === "") return undefined;
  if (!isUid(value)) {
    throw invalidParam(
      name,
      "Parameter must contain at most 36 chars. Valid chars are a-z, A-Z, 0-9, period, hyphen, and underscore. Can't start with a special char",
    );
  }
  return value;
}

/** The invitation's redirect URL: http(s) on a trusted host (loopback or `allowedOrigins`, like AW platforms). */
function urlParam(ctx: RequestContext, body: Record<string, unknown>): string | undefined {
  const value = stringParam(body, "url", { max: 2048 });
  if (value === undefined || value === "") return undefined;
  let origin = "";
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") origin = url.origin;
  } catch {
    origin = "";
  }
  if (origin === "" || !originAllowed(ctx.app, origin)) {
    const hosts = ["localhost", ...[...ctx.app.allowedOrigins].map((o) => new URL(o).hostname)];
    throw invalidParam("url", `URL host must be one of: ${hosts.join(", ")}`);
  }
  return value;
}

/** The membership of path parameter `membershipId` in `team`; 404 `membership_not_found` otherwise. */
function loadMembership(ctx: RequestContext, team: TeamRecord): MembershipRecord {
  const membership = findMembership(ctx.app.store, pathParam(ctx, "membershipId"));
  if (!membership || membership.teamSeq !== team.seq) throw new AppwriteError("membership_not_found");
  return membership;
}

/**
 * Find the invitee as AW does (user ID, then email, then phone; 404 `user_not_found` for an unknown ID,
 * 409 `user_already_exists` when the ID or email does not match the other fields given), or create
 * one with that email/phone and `name` (default: the email).
 */
async function invitee(
  ctx: RequestContext,
  given: { userId?: string; email: string | null; phone: string | null; name?: string },
): Promise<UserRecord> {
  const store = ctx.app.store;
  const { email, phone } = given;
  let user: UserRecord | undefined;
  if (given.userId !== undefined) {
    user = findUser(store, given.userId);
    if (!user) throw new AppwriteError("user_not_found", "User with given userId doesn't exist.");
    if (email !== null && user.email !== email)
      throw new AppwriteError("user_already_exists", "Given userId and email doesn't match");
    if (phone !== null && user.phone !== phone)
      throw new AppwriteError("user_already_exists", "Given userId and phone doesn't match");
    return user;
  }
  if (email !== null) {
    user = findUserByEmail(store, email);
    if (user && phone !== null && user.phone !== phone) {
      throw new AppwriteError("user_already_exists", "Given email and phone doesn't match");
    }
  } else if (phone !== null) {
    const row = store.stmt("SELECT id FROM users WHERE phone = ?").get(phone) as { id: string } | undefined;
    user = row ? findUser(store, row.id) : undefined;
  }
  return user ?? createUserRecord(store, { id: uniqueId(), email, phone, name: given.name || (email ?? "") });
}

/**
 * `POST /teams/{teamId}/memberships` (AW `Memberships/Create.php`): 201 Membership. With an API key
 * the user joins at once (`confirm: true`); from a session only a team owner may invite (401
 * `user_unauthorized`), `url` is required and must be on a trusted host, and the membership stays
 * pending (`confirm: false`, `joined: ""`) until the invitee accepts with the secret
 * (`PATCH …/status`). The emulator sends no e-mail and never returns the secret. Inviting someone
 * already confirmed → 409 `membership_already_confirmed`; re-inviting a pending one renews the secret.
 */
async function createMembership(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  const email = emailParam(body);
  const userId = uidParam(body, "userId");
  const phone = phoneParam(body);
  const roles = rolesParam(body);
  if (roles === undefined) throw missingParam("roles");
  const url = urlParam(ctx, body);
  const name = stringParam(body, "name", { max: 128 });
  const privileged = ctx.caller.isKey;
  if (url === undefined && !privileged) throw new AppwriteError("general_argument_invalid", "URL is required");
  if (userId === undefined && email === null && phone === null) {
    throw new AppwriteError("general_argument_invalid", "At least one of userId, email, or phone is required");
  }
  const team = loadTeam(ctx);
  if (!isTeamOwner(ctx, team.id)) {
    throw new AppwriteError("user_unauthorized", "User is not allowed to send invitations for this team");
  }
  const user = await invitee(ctx, { userId, email, phone, name });
  const store = ctx.app.store;
  const now = nowDatetime();
  const secret = newInviteSecret();
  const secretHash = hashInviteSecret(secret);
  const existing = findMembershipOf(store, team.seq, user.seq);
  if (existing?.confirm) throw new AppwriteError("membership_already_confirmed");
  const id = existing?.id ?? uniqueId();
  if (existing) {
    store
      .stmt(
        "UPDATE memberships SET secret_hash = ?, invited = ?, joined = CASE WHEN ? THEN ? ELSE joined END, confirm = ?, updated_at = ? WHERE seq = ?",
      )
      .run(secretHash, now, privileged ? 1 : 0, now, privileged ? 1 : 0, now, existing.seq);
  } else {
    store
      .stmt(
        "INSERT INTO memberships (id, team_seq, user_seq, roles, invited, joined, confirm, secret_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(
        id,
        team.seq,
        user.seq,
        JSON.stringify(roles),
        now,
        privileged ? now : "",
        privileged ? 1 : 0,
        secretHash,
        now,
        now,
      );
  }
  const model = membershipModel(findMembership(store, id) as MembershipRecord);
  // No e-mail leaves the embedded server: the link it would carry is kept for the key (`invite-links.ts`).
  if (!privileged && url) {
    keepInviteLink(ctx.app, { url, membershipId: id, userId: user.id, secret, teamId: team.id });
  }
  publishMembership(ctx.app.events, model, "create");
  return { status: 201, json: model };
}

function listScoped(ctx: RequestContext, scope: Condition): Reply {
  const q = compileQueries(queriesParam(ctx), MEMBERSHIP_QUERIES);
  const search = searchParam(ctx);
  const conditions: Condition[] = [scope];
  for (const word of (search ?? "").split(/\s+/).filter((w) => w !== "")) {
    const like = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push({ sql: `id LIKE ? ESCAPE '\\' OR user_id LIKE ? ESCAPE '\\'`, params: [like, like] });
  }
  const { rows, total } = ctx.app.store.read(() =>
    runList<TeamRow>(
      ctx.app.store,
      {
        table: "membership_view",
        columns: "*",
        idColumn: "id",
        seqColumn: "seq",
        scope: conditions,
        noun: "Membership",
      },
      q,
      totalParam(ctx),
    ),
  );
  return { status: 200, json: { total, memberships: rows.map((row) => membershipModel(toMembership(row))) } };
}

/** `GET /teams/{teamId}/memberships`: 200 MembershipList (pending ones included); team members and API keys. */
function listMemberships(ctx: RequestContext): Reply {
  return listScoped(ctx, { sql: "team_seq = ?", params: [loadTeam(ctx).seq] });
}

/** `GET /users/{userId}/memberships` (API key): 200 MembershipList of the user's memberships. */
function listUserMemberships(ctx: RequestContext): Reply {
  return listScoped(ctx, { sql: "user_seq = ?", params: [loadUser(ctx).seq] });
}

function getMembership(ctx: RequestContext): Reply {
  return { status: 200, json: membershipModel(loadMembership(ctx, loadTeam(ctx))) };
}

/** `PATCH /teams/{teamId}/memberships/{membershipId}`: replace the roles; owners and API keys only. */
async function updateMembership(ctx: RequestContext): Promise<Reply> {
  const roles = rolesParam(await ctx.body());
  if (roles === undefined) throw missingParam("roles");
  const team = loadTeam(ctx);
  const membership = loadMembership(ctx, team);
  if (!isTeamOwner(ctx, team.id)) throw new AppwriteError("user_unauthorized", "User is not allowed to modify roles");
  ctx.app.store
    .stmt("UPDATE memberships SET roles = ?, updated_at = ? WHERE seq = ?")
    .run(JSON.stringify(roles), nowDatetime(), membership.seq);
  const model = membershipModel(findMembership(ctx.app.store, membership.id) as MembershipRecord);
  publishMembership(ctx.app.events, model, "update");
  return { status: 200, json: model };
}

/**
 * `DELETE /teams/{teamId}/memberships/{membershipId}`: 204. The member themself (leaving), a team owner
 * or an API key (the membership's `delete` permissions); anyone else → 401 `user_unauthorized`. An
 * unknown membership → 404 `team_invite_not_found`, one of another team → 404 `team_membership_mismatch`
 * (AW `Memberships/Delete.php`).
 */
function deleteMembership(ctx: RequestContext): Reply {
  const membership = findMembership(ctx.app.store, pathParam(ctx, "membershipId"));
  if (!membership) throw new AppwriteError("team_invite_not_found");
  const team = loadTeam(ctx);
  if (membership.teamSeq !== team.seq) throw new AppwriteError("team_membership_mismatch");
  if (!isTeamOwner(ctx, team.id) && ctx.caller.user?.id !== membership.userId) {
    throw new AppwriteError("user_unauthorized");
  }
  ctx.app.store.stmt("DELETE FROM memberships WHERE seq = ?").run(membership.seq);
  publishMembership(ctx.app.events, membershipModel(membership), "delete");
  dropInviteLink(ctx.app, pathParam(ctx, "membershipId"));
  return { status: 204, empty: true };
}

/** Accept with the secret: see `membership-status.ts`. */
async function updateStatus(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  const userId = stringParam(body, "userId", { required: true, max: 36 });
  const secret = stringParam(body, "secret", { required: true, max: 256 });
  const membership = findMembership(ctx.app.store, pathParam(ctx, "membershipId"));
  if (!membership) throw new AppwriteError("membership_not_found");
  const reply = acceptInvitation(ctx, membership, { userId, matches: (hash) => sameHash(hash, secret) });
  dropInviteLink(ctx.app, membership.id);
  return reply;
}

function sameHash(stored: string, secret: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(hashInviteSecret(secret));
  return stored !== "" && a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Team memberships (REFERENCE §4 "Teams"; AW `Modules/Teams/Http/Memberships`): invite, list, get,
 * update roles, delete, accept (`status`, which needs no scope: a guest with the secret accepts and is
 * signed in), and the API key's `GET /users/{userId}/memberships`.
 */
export function register(router: Router): void {
  router.add("POST", "/teams/:teamId/memberships", "teams.write", createMembership);
  router.add("GET", "/teams/:teamId/memberships", "teams.read", listMemberships);
  router.add("GET", "/teams/:teamId/memberships/:membershipId", "teams.read", getMembership);
  router.add("PATCH", "/teams/:teamId/memberships/:membershipId", "teams.write", updateMembership);
  router.add("DELETE", "/teams/:teamId/memberships/:membershipId", "teams.write", deleteMembership);
  router.add("PATCH", "/teams/:teamId/memberships/:membershipId/status", "project", updateStatus);
  router.add("GET", "/teams/:teamId/memberships/:membershipId/invitation", "teams.read", getInviteLink);
  router.add("GET", "/users/:userId/memberships", "users.read", listUserMemberships);
}
