import { createUserRecord, emailParam } from "../auth/new-user.ts";
import { signJwt } from "../auth/jwt.ts";
import { hashPassword, passwordParam, verifyPassword } from "../auth/passwords.ts";
import { sessionHeaders } from "../auth/transport.ts";
import { nowDatetime } from "../datetime.ts";
import {
  createSession,
  deleteSessions,
  encodeSession,
  findSession,
  listSessions,
  sessionModel,
} from "../db/sessions.ts";
import type { SessionRecord } from "../db/sessions.ts";
import { accountModel, findUser, findUserByEmail, updateUser } from "../db/users.ts";
import type { UserRecord } from "../db/users.ts";
import { AppwriteError, invalidParam, missingParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { customIdParam, intParam, pathParam, stringParam } from "../http/params.ts";
import type { Reply, Router } from "../http/router.ts";

/** The signed-in user; the `account` scope guarantees one (REFERENCE §4 "Account"). */
function me(ctx: RequestContext): UserRecord {
  const user = ctx.caller.user;
  if (!user) throw new AppwriteError("general_unauthorized_scope");
  return user;
}

function rateLimit(ctx: RequestContext, limiter: "loginLimiter" | "signupLimiter", key: string): void {
  if (ctx.caller.isKey) return;
  const verdict = ctx.app[limiter].hit(key);
  Object.assign(ctx.headers, verdict.headers);
  if (!verdict.allowed) throw new AppwriteError("general_rate_limit_exceeded");
}

/**
 * Start a session for `user`, set Appwrite's cookies and `X-Fallback-Cookies`, and answer 201
 * Session with `current: true`; `secret` is filled only for API-key callers (REFERENCE §5).
 */
function startSession(ctx: RequestContext, user: UserRecord, provider: "email" | "anonymous"): Reply {
  const { session, secret } = createSession(ctx.app.store, user, {
    provider,
    providerUid: provider === "email" ? (user.email ?? "") : "",
    ip: ctx.caller.ip,
    durationSeconds: ctx.app.sessionDuration,
    factor: provider === "email" ? "password" : "anonymous",
  });
  updateUser(ctx.app.store, user.seq, { accessedAt: session.createdAt }, nowDatetime());
  Object.assign(
    ctx.headers,
    sessionHeaders(ctx.app, ctx.req, { value: encodeSession(user.id, secret), expire: session.expire }),
  );
  return {
    status: 201,
    json: sessionModel(session, { current: true, secret: ctx.caller.isKey ? secret : undefined }),
  };
}

function refuseActiveSession(ctx: RequestContext): void {
  if (ctx.caller.user) throw new AppwriteError("user_session_already_exists");
}

/**
 * `POST /account`: 201 Account. Password 8–256 chars (400); a taken ID or email → 409
 * `user_already_exists`; more than 10 sign-ups per IP per hour → 429 (non-key callers).
 */
async function createAccount(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  const id = customIdParam(body, "userId");
  const email = emailParam(body);
  if (email === null) throw missingParam("email");
  const password = passwordParam(body, "password", true);
  const name = stringParam(body, "name", { max: 128 }) ?? "";
  rateLimit(ctx, "signupLimiter", `ip:${ctx.caller.ip}`);
  const user = await createUserRecord(
    ctx.app.store,
    { id, email, phone: null, password, name },
    ctx.app.passwordHashing,
  );
  return { status: 201, json: accountModel(user) };
}

/**
 * `POST /account/sessions/email`: email lowercased; unknown email or wrong password → 401
 * `user_invalid_credentials`; blocked → 403 `user_blocked`; a caller already signed in → 401
 * `user_session_already_exists`. Abuse limit: the 11th request for one email within an hour →
 * 429 `general_rate_limit_exceeded`; a success resets the count; API keys are exempt
 * (AW `account.php`; SECURITY C13).
 */
async function createEmailSession(ctx: RequestContext): Promise<Reply> {
  refuseActiveSession(ctx);
  const body = await ctx.body();
  const email = emailParam(body);
  if (email === null) throw missingParam("email");
  const password = stringParam(body, "password", { required: true, max: 256 });
  const limitKey = `email:${email}`;
  rateLimit(ctx, "loginLimiter", limitKey);
  const user = findUserByEmail(ctx.app.store, email);
  const valid = await verifyPassword(user?.passwordHash ?? null, password, ctx.app.passwordHashing);
  if (!user || !valid) throw new AppwriteError("user_invalid_credentials");
  if (!user.status) throw new AppwriteError("user_blocked");
  ctx.app.loginLimiter.reset(limitKey);
  return startSession(ctx, user, "email");
}

/** `POST /account/sessions/anonymous`: a new user without email or password, and a session for it. */
async function createAnonymousSession(ctx: RequestContext): Promise<Reply> {
  refuseActiveSession(ctx);
  rateLimit(ctx, "signupLimiter", `ip:${ctx.caller.ip}`);
  const user = await createUserRecord(ctx.app.store, {
    id: customIdParam({ id: "unique()" }, "id"),
    email: null,
    phone: null,
    name: "",
  });
  return startSession(ctx, user, "anonymous");
}

function getAccount(ctx: RequestContext): Reply {
  return { status: 200, json: accountModel(me(ctx)) };
}

function reload(ctx: RequestContext, user: UserRecord): Reply {
  return { status: 200, json: accountModel(findUser(ctx.app.store, user.id) as UserRecord) };
}

async function updateName(ctx: RequestContext): Promise<Reply> {
  const user = me(ctx);
  const name = stringParam(await ctx.body(), "name", { required: true, max: 128 });
  updateUser(ctx.app.store, user.seq, { name }, nowDatetime());
  return reload(ctx, user);
}

/**
 * `PATCH /account/password`: when the user has a password, `oldPassword` must match (else 401
 * `user_invalid_credentials`). Every other session of the user is deleted, the current one kept
 * (AW `auths.invalidateSessions`, on for new projects).
 */
async function updatePassword(ctx: RequestContext): Promise<Reply> {
  const user = me(ctx);
  const body = await ctx.body();
  const password = passwordParam(body, "password", true) as string;
  const oldPassword = typeof body["oldPassword"] === "string" ? body["oldPassword"] : "";
  if (user.passwordHash !== null && !(await verifyPassword(user.passwordHash, oldPassword))) {
    throw new AppwriteError("user_invalid_credentials");
  }
  const now = nowDatetime();
  updateUser(
    ctx.app.store,
    user.seq,
    { passwordHash: await hashPassword(password, ctx.app.passwordHashing), passwordUpdate: now },
    now,
  );
  deleteSessions(ctx.app.store, user.seq, { keepId: ctx.caller.session?.id ?? "" });
  return reload(ctx, user);
}

function getPrefs(ctx: RequestContext): Reply {
  return { status: 200, json: me(ctx).prefs };
}

/** `PATCH /account/prefs`: replace prefs with a JSON object of at most 65,535 characters. */
async function updatePrefs(ctx: RequestContext): Promise<Reply> {
  const user = me(ctx);
  const prefs = (await ctx.body())["prefs"];
  if (prefs === undefined || prefs === null) throw missingParam("prefs");
  if (typeof prefs !== "object" || Array.isArray(prefs) || JSON.stringify(prefs).length > 65535) {
    throw invalidParam("prefs", "Value must be a valid object and no longer than 65535 chars");
  }
  updateUser(ctx.app.store, user.seq, { prefs: prefs as Record<string, unknown> }, nowDatetime());
  return reload(ctx, user);
}

function current(ctx: RequestContext): SessionRecord | undefined {
  return ctx.caller.session;
}

function listMySessions(ctx: RequestContext): Reply {
  const sessions = listSessions(ctx.app.store, me(ctx).seq).map((s) =>
    sessionModel(s, { current: s.id === current(ctx)?.id }),
  );
  return { status: 200, json: { total: sessions.length, sessions } };
}

function sessionIdParam(ctx: RequestContext): string {
  const id = pathParam(ctx, "sessionId");
  return id === "current" ? (current(ctx)?.id ?? "") : id;
}

function getMySession(ctx: RequestContext): Reply {
  const session = findSession(ctx.app.store, me(ctx).seq, sessionIdParam(ctx));
  if (!session) throw new AppwriteError("user_session_not_found");
  return { status: 200, json: sessionModel(session, { current: session.id === current(ctx)?.id }) };
}

/** `DELETE /account/sessions/{id|current}`: 204; deleting the current session expires the cookies. */
function deleteMySession(ctx: RequestContext): Reply {
  const id = sessionIdParam(ctx);
  if (deleteSessions(ctx.app.store, me(ctx).seq, { id }) === 0) throw new AppwriteError("user_session_not_found");
  if (id === current(ctx)?.id) Object.assign(ctx.headers, sessionHeaders(ctx.app, ctx.req, null));
  return { status: 204, empty: true };
}

function deleteMySessions(ctx: RequestContext): Reply {
  deleteSessions(ctx.app.store, me(ctx).seq);
  Object.assign(ctx.headers, sessionHeaders(ctx.app, ctx.req, null));
  return { status: 204, empty: true };
}

/**
 * `POST /account/jwts`: 201 `{jwt}`, HS256 with `{userId, sessionId}`, valid `duration` seconds
 * (0–3600, default 900). A JWT-authenticated caller → 403 `user_jwt_creation_denied`.
 */
async function createJwt(ctx: RequestContext): Promise<Reply> {
  const user = me(ctx);
  if (ctx.caller.viaJwt) throw new AppwriteError("user_jwt_creation_denied");
  const duration = intParam(await ctx.body(), "duration", 900, { min: 0, max: 3600 }) ?? 900;
  const session = current(ctx);
  if (!session) throw new AppwriteError("user_session_not_found");
  return { status: 201, json: { jwt: signJwt(ctx.app.jwtKey, user.id, session.id, duration) } };
}

/**
 * Account and sessions (REFERENCE §4 "Account", §5): sign-up, email and anonymous sessions,
 * the account, name, password, prefs, sessions and JWTs of the signed-in user.
 */
export function register(router: Router): void {
  router.add("POST", "/account", "sessions.write", createAccount);
  router.add("GET", "/account", "account", getAccount);
  router.add("PATCH", "/account/name", "account", updateName);
  router.add("PATCH", "/account/password", "account", updatePassword);
  router.add("GET", "/account/prefs", "account", getPrefs);
  router.add("PATCH", "/account/prefs", "account", updatePrefs);
  router.add("POST", "/account/sessions/email", "sessions.write", createEmailSession);
  router.add("POST", "/account/sessions", "sessions.write", createEmailSession);
  router.add("POST", "/account/sessions/anonymous", "sessions.write", createAnonymousSession);
  router.add("GET", "/account/sessions", "account", listMySessions);
  router.add("DELETE", "/account/sessions", "account", deleteMySessions);
  router.add("GET", "/account/sessions/:sessionId", "account", getMySession);
  router.add("DELETE", "/account/sessions/:sessionId", "account", deleteMySession);
  router.add("POST", "/account/jwts", "account", createJwt);
}
