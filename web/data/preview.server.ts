/**
 * Previews of drafts and scheduled items at their public URL (issue #16 item 3). A signed-in user reads
 * them with their own session (Appwrite lets `users` read drafts); a signed-out visitor with a shared link
 * (`?preview=<token>`, `lib/publish/preview-link.ts`) gets that one item read with the site's key, once the
 * token's signature and expiry are checked. A preview is never cached (`Cache-Control: no-store`, so neither
 * the page cache nor a browser keeps it) and never indexed (`X-Robots-Tag: noindex`, a robots meta tag, and
 * it is absent from sitemaps and feeds, which read as a guest).
 */
import { AppwriteException } from "node-appwrite";
import { redirect } from "react-router";
import { createSessionServices } from "../../lib/appwrite/client.ts";
import type { ContentReader } from "../../lib/appwrite/content-store.ts";
import { loadConfig } from "../../lib/config.ts";
import { checkPreview, loadPreviewSecret, PREVIEW_PARAM, signPreview } from "../../lib/publish/preview-link.ts";
import { CONTENT_MODEL, type ContentKind } from "../../model/model.ts";
import { appwriteLocation, getApiKeyServices } from "./appwrite.server.ts";
import { sessionSecret } from "./session.server.ts";

/** Headers of every preview response. */
export const PREVIEW_HEADERS = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex, nofollow" } as const;

let secret: Promise<string> | undefined;
/** The site's preview secret (`PREVIEW_SECRET`, else kept in `DATA_DIR`), read once. */
export function previewSecret(): Promise<string> {
  if (!secret) {
    const config = loadConfig();
    secret = loadPreviewSecret(config.previewSecret, config.dataDir);
    secret.catch(() => (secret = undefined));
  }
  return secret;
}

/** An item page's data: the item, and whether it is shown as a preview (not public). */
export interface ItemPage<T> {
  item: T;
  preview: boolean;
}

/**
 * Loads the item `kind`/`slug` of a public page: as a guest first (published items); else, for a signed-in
 * user or a valid shared link, as a preview. A URL with `?preview=` of an item that is public redirects to
 * its plain URL, so the page cache keeps one URL per page (SECURITY C54).
 * @param load reads the item with a reader (`loadPost`, `loadVenture`), null when not found.
 * @returns null when neither may see it (the page answers 404).
 * @throws {Response} a redirect to the plain URL (above).
 */
export async function loadItemPage<T>(
  request: Request,
  kind: ContentKind,
  slug: string,
  load: (slug: string, reader?: ContentReader) => Promise<T | null>,
): Promise<ItemPage<T> | null> {
  const url = new URL(request.url);
  const token = url.searchParams.get(PREVIEW_PARAM);
  const published = await load(slug);
  if (published) {
    if (token !== null) throw redirect(url.pathname);
    return { item: published, preview: false };
  }
  for (const reader of await previewReaders(kind, slug, request, token)) {
    try {
      const item = await load(slug, reader);
      if (item) return { item, preview: true };
    } catch (error) {
      // An expired or revoked session reads nothing; try the next reader.
      if (!(error instanceof AppwriteException && error.code === 401)) throw error;
    }
  }
  return null;
}

/** The readers that may show `kind`/`slug` as a preview: the user's session, then the key for a valid link. */
async function previewReaders(
  kind: ContentKind,
  slug: string,
  request: Request,
  token: string | null,
): Promise<ContentReader[]> {
  const readers: ContentReader[] = [];
  const session = await sessionSecret(request);
  if (session) readers.push(createSessionServices(appwriteLocation(), session));
  if (token !== null && checkPreview(await previewSecret(), kind, slug, token) === "valid") {
    readers.push(getApiKeyServices());
  }
  return readers;
}

/**
 * The shared preview link of `kind`/`slug` on `origin` (`https://host`), in `locale`: its public URL with a
 * token valid for 7 days (`PREVIEW_LINK_TTL_MS`).
 */
export async function sharePreviewUrl(
  origin: string,
  locale: string,
  kind: ContentKind,
  slug: string,
): Promise<string> {
  const token = signPreview(await previewSecret(), kind, slug);
  const path = `/${locale}/${CONTENT_MODEL[kind].publicPath}/${encodeURIComponent(slug)}`;
  return `${origin}${path}?${PREVIEW_PARAM}=${encodeURIComponent(token)}`;
}
