/**
 * References to the images bucket inside stored bodies (issue #30 item 3): an inline image is
 * `<img src="/media/<fileId>">`, the URL the site serves bucket files at (`web/routes/resources/media.ts`). The
 * media library finds where an image is used and rewrites a replaced image's references with these.
 * Plain string work on sanitized HTML (DOMPurify writes every attribute as `name="value"`), no DOM.
 */

/** An Appwrite file id as the media route accepts it (`web/routes/resources/media.ts` `FILE_ID`). */
export const MEDIA_FILE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,35}$/;

/** `/media/<id>` in an attribute value or text, with an optional `?w=` variant query. */
const MEDIA_REF = /\/media\/([A-Za-z0-9][A-Za-z0-9._-]{0,35})(?=["'?#\s)]|$)/g;

/**
 * The distinct file ids `html` references as `/media/<fileId>`, in order of first appearance.
 * @example mediaIdsIn('<p><img src="/media/abc" alt="x"></p>') // ["abc"]
 */
export function mediaIdsIn(html: string): string[] {
  const ids = new Set<string>();
  for (const match of html.matchAll(MEDIA_REF)) ids.add(match[1]!);
  return [...ids];
}

/**
 * `html` with every `/media/<from>` reference (not a longer id that starts with `from`) pointing at `/media/<to>`;
 * `html` itself when it has none.
 * @throws {Error} when `from` or `to` is not a file id (`MEDIA_FILE_ID`): a programming error.
 */
export function replaceMediaId(html: string, from: string, to: string): string {
  if (!MEDIA_FILE_ID.test(from) || !MEDIA_FILE_ID.test(to)) throw new Error(`Not a file id: ${from} or ${to}`);
  return html.replace(MEDIA_REF, (whole, id: string) => (id === from ? `/media/${to}` : whole));
}

const IMG_TAG = /<img((?:\s+[a-zA-Z-]+(?:="[^"]*")?)*)\s*\/?>/gi;
const SRC = /\ssrc="\/media\/([A-Za-z0-9][A-Za-z0-9._-]{0,35})"/;
const SIZE_ATTR = /\s(width|height)(?:="[^"]*")?/gi;

/**
 * `html` (sanitized) with every `<img src="/media/<id>">` that lacks a `width` or `height` given both from
 * `sizeOf(id)` (the media library's stored dimensions), so the public page reserves its box (issue #30 item 3).
 * Only whole numbers are written, attributes the sanitizer allows (`ALLOWED_ATTR`); images `sizeOf` does not
 * know, and those with both attributes, are left as they are.
 */
export function withImageSizes(html: string, sizeOf: (id: string) => { width: number; height: number } | undefined) {
  return html.replace(IMG_TAG, (tag: string, attributes: string) => {
    const id = SRC.exec(attributes)?.[1];
    const names = [...attributes.matchAll(SIZE_ATTR)].map((m) => m[1]!.toLowerCase());
    const size = id === undefined ? undefined : sizeOf(id);
    if (!size || (names.includes("width") && names.includes("height"))) return tag;
    const kept = attributes.replace(SIZE_ATTR, "");
    return `<img${kept} width="${Math.round(size.width)}" height="${Math.round(size.height)}">`;
  });
}

/** The `/media` ids of `html`'s images that lack a `width` or `height` (what `withImageSizes` would fill). */
export function unsizedMediaIds(html: string): string[] {
  const ids = new Set<string>();
  for (const match of html.matchAll(IMG_TAG)) {
    const attributes = match[1] ?? "";
    const id = SRC.exec(attributes)?.[1];
    const names = [...attributes.matchAll(SIZE_ATTR)].map((m) => m[1]!.toLowerCase());
    if (id && !(names.includes("width") && names.includes("height"))) ids.add(id);
  }
  return [...ids];
}
