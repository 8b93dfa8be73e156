/**
 * The media library's server half (issue #30 item 3): who may use it and what its requests answer. The library
 * is the studio team's (`model/team.ts`: owner and editors); anyone else, signed in or not, gets the 404 of a
 * page that does not exist for them (as the Team page, issue #28 item 2). Replies are JSON in the admin's
 * language: `{ ok, message, image?, alt?, uses? }`.
 */
import { data } from "react-router";
import { AppwriteException } from "node-appwrite";
import { ImageRejectedError } from "../../lib/images/upload.ts";
import { altTextsOf } from "../../lib/appwrite/media-rows.ts";
import { AiNotConfiguredError, aiSettings } from "../../lib/ai/gemini.ts";
import { suggestAltText } from "../../lib/ai/alt-text.ts";
import { loadConfig } from "../../lib/config.ts";
import { isContentLocale, MAX_ALT_TEXT } from "../../model/model.ts";
import { QuotaExceededError } from "../../server/admin/quota.ts";
import {
  deleteMedia,
  getMedia,
  listMedia,
  mediaBytes,
  MediaInUseError,
  MediaNotFoundError,
  replaceMedia,
  setAltTexts,
  uploadMedia,
  type MediaEntry,
} from "../../server/admin/media-library.ts";
import { MediaRewriteError } from "../../server/admin/media-rewrite.ts";
import type { MediaUse } from "../../server/admin/media-usage.ts";
import { getI18n } from "../i18n/catalog.server.ts";
import type { Locale } from "../i18n/i18n.ts";
import { accessOf, pageNotFound } from "./access.server.ts";
import { imageRefusalText } from "./admin-errors.server.ts";
import { sessionServices, takeAiAllowance } from "./admin.server.ts";
import { getApiKeyServices } from "./appwrite.server.ts";
import { preferredLocale, requireUser } from "./session.server.ts";

/** What the library's list request answers: the images and whether "Suggest alt text" is available. */
export interface MediaList {
  /** The images, each with its uploader's name (or e-mail; null when unknown). */
  images: (MediaEntry & { uploadedByName: string | null })[];
  /** False without `GEMINI_API_KEY`: the picker disables "Suggest alt text" and says why. */
  ai: boolean;
}

/** What a library write answers. */
export interface MediaReply {
  ok: boolean;
  message: string;
  image?: MediaEntry;
  alt?: string;
  uses?: MediaUse[];
}

/**
 * The signed-in team member of `request`, or a redirect to sign in (no session) or a 404 (not on the team).
 * @throws {Response} as `requireUser`, or 404.
 */
export async function requireMediaUser(request: Request) {
  const { user, secret } = await requireUser(request);
  const access = await accessOf(user);
  if (!access.role) throw pageNotFound();
  return { user, secret };
}

/** The library for `request` (team only), filtered by its `q` parameter. */
export async function loadMediaList(request: Request): Promise<MediaList> {
  await requireMediaUser(request);
  const search = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 200);
  const services = getApiKeyServices();
  const images = await listMedia(services, search);
  const names = new Map<string, string | null>();
  for (const id of new Set(images.map((image) => image.uploadedBy).filter((id) => id !== null))) {
    const found = await services.users.get({ userId: id }).catch(() => null);
    names.set(id, found ? found.name || found.email : null);
  }
  return {
    images: images.map((image) => ({ ...image, uploadedByName: names.get(image.uploadedBy ?? "") ?? null })),
    ai: Boolean(loadConfig().geminiApiKey),
  };
}

/** A use as a sentence names it: «Title» (featured image). */
function useText(locale: Locale, use: MediaUse): string {
  const { t } = getI18n(locale);
  return `«${use.title || use.slug}» (${t(use.field === "image" ? "admin.media.asImage" : "admin.media.asBody")})`;
}

