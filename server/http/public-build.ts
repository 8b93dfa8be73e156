/**
 * The public pages' own server build (issue #33 item 1): the site's build with only the routes a public page
 * can match, the root and the locale layout's subtree (18 of 52 routes), for React Router's request handler.
 *
 * React Router's per-request work grows with the route table, not with the page: each document request
 * matches the URL against every ranked branch twice (`matchServerRoutes`, then the static handler's `query`),
 * and `<ServerRouter>` builds the whole route tree again (`createServerRoutes` over the manifest, then
 * `createStaticRouter`'s `convertRoutesToDataRoutes`). The admin's 15 routes and the 19 resource routes can
 * never match a public page's URL, so a page rendered with the smaller table is the same page, byte for byte:
 * the same matches, loaders, modules and markup. The hydration data (`<Scripts>`) names the routes matching the
 * URL and each of its ancestor paths (React Router's partial manifest, `routeDiscovery: lazy`): the smaller
 * table gives the same set only because no route outside it can match such a path, which
 * `publicPagesBuild` checks when it builds (else it gives null: the whole build serves every request).
 * Navigations in the browser still ask the whole build (`/__manifest`, `*.data` are not page paths).
 */
import type { ServerBuild } from "react-router";
import { PAGE_PATH } from "./page-paths.ts";

/** A segment a public page's first segment (`PAGE_PATH`) could be: two lowercase letters. */
const LOCALE_LIKE = /^[a-z]{2}$/;

type BuildRoute = ServerBuild["routes"][string];

/** The route's full path, its own and its parents' `path`s joined, as segments (`:param`, `*` kept). */
function segmentsOf(routes: ServerBuild["routes"], route: BuildRoute | undefined): string[] {
  const own: string[] = [];
  for (let at = route; at; at = at.parentId ? routes[at.parentId] : undefined) {
    if (at.path) own.unshift(...at.path.split("/").filter(Boolean));
  }
  return own;
}

/**
 * Whether no path `PAGE_PATH` accepts, nor any ancestor of one, can match `segments`: the first segment
 * is static and not locale-like, or a static segment holds a dot (public page paths hold none).
 */
function neverMatchesAPublicPage(segments: readonly string[]): boolean {
  const first = segments[0];
  if (first !== undefined && !first.startsWith(":") && first !== "*" && !LOCALE_LIKE.test(first)) return true;
  return segments.some((segment) => !segment.startsWith(":") && segment !== "*" && segment.includes("."));
}

/**
 * `build` reduced to the root route, its pathless and index children and the subtree of its `:locale` child
 * (the public layout), for `createRequestHandler`; null when `build` has no `:locale` route, or when some route
 * outside that set could match a public page's path or an ancestor of one (the pages would then differ).
 * @param build the site's server build (`build/server/index.js`, as React Router's Vite plugin writes it).
 * @returns a new build object sharing `build`'s modules, or null.
 */
export function publicPagesBuild(build: ServerBuild): ServerBuild | null {
  const all = build.routes;
  const root = Object.values(all).find((route) => route && route.parentId === undefined);
  const locale = Object.values(all).find((route) => route?.parentId === root?.id && route?.path === ":locale");
  if (!root || !locale) return null;
  const kept = new Set<string>([root.id]);
  const keep = (route: BuildRoute | undefined): boolean => {
    for (let at = route; at; at = at.parentId ? all[at.parentId] : undefined) {
      if (at.id === locale.id) return true;
      if (at.parentId === root.id) return at.index === true && !at.path;
    }
    return false;
  };
  for (const [id, route] of Object.entries(all)) if (keep(route)) kept.add(id);
  for (const [id, route] of Object.entries(all)) {
    if (!kept.has(id) && !neverMatchesAPublicPage(segmentsOf(all, route))) return null;
  }
  const routes = Object.fromEntries(Object.entries(all).filter(([id]) => kept.has(id)));
  const manifestRoutes = Object.fromEntries(Object.entries(build.assets.routes).filter(([id]) => kept.has(id)));
  return { ...build, routes, assets: { ...build.assets, routes: manifestRoutes } };
}

/**
 * Whether `publicPagesBuild`'s build answers this request as the whole build would: a `GET` or `HEAD` of a
 * public page's path (`pathname` without its query).
 */
export function isPublicPageRequest(method: string, pathname: string): boolean {
  return (method === "GET" || method === "HEAD") && PAGE_PATH.test(pathname);
}
