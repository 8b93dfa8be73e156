import { signJwt } from "../auth/jwt.ts";
import { nowDatetime } from "../datetime.ts";
import { createSession, deleteSessions, findSession, listSessions, sessionModel } from "../db/sessions.ts";
import { updateUser } from "../db/users.ts";
import { AppwriteError } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { intParam, pathParam, stringParam } from "../http/params.ts";
import type { Reply, Router } from "../http/router.ts";
import { loadUser } from "./users.ts";

function list(ctx: RequestContext): Reply {
  const sessions = listSessions(ctx.app.store, loadUser(ctx).seq).map((s) => sessionModel(s, { current: false }));
  return { status: 200, json: { total: sessions.length, sessions } };
}

/**
 * `POST /users/{userId}/sessions`: 201 Session (provider `server`) whose `secret` is the encoded
 * session value, usable with `setSession` (REFERENCE §4 "Users", §5 SSR). Sets no cookies.
 */
function create(ctx: RequestContext): Reply {
  const user = loadUser(ctx);
  const { session, secret } = createSession(ctx.app.store, user, {
    provider: "server",
    providerUid: "",
    ip: ctx.caller.ip,
    durationSeconds: ctx.app.sessionDuration,
    factor: "server",
  });
  updateUser(ctx.app.store, user.seq, { accessedAt: session.createdAt }, nowDatetime());
  return { status: 201, json: sessionModel(session, { current: false, secret }) };
}

function removeAll(ctx: RequestContext): Reply {
  deleteSessions(ctx.app.store, loadUser(ctx).seq);
  return { status: 204, empty: true };
}

function removeOne(ctx: RequestContext): Reply {
  if (deleteSessions(ctx.app.store, loadUser(ctx).seq, { id: pathParam(ctx, "sessionId") }) === 0) {
    throw new AppwriteError("user_session_not_found");
  }
  return { status: 204, empty: true };
}

/**
 * `POST /users/{userId}/jwts` `{sessionId?, duration?}`: 201 `{jwt}` for the given session, or
 * the user's newest one; `duration` 0–3600 s (default 900). 404 `user_session_not_found` when
 * the user has no such session.
 */
async function createJwt(ctx: RequestContext): Promise<Reply> {
  const user = loadUser(ctx);
  const body = await ctx.body();
  const duration = intParam(body, "duration", 900, { min: 0, max: 3600 }) ?? 900;
  const requested = stringParam(body, "sessionId", { max: 36 });
  const session =
    requested && requested !== "recent"
      ? findSession(ctx.app.store, user.seq, requested)
      : listSessions(ctx.app.store, user.seq).at(-1);
  if (!session) throw new AppwriteError("user_session_not_found");
  return { status: 201, json: { jwt: signJwt(ctx.app.jwtKey, user.id, session.id, duration) } };
}

/** Sessions and JWTs of a user for API-key callers (REFERENCE §4 "Users"). */
export function register(router: Router): void {
  router.add("GET", "/users/:userId/sessions", "users.read", list);
  router.add("POST", "/users/:userId/sessions", "users.write", create);
  router.add("DELETE", "/users/:userId/sessions", "users.write", removeAll);
  router.add("DELETE", "/users/:userId/sessions/:sessionId", "users.write", removeOne);
  router.add("POST", "/users/:userId/jwts", "users.write", createJwt);
}
