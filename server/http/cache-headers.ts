/**
 * The caching headers of a signed-out public page (issue #32 item 3: CDN-ready caching), kept apart from
 * the page cache (`cached-pages.ts`) that sends them:
 *
 * - `Cache-Control: public, max-age=0, s-maxage=N, stale-while-revalidate=M`: browsers revalidate every time
 *   (a weak ETag makes that a 304), shared caches (a CDN, nginx's `proxy_cache`) serve it N seconds and M more
 *   while they fetch a new copy (RFC 9111 §5.2.2.10; RFC 5861 §3). `CDN_MAX_AGE=0`: `public, no-cache`, as before.
 * - `Surrogate-Key` (space-separated, Fastly) and `Cache-Tag` (comma-separated, Cloudflare): what the page
 *   shows (`lib/http/surrogate-keys.ts`), purged on writes by `lib/publish/purge.ts`.
 *
 * Only pages the page cache may share get these (signed out, 200, HTML, no cookie set, no `private`); a
 * signed-in response stays `private, no-store` and a preview `private, no-store` (SECURITY C25, C66). `Vary:
 * Cookie, Accept-Encoding` is set by the cache itself: a session cookie gets another response.
 */
import { keysOfPage } from "../../lib/http/surrogate-keys.ts";
import type { DeployConfig } from "../../lib/deploy-config.ts";

/** What a shared cache may do with a public page: seconds fresh (`s-maxage`) and stale while revalidating. */
export type SharedCaching = Pick<DeployConfig, "sharedMaxAge" | "staleWhileRevalidate">;

/** The `Cache-Control` of a signed-out public page under `caching`. */
export function publicCacheControl(caching: SharedCaching): string {
  if (caching.sharedMaxAge === 0) return "public, no-cache";
  const stale = caching.staleWhileRevalidate > 0 ? `, stale-while-revalidate=${caching.staleWhileRevalidate}` : "";
  return `public, max-age=0, s-maxage=${caching.sharedMaxAge}${stale}`;
}

/**
 * A function giving the caching headers of the signed-out public page at `url` (path and canonical query):
 * `Cache-Control`, `Surrogate-Key`, `Cache-Tag`. Results are remembered per path (bounded), since a hit is
 * meant to cost about what a static file does.
 */
export function publicPageHeaders(caching: SharedCaching): (url: string) => ReadonlyArray<readonly [string, string]> {
  const cacheControl = publicCacheControl(caching);
  const known = new Map<string, ReadonlyArray<readonly [string, string]>>();
  return (url) => {
    const mark = url.indexOf("?");
    const pathname = mark === -1 ? url : url.slice(0, mark);
    let headers = known.get(pathname);
    if (!headers) {
      const keys = keysOfPage(pathname);
      headers = [
        ["Cache-Control", cacheControl],
        ["Surrogate-Key", keys.join(" ")],
        ["Cache-Tag", keys.join(",")],
      ];
      if (known.size >= 2000) known.clear();
      known.set(pathname, headers);
    }
    return headers;
  };
}
