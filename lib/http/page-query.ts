/**
 * The query parameters public pages read (SECURITY C54: the page cache cannot be bypassed). A page's URL
 * with any other parameter, or a value the page would not use, is redirected by the site server to its
 * canonical URL, so `?anything=<random>` costs a redirect, not a render, and each page has a small, fixed
 * set of cacheable URLs. Shared by the services route (which reads `?tab=`) and the server; it imports only the content model's plain
 * data, so it is safe in the browser.
 *
 * The login page (`?redirectTo=`) is never cached, so it is not listed here: its query reaches it as sent.
 */
import { CONTENT_KIND_NAMES, CONTENT_MODEL, type ContentKindSpec } from "../../model/model.ts";
/**
 * Approach tabs of the services page (spec §2: Strategic Foundation, Operational Model, Organizational
 * Culture; `?tab=1` … `?tab=3`). A constant, not read from the messages, so the browser never loads them.
 */
export const SERVICES_TAB_COUNT = 3;

/**
 * The approach tab to open for a `?tab=` value: `?tab=N` (1-based, decimal digits only) as a 0-based index,
 * else 0 (the first tab; spec §2).
 */
export function servicesTab(value: string | null, count = SERVICES_TAB_COUNT): number {
  if (value === null || !/^\d{1,3}$/.test(value)) return 0;
  const n = Number(value);
  return n >= 1 && n <= count ? n - 1 : 0;
}

/** Per page: the parameters it reads, each mapped to its canonical value (null: drop it, the default). */
const PAGE_PARAMETERS: ReadonlyArray<{ path: RegExp; params: Record<string, (value: string) => string | null> }> = [
  {
    path: /^\/[a-z]{2}\/services\/?$/,
    params: {
      tab: (value) => {
        const index = servicesTab(value);
        return index === 0 && value !== "1" ? null : String(index + 1);
      },
    },
  },
  // A paged list's page (`pagedList`, the blog: issue #18 item 3): 2 or more in plain decimal; page 1 is the
  // bare URL. `all=1`: the switch that adds the items written only in the other language (issue #35); any
  // other value is off.
  ...CONTENT_KIND_NAMES.filter((kind) => (CONTENT_MODEL[kind] as ContentKindSpec).pagedList === true).map((kind) => ({
    path: new RegExp(`^/[a-z]{2}/${CONTENT_MODEL[kind].publicPath}/?$`),
    params: {
      page: (value: string) => (/^\d{1,9}$/.test(value) && Number(value) >= 2 ? String(Number(value)) : null),
      all: (value: string) => (value === "1" ? "1" : null),
    },
  })),
  {
    // A shared preview link's token (issue #16, `lib/publish/preview-link.ts`: `<expiry>.<HMAC, base64url>.<key>.<document id>`);
    // such a page is never cached, and one of a public item redirects to its plain URL.
    path: new RegExp(
      `^/[a-z]{2}/(?:${CONTENT_KIND_NAMES.map((kind) => CONTENT_MODEL[kind].publicPath).join("|")})/[^/]+/?$`,
    ),
    params: {
      preview: (value) =>
        /^\d{1,12}\.[A-Za-z0-9_-]{43}\.[A-Za-z0-9]{1,32}\.[A-Za-z0-9][A-Za-z0-9._-]{0,35}$/.test(value) ? value : null,
    },
  },
];

/**
 * The canonical query of a public page: only the parameters the page at `pathname` reads, first value of
 * each, normalized (`?tab=02` → `?tab=2`), unknown values dropped, in a fixed order.
 * @param pathname the URL's path, without the query.
 * @param search the raw query, with or without its leading `?` (`""` for none).
 * @returns `""` or `"?name=value&…"`; equal to `search` when the URL is already canonical.
 */
export function canonicalPageQuery(pathname: string, search: string): string {
  const rule = PAGE_PARAMETERS.find((r) => r.path.test(pathname));
  if (!rule || search === "" || search === "?") return "";
  const given = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const [name, canonical] of Object.entries(rule.params)) {
    const value = given.get(name);
    const normalized = value === null ? null : canonical(value);
    if (normalized !== null) kept.set(name, normalized);
  }
  const query = kept.toString();
  return query ? `?${query}` : "";
}
