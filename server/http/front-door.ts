/**
 * What the site's HTTP server answers before routing (`server/serve-site.ts`): the headers every response
 * carries (SECURITY C24), the health paths load balancers probe, a refusal (bad or foreign host: C56, C72), a
 * permanent redirect, and the canonical URL of a public page asked with a query it does not read (C54).
 */
import type { ServerResponse } from "node:http";
import { canonicalPageQuery } from "../../lib/http/page-query.ts";
import { PAGE_PATH, PRIVATE_PAGE } from "./page-paths.ts";

/** Headers of every response (SECURITY C24). */
export const COMMON_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
} as const;

/** Answered for any well-formed host: load balancers probe it by address. */
export const HEALTH_PATH = /^\/(?:healthz|readyz)(?:\?|$)/;
/** The readiness check for load balancers (`server/http/readiness.ts`). */
export const READY_PATH = /^\/readyz(?:\?|$)/;

/** Sets `COMMON_HEADERS` on `res`. */
export function setCommonHeaders(res: Pick<ServerResponse, "setHeader">): void {
  for (const [name, value] of Object.entries(COMMON_HEADERS)) res.setHeader(name, value);
}

/**
 * The canonical URL of a `GET`/`HEAD` of a public page whose query holds parameters the page does not read,
 * or a value it would not use (SECURITY C54); null when `url` is canonical or not a public page.
 */
export function canonicalRedirect(method: string | undefined, url: string): string | null {
  if (method !== "GET" && method !== "HEAD") return null;
  const mark = url.indexOf("?");
  if (mark === -1) return null;
  const pathname = url.slice(0, mark);
  if (!PAGE_PATH.test(pathname) || PRIVATE_PAGE.test(pathname)) return null;
  const search = url.slice(mark);
  const canonical = canonicalPageQuery(pathname, search);
  return canonical === search ? null : pathname + canonical;
}

/** Answers a request refused before routing (bad or foreign host) with a short plain-text body. */
export function refuse(res: ServerResponse, status: number, message: string): void {
  setCommonHeaders(res);
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" }).end(message);
}

/** A permanent redirect to `location` (a path on this site), cacheable for an hour. */
export function redirect(res: ServerResponse, location: string): void {
  setCommonHeaders(res);
  res.writeHead(301, { Location: location, "Cache-Control": "public, max-age=3600" }).end();
}
