/**
 * Previews of drafts and scheduled items at their public URL (issue #16 item 3). A signed-in user reads
 * them with their own session (Appwrite lets an item's editors read its drafts: issue #28 item 3); a
 * signed-out visitor with a shared link (`?preview=<token>`, `lib/publish/preview-link.ts`) gets the one
 * document it was signed for, read with the site's key, once the token's signature and expiry are checked and
 * the document still holds the page's slug, locale and the link's key (issue #28 item 4). A preview is never cached (`Cache-Control: no-store`, so neither
 * the page cache nor a browser keeps it) and never indexed (`X-Robots-Tag: noindex`, a robots meta tag, and
 * it is absent from sitemaps and feeds, which read as a guest).
 */
import { AppwriteException, type Models } from "node-appwrite";
import { redirect } from "react-router";
import { createSessionServices } from "../../lib/appwrite/client.ts";
import type { ContentReader } from "../../lib/appwrite/content-store.ts";
import { loadConfig } from "../../lib/config.ts";
import {
  loadPreviewSecret,
  PREVIEW_PARAM,
  previewKeyOf,
  readPreview,
  signPreview,
} from "../../lib/publish/preview-link.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL, DEFAULT_CONTENT_LOCALE, isContentLocale, type ContentKind } from "../../model/model.ts";
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
 * Loads the item `kind`/`slug` of a public page in `locale`: as a guest first (published items); else, for a
 * signed-in user (their session: Appwrite lets an item's editors read it) or a valid shared link, as a
 * preview. A URL with `?preview=` of an item that is public redirects to its plain URL, so the page cache
 * keeps one URL per page (SECURITY C54).
 * @param load reads the item with a reader (`loadPost`, `loadVenture`), null when not found.
 * @returns null when neither may see it (the page answers 404).
 * @throws {Response} a redirect to the plain URL (above).
 */
export async function loadItemPage<T>(
  request: Request,
  kind: ContentKind,
  slug: string,
  load: (slug: string, reader?: ContentReader) => Promise<T | null>,
  locale = new URL(request.url).pathname.split("/")[1] ?? "",
): Promise<ItemPage<T> | null> {
  const url = new URL(request.url);
  const token = url.searchParams.get(PREVIEW_PARAM);
  const published = await load(slug);
  if (published) {
    if (token !== null) throw redirect(url.pathname);
    return { item: published, preview: false };
  }
  for (const reader of await previewReaders(kind, slug, locale, request, token)) {
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

/** The readers that may show `kind`/`slug` as a preview: the user's session, then a valid link's document. */
async function previewReaders(
  kind: ContentKind,
  slug: string,
  locale: string,
  request: Request,
  token: string | null,
): Promise<ContentReader[]> {
  const readers: ContentReader[] = [];
  const session = await sessionSecret(request);
  if (session) readers.push(createSessionServices(appwriteLocation(), session));
  if (token !== null) {
    const link = readPreview(await previewSecret(), kind, locale, token);
    const doc = link.check === "valid" ? await linkedDocument(kind, link.documentId) : null;
    // The link's document only, while it holds this slug, in this locale, at the link's key (issue #28 item 4).
    if (doc && doc.slug === slug && documentLocaleOf(doc) === locale && previewKeyOf(doc) === link.key) {
      readers.push(oneDocumentReader(doc));
    }
  }
  return readers;
}

/** Document `documentId` of `kind`, read with the key, or null when it is gone (a deleted item's links stop). */
async function linkedDocument(kind: ContentKind, documentId: string): Promise<Models.DefaultRow | null> {
  try {
    return await getApiKeyServices().tablesDB.getRow({
      databaseId: DATABASE_ID,
      tableId: CONTENT_MODEL[kind].collectionId,
      rowId: documentId,
    });
  } catch (error) {
    if (error instanceof AppwriteException && error.code === 404) return null;
    throw error;
  }
}

/** The locale of a stored document (`en` when it has none: written before locales). */
const documentLocaleOf = (doc: Models.DefaultRow) =>
  isContentLocale(doc.locale) ? doc.locale : DEFAULT_CONTENT_LOCALE;

/**
 * A reader that knows one document: every list answers it and nothing else, so a guest's preview shows that
 * document alone, never another version or item (issue #28 item 4: "reads that one document, nothing else").
 */
function oneDocumentReader(doc: Models.DefaultRow): ContentReader {
  const tablesDB = {
    listRows: async () => ({ total: 1, rows: [doc] }),
    getRow: async () => doc,
  };
  return { tablesDB } as unknown as ContentReader;
}

/**
 * The shared preview link of `doc` (a `kind` document the user may edit) on `origin` (`https://host`): its
 * public URL in its own locale with a token bound to it (`signPreview`), valid for 7 days (`PREVIEW_LINK_TTL_MS`).
 */
export async function sharePreviewUrl(origin: string, kind: ContentKind, doc: Models.DefaultRow): Promise<string> {
  const locale = documentLocaleOf(doc);
  const token = signPreview(await previewSecret(), { kind, documentId: doc.$id, locale, key: previewKeyOf(doc) });
  const path = `/${locale}/${CONTENT_MODEL[kind].publicPath}/${encodeURIComponent(String(doc.slug))}`;
  return `${origin}${path}?${PREVIEW_PARAM}=${encodeURIComponent(token)}`;
}
