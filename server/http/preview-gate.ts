/**
 * Shared preview links checked before the page runs (SECURITY C71, issue #26 item 4): a public item page's
 * `?preview=<token>` (`lib/publish/preview-link.ts`) whose signature or expiry is not right for that item is
 * answered with a redirect to the plain URL by the site server, so a made-up token costs a redirect to the
 * cached page, not a guest read and a render per request. A valid token goes on to the page, which shows the
 * draft (or redirects, for a published item).
 */
import { checkPreview, loadPreviewSecret, PREVIEW_PARAM } from "../../lib/publish/preview-link.ts";
import { CONTENT_MODEL, type ContentKind } from "../../model/model.ts";

/** The kind of an item page by its path segment (`blog` → `post`, `ventures` → `venture`). */
const KIND_BY_PATH = new Map(
  Object.entries(CONTENT_MODEL).map(([kind, model]) => [model.publicPath as string, kind as ContentKind]),
);
const ITEM_PAGE = /^\/([a-z]{2})\/([^/]+)\/([^/]+)\/?$/;

/**
 * Where to send a request for `url` (path and query as received) instead of rendering it: the plain path when
 * `url` is an item page with a `?preview=` token that `secret` did not sign for that kind and locale, or that
 * has expired;
 * null otherwise (no token, not an item page, a valid token, or no secret known yet: the page checks it then).
 * @param secret the preview secret, or null while it is not known; asked only for a token on an item page.
 */
export function previewRedirect(url: string, secret: () => string | null, now = Date.now()): string | null {
  const mark = url.indexOf("?");
  if (mark === -1) return null;
  const token = new URLSearchParams(url.slice(mark)).get(PREVIEW_PARAM);
  const pathname = url.slice(0, mark);
  const page = ITEM_PAGE.exec(pathname);
  const kind = page ? KIND_BY_PATH.get(page[2]!) : undefined;
  if (token === null || !kind) return null;
  const key = secret();
  if (key === null) return null;
  // A link is signed for one document in its locale (issue #28 item 4); the page checks its slug and key.
  return checkPreview(key, kind, page![1]!, token, now) === "valid" ? null : pathname;
}

/**
 * The site's preview secret as `previewRedirect` asks for it: null until it has been read (`loadPreviewSecret`
 * with `PREVIEW_SECRET` and `DATA_DIR`, as the pages read it), which the first call starts; a failed read is
 * logged and tried again on a later call.
 */
export function lazyPreviewSecret(fromEnv: string | undefined, dataDir: string): () => string | null {
  let secret: string | null = null;
  let reading = false;
  return () => {
    if (secret === null && !reading) {
      reading = true;
      loadPreviewSecret(fromEnv, dataDir).then(
        (value) => (secret = value),
        (error: unknown) => {
          reading = false;
          console.warn("[site] reading the preview secret failed:", (error as Error).message);
        },
      );
    }
    return secret;
  };
}
