/**
 * The name of the site's session cookie (SECURITY C1): `studio_session` on http (local use, tests) and
 * `__Host-studio_session` with `Secure` on https. The web server (`web/data/session.server.ts`) sets it; the
 * HTTP layer (`server/auth/session-verdict.ts`) asks Appwrite whether a request's cookie is a sign-in.
 */
export const SESSION_COOKIE_NAME = "studio_session";

/** The cookie's name on https: `__Host-` requires Secure, Path=/ and no Domain (RFC 6265bis §4.1.3.2). */
export const SECURE_SESSION_COOKIE_NAME = `__Host-${SESSION_COOKIE_NAME}`;
