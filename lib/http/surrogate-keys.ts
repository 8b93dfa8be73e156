/**
 * Surrogate keys (cache tags) of the public pages (issue #32 item 3): each cached page names what it shows,
 * so a CDN drops exactly what a write changed (Fastly's `Surrogate-Key`, Cloudflare's `Cache-Tag`).
 *
 * - every public page: `site` (purge everything);
 * - an item's page `/<locale>/<publicPath>/<slug>` (both languages): `<kind>:<slug>`;
 * - a kind's list `/<locale>/<publicPath>`: `list:<kind>`; the home page shows every kind's latest:
 *   `home` and `list:<kind>` for each kind.
 *
 * A write of an item (publish, unpublish, schedule, delete, any save) purges its item key and its kind's list
 * key (`keysOfWrite`). Kinds and their paths come from `CONTENT_MODEL` (model/model.ts).
 */
import { CONTENT_KIND_NAMES, CONTENT_MODEL, type ContentKind } from "../../model/model.ts";
import { SLUG_PATTERN } from "../../model/content.ts";

/** The key every public page carries. */
export const SITE_KEY = "site";

/** `list:<kind>`: the lists that show items of `kind` (its list page, the home page). */
export const listKey = (kind: ContentKind) => `list:${kind}`;
/** `<kind>:<slug>`: the item's pages, in every language. */
export const itemKey = (kind: ContentKind, slug: string) => `${kind}:${slug}`;

const KIND_BY_PATH = new Map<string, ContentKind>(
  CONTENT_KIND_NAMES.map((kind) => [CONTENT_MODEL[kind].publicPath, kind] as const),
);

/**
 * The surrogate keys of the public page at `pathname` (no query; `/en`, `/ar/blog/my-post`).
 * @returns the keys, `site` first; `[site]` alone for a page that shows no content item (about, services, …).
 */
export function keysOfPage(pathname: string): string[] {
  const parts = pathname.split("/").filter(Boolean); // [locale, path?, slug?]
  if (parts.length === 1) return [SITE_KEY, "home", ...CONTENT_KIND_NAMES.map(listKey)];
  const kind = parts[1] === undefined ? undefined : KIND_BY_PATH.get(parts[1]);
  if (kind === undefined || parts.length > 3) return [SITE_KEY];
  if (parts.length === 2) return [SITE_KEY, listKey(kind)];
  return SLUG_PATTERN.test(parts[2]!) ? [SITE_KEY, itemKey(kind, parts[2]!)] : [SITE_KEY];
}

/**
 * The keys to purge after a write of items of `kind` with these slugs (old and new ones when a slug
 * changed): each item's key, then the kind's list key. Slugs that are not valid slugs are skipped.
 */
export function keysOfWrite(kind: ContentKind, slugs: Iterable<string | null | undefined>): string[] {
  const keys = new Set<string>();
  for (const slug of slugs) if (typeof slug === "string" && SLUG_PATTERN.test(slug)) keys.add(itemKey(kind, slug));
  keys.add(listKey(kind));
  return [...keys];
}
