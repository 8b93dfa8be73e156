import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import type { AppState } from "../http/context.ts";

function hostOf(value: string | undefined): string {
  if (!value) return "";
  try {
    return new URL(value.includes("://") ? value : `http://${value}`).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return "";
  }
}

/** Registrable domain, approximated as the last two labels; `""` for IPs, `localhost` and bare names. */
function registrable(host: string): string {
  if (host === "" || isIP(host) !== 0 || !host.includes(".")) return "";
  return host.split(".").slice(-2).join(".");
}

/**
 * Appwrite's `domainVerification` (AW `general.php`): true only when the request's Origin and the
 * API host share a registrable domain. It is false for localhost and IPs, so the emulator on
 * loopback always sends `X-Fallback-Cookies`.
 */
export function domainVerified(req: IncomingMessage): boolean {
  const self = registrable(hostOf(req.headers.host));
  const origin = registrable(hostOf(req.headers.origin ?? req.headers.referer));
  return self !== "" && self === origin;
}

function cookieAttributes(req: IncomingMessage, expires: Date): string {
  const host = hostOf(req.headers.host);
  const domain = host === "" || host === "localhost" || isIP(host) !== 0 ? "" : `; Domain=.${host}`;
  const secure = req.headers["x-forwarded-proto"] === "https" ? "; Secure" : "";
  return `; Expires=${expires.toUTCString()}; Path=/${domain}${secure}; HttpOnly`;
}

/**
 * `Set-Cookie` values for a new session (REFERENCE §5): `a_session_<project>` with
 * `SameSite=None` and `a_session_<project>_legacy` without SameSite; `HttpOnly`, `Path=/`,
 * `Expires` = session expiry, `Domain=.<host>` except for localhost and IPs, `Secure` on https.
 */
export function sessionCookies(app: AppState, req: IncomingMessage, value: string, expire: string): string[] {
  const name = `a_session_${app.projectId}`;
  const attributes = cookieAttributes(req, new Date(expire));
  return [`${name}=${value}${attributes}; SameSite=None`, `${name}_legacy=${value}${attributes}`];
}

/** `Set-Cookie` values that expire both session cookies (logout of the current session). */
export function expiredCookies(app: AppState, req: IncomingMessage): string[] {
  const name = `a_session_${app.projectId}`;
  const attributes = cookieAttributes(req, new Date(0));
  return [`${name}=${attributes}; SameSite=None`, `${name}_legacy=${attributes}`];
}

/**
 * Headers a session-creating or -deleting response carries: cookies, plus `X-Fallback-Cookies`
 * (`{"a_session_<project>": value}`, or `[]` on logout) unless `domainVerified` (REFERENCE §5).
 */
export function sessionHeaders(
  app: AppState,
  req: IncomingMessage,
  session: { value: string; expire: string } | null,
): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {
    "Set-Cookie": session ? sessionCookies(app, req, session.value, session.expire) : expiredCookies(app, req),
  };
  if (!domainVerified(req)) {
    headers["X-Fallback-Cookies"] = session
      ? JSON.stringify({ [`a_session_${app.projectId}`]: session.value })
      : JSON.stringify([]);
  }
  return headers;
}
