/**
 * The browser's side of the media library's API (`/admin/media/api`, `web/data/media.server.ts`): list and
 * write requests, and how sizes and dates read in the admin's language. Shared by the picker and the page.
 */
import type { MediaList, MediaReply } from "../../data/media.server.ts";
import type { MediaEntry } from "../../../server/admin/media-library.ts";

export type { MediaList, MediaReply };
/** An image as the library lists it (its uploader's name when the list looked it up). */
export type MediaImage = MediaEntry & { uploadedByName?: string | null };

/** Where the library's API is. */
export const MEDIA_API = "/admin/media/api";

/**
 * The library, filtered by `search`.
 * @throws {Error} when the request fails (the caller shows `admin.media.failed`).
 */
export async function fetchMediaList(search: string, signal?: AbortSignal): Promise<MediaList> {
  const response = await fetch(`${MEDIA_API}?q=${encodeURIComponent(search)}`, {
    headers: { Accept: "application/json" },
    signal,
  });
  if (!response.ok) throw new Error(`The media library answered ${response.status}.`);
  return (await response.json()) as MediaList;
}

/**
 * Posts one write (`intent` and its fields) and answers the reply, failures included (`ok: false` with the
 * message to show); a network failure is `{ ok: false, message: fallback }`.
 */
export async function postMedia(form: FormData, fallback: string): Promise<MediaReply> {
  try {
    const response = await fetch(MEDIA_API, { method: "POST", body: form, headers: { Accept: "application/json" } });
    const reply = (await response.json().catch(() => null)) as MediaReply | null;
    return reply && typeof reply.message === "string" ? reply : { ok: false, message: fallback };
  } catch {
    return { ok: false, message: fallback };
  }
}

/** `bytes` as kB (under 1 MB) or MB, in `locale`'s numbers and unit names (`Intl.NumberFormat` units). */
export function formatBytes(bytes: number, locale: string): string {
  const mega = bytes >= 1024 * 1024;
  return new Intl.NumberFormat(locale, {
    style: "unit",
    unit: mega ? "megabyte" : "kilobyte",
    maximumFractionDigits: mega ? 1 : 0,
  }).format(mega ? bytes / (1024 * 1024) : Math.max(1, Math.round(bytes / 1024)));
}

/** An upload date in `locale` (`dateStyle: "medium"`, UTC, so server and browser agree). */
export function formatUploadDate(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(iso));
}

/** The `<img>` a body gets for an inserted image: `src`, `alt` (escaped), `width`, `height`. */
export function imageHtml(image: { src: string; alt: string; width: number; height: number }): string {
  const alt = image.alt.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return `<img src="${image.src}" alt="${alt}" width="${image.width}" height="${image.height}">`;
}
