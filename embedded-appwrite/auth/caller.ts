import type { IncomingHttpHeaders } from "node:http";
import { timingSafeEqual } from "node:crypto";
import { nowDatetime } from "../datetime.ts";
import { decodeSession, findSession, verifySession } from "../db/sessions.ts";
import { membershipRoles } from "../db/teams.ts";
import { findUser, userRoles } from "../db/users.ts";
import type { UserRecord } from "../db/users.ts";
import { AppwriteError } from "../errors.ts";
import { GUEST_ROLES } from "../http/context.ts";
import type { AppState, Caller } from "../http/context.ts";
import { GUEST_SCOPES, USER_SCOPES } from "../http/router.ts";
import type { RouteScope, Scope } from "../http/router.ts";
import { verifyJwt } from "./jwt.ts";

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The bytes of the secrets requests are checked against (the project's keys), encoded once. */
const secretBytes = new Map<string, Buffer>();

function sameSecret(given: string, expected: string): boolean {
  let b = secretBytes.get(expected);
  if (b === undefined) {
    if (secretBytes.size >= 100) secretBytes.clear();
    b = Buffer.from(expected);
    secretBytes.set(expected, b);
  }
  const a = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Parse a `Cookie` header into name → value (first occurrence wins). */
export function parseCookies(cookieHeader: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (cookieHeader ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    if (!cookies.has(name)) {
      try {
        cookies.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
      } catch {
        cookies.set(name, part.slice(eq + 1).trim());
      }
    }
  }
  return cookies;
}

/**
 * The encoded session value a request carries, in Appwrite's order (REFERENCE §5): cookie
 * `a_session_<project>`, then `a_session_<project>_legacy`, then `X-Appwrite-Session`, then the
 * `X-Fallback-Cookies` JSON object.
 */
export function sessionValue(app: AppState, headers: IncomingHttpHeaders): string | undefined {
  const name = `a_session_${app.projectId}`;
  const cookies = parseCookies(header(headers, "cookie"));
  const fromCookie = cookies.get(name) || cookies.get(`${name}_legacy`);
  if (fromCookie) return fromCookie;
  const fromHeader = header(headers, "x-appwrite-session");
  if (fromHeader) return fromHeader;
  const fallback = header(headers, "x-fallback-cookies");
  if (!fallback) return undefined;
  try {
    const parsed = JSON.parse(fallback) as unknown;
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
      const value = (parsed as Record<string, unknown>)[name];
      return typeof value === "string" && value !== "" ? value : undefined;
    }
  } catch {
    // Appwrite ignores a malformed fallback header: the caller is a guest.
  }
  return undefined;
}

/** Every role of a signed-in user, confirmed team memberships included (REFERENCE §6). */
export function rolesOf(app: AppState, user: UserRecord): string[] {
  return userRoles(user, membershipRoles(app.store, user.seq));
}

/**
 * Resolve the signed-in user from a session value and an optional JWT (AW
 * `app/init/resources/request.php` `user`): an unknown, tampered or expired session makes a
 * guest; a JWT together with a valid session → 403 `user_jwt_and_cookie_set`; a JWT that does not
 * verify → 401 `user_jwt_invalid`; a JWT whose session is gone makes a guest. A blocked user →
 * 403 `user_blocked` (AW `shared/api.php`).
 */
export function resolveUser(app: AppState, session: string | undefined, jwt: string | undefined, ip: string): Caller {
  const guest: Caller = { isKey: false, roles: GUEST_ROLES, ip };
  let caller = guest;
  const decoded = session === undefined ? undefined : decodeSession(session);
  if (decoded) {
    const record = verifySession(app.store, decoded.id, decoded.secret, nowDatetime());
    const user = record ? findUser(app.store, decoded.id) : undefined;
    if (record && user) caller = { isKey: false, roles: rolesOf(app, user), user, session: record, ip };
  }
  if (jwt) {
    if (caller.user) throw new AppwriteError("user_jwt_and_cookie_set");
    const claims = verifyJwt(app.jwtKey, jwt);
    if ("error" in claims) throw new AppwriteError("user_jwt_invalid", `Failed to verify JWT. ${claims.error}`);
    const user = findUser(app.store, claims.userId);
    const record = user ? findSession(app.store, user.seq, claims.sessionId) : undefined;
    if (user && record && record.expire > nowDatetime()) {
      caller = { isKey: false, roles: rolesOf(app, user), user, session: record, viaJwt: true, ip };
    }
  }
  if (caller.user && !caller.user.status) throw new AppwriteError("user_blocked");
  return caller;
}

/**
 * Resolve project and caller of a REST request (REFERENCE §1 headers, §5, §7 errors): no project
 * → 401 `general_access_forbidden`; unknown project → 404 `project_not_found`; a wrong
 * `X-Appwrite-Key` → 401 `user_unauthorized`; a key → key caller (sessions ignored); otherwise
 * `resolveUser`. Then the route's scope: a caller lacking it gets 401 `general_unauthorized_scope`
 * with AW's `User (role: guests) missing scopes (["account"])` message (AW `shared/api.php`).
 */
export function authenticate(
  app: AppState,
  headers: IncomingHttpHeaders,
  query: Record<string, unknown>,
  scope: RouteScope,
  ip: string,
): Caller {
  const allowed: readonly Scope[] = typeof scope === "string" ? [scope] : scope;
  if (allowed.includes("public")) return { isKey: false, roles: GUEST_ROLES, ip };
  const project =
    header(headers, "x-appwrite-project") ?? (typeof query["project"] === "string" ? query["project"] : undefined);
  if (!project)
    throw new AppwriteError(
      "general_access_forbidden",
      "No Appwrite project was specified. Please specify your project ID when initializing your Appwrite SDK.",
    );
  if (project !== app.projectId) throw new AppwriteError("project_not_found");
  const key = header(headers, "x-appwrite-key");
  if (key !== undefined) {
    if (!sameSecret(key, app.apiKey)) {
      const scoped = app.scopedKeys.find((k) => sameSecret(key, k.secret));
      if (!scoped) throw new AppwriteError("user_unauthorized");
      if (!allowed.some((s) => scoped.scopes.includes(s))) {
        throw new AppwriteError(
          "general_unauthorized_scope",
          `API key (role: applications) missing scopes (${JSON.stringify(allowed)})`,
        );
      }
    }
    if (allowed.includes("account")) {
      throw new AppwriteError(
        "general_unauthorized_scope",
        `API key (role: applications) missing scopes (["account"])`,
      );
    }
    return { isKey: true, roles: [], ip };
  }
  const caller = resolveUser(app, sessionValue(app, headers), header(headers, "x-appwrite-jwt"), ip);
  const scopes = caller.user ? USER_SCOPES : GUEST_SCOPES;
  if (!allowed.some((s) => scopes.has(s))) {
    const who = caller.user ? `${caller.user.name || "User"} (role: users)` : "User (role: guests)";
    throw new AppwriteError("general_unauthorized_scope", `${who} missing scopes (${JSON.stringify(allowed)})`);
  }
  return caller;
}
