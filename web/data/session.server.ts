/**
 * The site's own session cookie (ARCHITECTURE decision 2; Appwrite SSR guide; SECURITY C1–C6): it holds the
 * Appwrite session secret, HttpOnly, SameSite=Lax, Path=/, no Domain; `Secure` and the `__Host-` prefix on
 * https. Its lifetime is `SESSION_MAX_AGE_SECONDS` (7 days, far below Appwrite's one-year default), and never
 * longer than the Appwrite session it carries.
 */
import { createCookie, redirect } from "react-router";
import { currentUser, type NewSession, type SignedInUser } from "../../server/auth/account.ts";
import { SECURE_SESSION_COOKIE_NAME, SESSION_COOKIE_NAME } from "../../server/auth/session-cookie.ts";
import { AuthThrottle } from "../../server/auth/throttle.ts";
import { loadConfig } from "../../lib/config.ts";
import { appwriteLocation, getLimitLog } from "./appwrite.server.ts";
import { DEFAULT_LOCALE, isLocale, type Locale } from "../i18n/i18n.ts";

/** Lifetime of a sign-in, in seconds: 7 days (README "Sessions"). */
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

const secureCookie = createCookie(SECURE_SESSION_COOKIE_NAME, {
  httpOnly: true,
  secure: true,
  sameSite: "lax",
  path: "/",
});
const plainCookie = createCookie(SESSION_COOKIE_NAME, { httpOnly: true, secure: false, sameSite: "lax", path: "/" });

/** The cookie for this request: `__Host-` + Secure on https, a plain name on http (local use, tests). */
function cookieFor(request: Request) {
  return new URL(request.url).protocol === "https:" ? secureCookie : plainCookie;
}

let throttle: AuthThrottle | undefined;

/**
 * The login and sign-up throttle (SECURITY C13, C14): the site signs in with an API key, which Appwrite does not
 * limit. Its counts live in Appwrite (`getLimitLog`), shared by every site process.
 */
export function authThrottle(): AuthThrottle {
  throttle ??= new AuthThrottle(undefined, undefined, getLimitLog());
  return throttle;
}

/** `Set-Cookie` value starting a sign-in: the secret, expiring with the session or after 7 days, whichever is first. */
export async function startSession(request: Request, session: NewSession): Promise<string> {
  const appwriteSeconds = Math.floor((Date.parse(session.expire) - Date.now()) / 1000);
  const maxAge = Math.max(
    60,
    Math.min(SESSION_MAX_AGE_SECONDS, Number.isFinite(appwriteSeconds) ? appwriteSeconds : SESSION_MAX_AGE_SECONDS),
  );
  return cookieFor(request).serialize(session.secret, { maxAge });
}

/** `Set-Cookie` value ending the sign-in. */
export async function endSession(request: Request): Promise<string> {
  return cookieFor(request).serialize("", { maxAge: 0 });
}

/** The Appwrite session secret in the request's cookie, if any. */
export async function sessionSecret(request: Request): Promise<string | null> {
  const value: unknown = await cookieFor(request).parse(request.headers.get("Cookie"));
  return typeof value === "string" && value ? value : null;
}

/** The signed-in user and their session secret, or null (an unknown or expired secret counts as signed out). */
export async function getSignedIn(request: Request): Promise<{ user: SignedInUser; secret: string } | null> {
  const secret = await sessionSecret(request);
  if (!secret) return null;
  const user = await currentUser(appwriteLocation(), secret);
  return user ? { user, secret } : null;
}

/**
 * The preferred locale of a request for pages outside the locale segment (the admin; issue #17 item 1): a
 * `?lang=` the site's links add (`/ar/...` links to `/admin?lang=ar`), then the `locale` cookie (set by the
 * login page, by sign-in from the user's account prefs and by the admin's language switch), then
 * Accept-Language.
 */
export function preferredLocale(request: Request): Locale {
  const lang = new URL(request.url).searchParams.get("lang");
  if (isLocale(lang)) return lang;
  const cookie = /(?:^|;\s*)locale=([a-z]{2,3})\b/.exec(request.headers.get("Cookie") ?? "")?.[1];
  if (isLocale(cookie)) return cookie;
  const accepted = /^\s*([a-z]{2,3})\b/i.exec(request.headers.get("Accept-Language") ?? "")?.[1]?.toLowerCase();
  return isLocale(accepted) ? accepted : DEFAULT_LOCALE;
}

/** `Set-Cookie` value remembering `locale` for the admin and the login page (a year; not HttpOnly-sensitive). */
export function localeCookie(locale: Locale): string {
  return `locale=${locale}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

/**
 * The signed-in user, or a redirect to `/{locale}/login` that comes back to this page (spec §2 guard).
 * @throws {Response} a redirect when signed out.
 */
export async function requireUser(request: Request): Promise<{ user: SignedInUser; secret: string }> {
  const signedIn = await getSignedIn(request);
  if (signedIn) return signedIn;
  const url = new URL(request.url);
  const back = encodeURIComponent(url.pathname + url.search);
  throw redirect(`/${preferredLocale(request)}/login?redirectTo=${back}`, {
    headers: { "Set-Cookie": await endSession(request) },
  });
}

/**
 * Where to go after signing in: `redirectTo` when it is a same-origin path under `/admin`, else `/admin`
 * (SECURITY C29: no open redirects; `//evil`, `/\evil`, encoded or control-character tricks are refused).
 */
export function safeRedirect(redirectTo: FormDataEntryValue | string | null | undefined): string {
  if (typeof redirectTo !== "string") return "/admin";
  const controlCharacter = [...redirectTo].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (!/^\/admin(?:[/?#]|$)/.test(redirectTo) || controlCharacter || /[\\\s]|\/\/|%2f|%5c|%09/i.test(redirectTo)) {
    return "/admin";
  }
  return redirectTo;
}

/** Whether registration is open to anyone (`OPEN_REGISTRATION`, default true per spec §6). */
export function registrationOpen(): boolean {
  return loadConfig().openRegistration;
}

/** The client IP of a request, as the site server recorded it (never a header the client controls). */
export function clientIp(context: unknown): string {
  const ip = (context as { clientIp?: string } | undefined)?.clientIp;
  return ip ?? "unknown";
}
