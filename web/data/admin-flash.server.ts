/**
 * The admin's flash messages (issue #17 item 3): a confirmation after a save, publish, unpublish, delete or
 * account change, and a failed delete told to the editor, shown once on the page the editor lands on.
 *
 * Why a cookie and not a query parameter: the forms redirect to the lists after saving, and the message must
 * work without JavaScript and be gone on reload. A `?saved=` parameter stays in the address bar (and in the
 * history) without JavaScript, so a reload would show it again; a cookie is read by the next page's loader,
 * which clears it in the same response, so the message is shown exactly once with or without JavaScript. The
 * cookie is HttpOnly (no script reads it), SameSite=Lax, expires after a minute, and is signed with a key
 * derived from the site's preview secret, so nothing but this server can put words in the admin's mouth.
 * It carries what happened (an event, the item's name, a date), not a text: the text is written when shown,
 * in the admin's language.
 */
import { createHmac, randomBytes } from "node:crypto";
import { AppwriteException } from "node-appwrite";
import { createCookie, type Cookie } from "react-router";
import { isContentLocale, type ContentLocale } from "../../model/locales.ts";
import { formatDate } from "../../lib/text/dates.ts";
import { getI18n } from "../i18n/catalog.server.ts";
import { previewSecret } from "./preview.server.ts";
import type { Locale } from "../i18n/i18n.ts";
import { momentText } from "../i18n/history-dates.ts";

/**
 * What a flash message tells: an item's event (with its name; a publish with the language versions that went
 * public and those held back, issue #29; a schedule with its instant and the site's zone) or an account change.
 */
export type FlashEvent =
  | { event: "created" | "saved" | "draft" | "unpublished" | "deleted"; name: string }
  | { event: "published"; name: string; versions?: string[]; held?: string[] }
  | { event: "scheduled"; name: string; date: string; zone?: string; versions?: string[]; held?: string[] }
  | { event: "restored"; name: string; date: string; language: string }
  | { event: "deleteFailed"; name: string; reason: DeleteFailure }
  | { event: "nameUpdated" | "passwordUpdated" };

/** Why a delete failed, as the editor is told: no permission, already gone, or anything else. */
export type DeleteFailure = "permission" | "missing" | "other";

/** A flash message as the layout shows it: a text in the admin's language, its tone, and an id per message. */
export interface ShownFlash {
  id: string;
  tone: "success" | "error";
  text: string;
}

const FLASH_MAX_AGE_SECONDS = 60;
const cookies = new Map<string, Cookie>();

/** The flash cookie for `request` (`__Host-` and Secure on https, like the session cookie), signed. */
async function flashCookie(request: Request): Promise<Cookie> {
  const https = new URL(request.url).protocol === "https:";
  const key = createHmac("sha256", await previewSecret())
    .update("admin-flash")
    .digest("base64url");
  const name = https ? "__Host-admin_flash" : "admin_flash";
  const id = `${name}:${key}`;
  let cookie = cookies.get(id);
  if (!cookie) {
    cookie = createCookie(name, { httpOnly: true, secure: https, sameSite: "lax", path: "/", secrets: [key] });
    cookies.set(id, cookie);
  }
  return cookie;
}

/** The `Set-Cookie` value carrying `flash` to the next page the editor sees. */
export async function setFlash(request: Request, flash: FlashEvent): Promise<string> {
  const id = randomBytes(6).toString("base64url");
  return (await flashCookie(request)).serialize({ ...flash, id }, { maxAge: FLASH_MAX_AGE_SECONDS });
}

/**
 * The flash message of `request`, in `locale`, and the `Set-Cookie` value clearing it (so a reload does not
 * show it again); `{ flash: null }` when there is none or its signature does not hold.
 */
export async function takeFlash(
  request: Request,
  locale: Locale,
): Promise<{ flash: ShownFlash | null; setCookie?: string }> {
  const header = request.headers.get("Cookie");
  if (!header || !/(?:^|;\s*)(?:__Host-)?admin_flash=/.test(header)) return { flash: null };
  const cookie = await flashCookie(request);
  const value: unknown = await cookie.parse(header);
  const setCookie = await cookie.serialize("", { maxAge: 0 });
  if (!isFlash(value)) return { flash: null, setCookie };
  return {
    flash: { id: value.id, tone: value.event === "deleteFailed" ? "error" : "success", text: flashText(value, locale) },
    setCookie,
  };
}

function isFlash(value: unknown): value is FlashEvent & { id: string } {
  const v = value as Record<string, unknown> | null;
  return typeof v === "object" && v !== null && typeof v.event === "string" && typeof v.id === "string";
}

/**
 * The text of `flash` in `locale` (keys `admin.flash.*`; the account's are the spec's §8 successes). The item's
 * name is isolated (U+2068…U+2069) so a Latin name in an Arabic sentence, or the reverse, keeps its place.
 */
export function flashText(flash: FlashEvent, locale: Locale): string {
  const { t } = getI18n(locale);
  if (!("name" in flash)) return t(`admin.account.${flash.event}`);
  const name = `\u2068${flash.name}\u2069`;
  if (flash.event === "scheduled" || flash.event === "published") return publishText(flash, locale, name);
  if (flash.event === "restored") {
    const language = t(`admin.languages.inSentence.${flash.language}`);
    return t("admin.flash.restored", { name, language, time: momentText(flash.date, locale) });
  }
  if (flash.event === "deleteFailed") {
    return t("admin.flash.deleteFailed", { name, reason: t(`admin.flash.deleteReasons.${flash.reason}`) });
  }
  return t(`admin.flash.${flash.event}`, { name });
}

/**
 * A publish's or a schedule's text (issue #29): "Published “X”: English, العربية." or "“X” is scheduled for
 * 1 Dec 2026, 09:00 Asia/Riyadh (UTC+03:00): English.", then the versions held back, if any.
 */
function publishText(
  flash: Extract<FlashEvent, { event: "published" | "scheduled" }>,
  locale: Locale,
  name: string,
): string {
  const { t } = getI18n(locale);
  const versions = flash.versions?.filter(isContentLocale) ?? [];
  const date = flash.event === "scheduled" ? formatDate(flash.date, "moment", locale, flash.zone) : "";
  const main =
    versions.length === 0
      ? t(`admin.flash.${flash.event}`, { name, date })
      : t(`admin.flash.${flash.event}Versions`, { name, date, versions: versionNames(locale, versions) });
  const held = flash.held?.filter(isContentLocale) ?? [];
  return held.length === 0 ? main : `${main} ${t("admin.flash.heldBack", { versions: versionNames(locale, held) })}`;
}

/** Why a delete failed, from its error: 401/403 no permission, 404 already gone, else something else. */
export function deleteFailureOf(error: unknown): DeleteFailure {
  if (!(error instanceof AppwriteException)) return "other";
  if (error.code === 401 || error.code === 403) return "permission";
  return error.code === 404 ? "missing" : "other";
}

/** The language versions as the admin names them: "English, العربية" (their own names, in both languages). */
export function versionNames(locale: Locale, versions: readonly ContentLocale[]): string {
  const { t } = getI18n(locale);
  return versions.map((l) => `\u2068${t(`admin.languages.${l}`)}\u2069`).join(locale === "ar" ? "، " : ", ");
}