/** `error` as the reply the admin shows, with its HTTP status. */
function failure(locale: Locale, error: unknown) {
  const { t } = getI18n(locale);
  const reply = (message: string, status: number, extra: Partial<MediaReply> = {}) =>
    data<MediaReply>({ ok: false, message, ...extra }, { status });
  if (error instanceof ImageRejectedError) return reply(imageRefusalText(locale, error.message), 400);
  if (error instanceof QuotaExceededError) {
    const megabytes = Math.round(error.quota.bytes / 1048576);
    return reply(t("admin.errors.uploadQuota", { files: error.quota.files, megabytes }), 400);
  }
  if (error instanceof MediaInUseError) {
    const names = [...new Set(error.uses.map((use) => useText(locale, use)))];
    const items = new Intl.ListFormat(locale, { type: "conjunction" }).format(names);
    return reply(t("admin.media.inUse", { items }), 409, { uses: error.uses });
  }
  if (error instanceof MediaNotFoundError) return reply(t("admin.media.notFound"), 404);
  if (error instanceof RangeError) return reply(t("admin.media.altTooLong", { max: MAX_ALT_TEXT }), 400);
  if (error instanceof MediaRewriteError) return reply(error.message, 409);
  console.error("[media] the library failed:", error);
  const status = error instanceof AppwriteException && error.code < 500 ? error.code : 500;
  return reply(t("admin.media.failed"), status);
}

const fileOf = async (form: FormData) => {
  const file = form.get("file");
  return file instanceof File && file.size > 0
    ? { bytes: new Uint8Array(await file.arrayBuffer()), name: file.name }
    : null;
};

const altOf = (form: FormData) => altTextsOf({ en: form.get("alt.en"), ar: form.get("alt.ar") });

/**
 * One write of the library, by the form's `intent`: `upload` (file, alt.en, alt.ar), `alt` (id, alt.*),
 * `replace` (id, file), `delete` (id) or `suggest` (id, locale: a Gemini draft of the alt text, counted in the
 * user's hourly AI allowance).
 */
export async function mediaAction(request: Request) {
  const { user, secret } = await requireMediaUser(request);
  const locale = preferredLocale(request);
  const { t } = getI18n(locale);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  const services = getApiKeyServices();
  const ok = (message: string, extra: Partial<MediaReply> = {}) => data<MediaReply>({ ok: true, message, ...extra });
  const bad = () => data<MediaReply>({ ok: false, message: t("admin.errors.badRequest") }, { status: 400 });
  try {
    if (intent === "upload" || intent === "replace") {
      const file = await fileOf(form);
      if (!file) return data<MediaReply>({ ok: false, message: t("admin.media.noFile") }, { status: 400 });
      const session = sessionServices(secret);
      if (intent === "upload") {
        const image = await uploadMedia(services, session, user, { ...file, alt: altOf(form) });
        return ok(t("admin.media.uploadedOk"), { image });
      }
      if (!id) return bad();
      return ok(t("admin.media.replaced"), { image: await replaceMedia(services, session, user, id, file) });
    }
    if (!id) return bad();
    if (intent === "alt") {
      await setAltTexts(services, id, altOf(form));
      return ok(t("admin.media.altSaved"), { image: (await getMedia(services, id)) ?? undefined });
    }
    if (intent === "delete") {
      await deleteMedia(services, id);
      return ok(t("admin.media.deleted"));
    }
    if (intent === "suggest") return await suggest(user.id, id, form.get("locale"), locale);
    return bad();
  } catch (error) {
    return failure(locale, error);
  }
}

/** "Suggest alt text": Gemini's draft for image `id` in content locale `wanted`. */
async function suggest(userId: string, id: string, wanted: FormDataEntryValue | null, locale: Locale) {
  const { t } = getI18n(locale);
  if (!isContentLocale(wanted))
    return data<MediaReply>({ ok: false, message: t("admin.errors.badRequest") }, { status: 400 });
  const services = getApiKeyServices();
  const entry = await getMedia(services, id);
  if (!entry) throw new MediaNotFoundError(id);
  if (!(await takeAiAllowance(userId))) {
    return data<MediaReply>(
      { ok: false, message: t("admin.errors.aiLimit") },
      { status: 429, headers: { "Retry-After": "3600" } },
    );
  }
  try {
    const image = { bytes: await mediaBytes(services, id), mimeType: entry.mimeType };
    const alt = await suggestAltText(aiSettings(loadConfig()), image, wanted);
    return data<MediaReply>({ ok: true, message: "", alt });
  } catch (error) {
    if (error instanceof AiNotConfiguredError) {
      return data<MediaReply>({ ok: false, message: t("admin.media.suggestOff") }, { status: 503 });
    }
    console.error("[media] alt text suggestion failed:", (error as Error).message);
    return data<MediaReply>({ ok: false, message: t("admin.media.suggestFailed") }, { status: 503 });
  }
}
