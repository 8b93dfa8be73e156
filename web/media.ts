/**
 * Width variants of the images bucket's files, served by the site under `/media/<fileId>?w=<width>`
 * (issue #8: images served at the size shown). Shared by the media route, which refuses any other width, and
 * the components, which list these URLs in `srcset`. No server code: this reaches the browser bundle.
 */

/**
 * The only widths, in image pixels, `/media/<fileId>?w=` renders; any other value is a 400, so nobody can
 * make the server render arbitrary sizes. 160 covers the 56 and 96 CSS px logos up to 1.7×; 1920 a 768 CSS px
 * hero at 2.5×.
 */
export const MEDIA_WIDTHS = [160, 320, 480, 640, 960, 1280, 1920] as const;
export type MediaWidth = (typeof MEDIA_WIDTHS)[number];

const MEDIA_PATH = /^\/media\/[^/?#]+$/;

/** True for a URL of the site's own media route (`/media/<fileId>`, as `publicImageUrl` builds it). */
export function isMediaUrl(src: string): boolean {
  return MEDIA_PATH.test(src);
}

/** True when `width` is one of `MEDIA_WIDTHS`. */
export function isMediaWidth(width: number): width is MediaWidth {
  return (MEDIA_WIDTHS as readonly number[]).includes(width);
}

/**
 * The URL of `src` (a `/media/<fileId>` URL) resized to `width` pixels wide, keeping its aspect ratio.
 * @throws {Error} when `src` is not a media URL or `width` is not in `MEDIA_WIDTHS` (a programming error).
 */
export function mediaVariantUrl(src: string, width: MediaWidth): string {
  if (!isMediaUrl(src)) throw new Error(`Not a /media/<fileId> URL: ${src}`);
  if (!isMediaWidth(width)) throw new Error(`Width ${String(width)} is not one of ${MEDIA_WIDTHS.join(", ")}.`);
  return `${src}?w=${width}`;
}

/** `srcset` for `src` at each of `widths`: `"/media/f?w=320 320w, /media/f?w=640 640w"`. */
export function mediaSrcSet(src: string, widths: readonly MediaWidth[]): string {
  return widths.map((w) => `${mediaVariantUrl(src, w)} ${w}w`).join(", ");
}
