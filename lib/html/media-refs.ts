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
