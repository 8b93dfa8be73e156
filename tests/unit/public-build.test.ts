import { describe, expect, it } from "vitest";
import { matchRoutes } from "react-router";
import type { ServerBuild } from "react-router";
import routeConfig from "../../web/routes.ts";
import { isPublicPageRequest, publicPagesBuild } from "../../server/http/public-build.ts";

interface RouteEntry {
  id?: string;
  path?: string;
  index?: boolean;
  file: string;
  children?: RouteEntry[];
}

type BuildRoute = ServerBuild["routes"][string] & object;

/** The server build's `routes` record as React Router's Vite plugin writes it from a route config. */
function buildRoutesOf(entries: RouteEntry[], parentId = "root", out: Record<string, BuildRoute> = {}) {
  for (const entry of entries) {
    const id = entry.id ?? entry.file.replace(/\.tsx?$/, "");
    out[id] = { id, parentId, path: entry.path, index: entry.index, module: {} } as BuildRoute;
    buildRoutesOf(entry.children ?? [], id, out);
  }
  return out;
}

/** A build of `entries` under a root route, with the same routes in its client manifest. */
function buildOf(entries: RouteEntry[]): ServerBuild {
  const routes = buildRoutesOf(entries, "root", { root: { id: "root", path: "", module: {} } as BuildRoute });
  const manifest = Object.fromEntries(Object.keys(routes).map((id) => [id, { id }]));
  return { routes, assets: { routes: manifest, version: "1" } } as unknown as ServerBuild;
}

/** React Router's route objects for `routes` (a build's record), for `matchRoutes`. */
function treeOf(routes: ServerBuild["routes"], parentId?: string): Parameters<typeof matchRoutes>[0] {
  return Object.values(routes)
    .filter((route) => route!.parentId === parentId)
    .map((route) => ({
      id: route!.id,
      path: route!.path,
      index: route!.index,
      children: route!.index ? undefined : treeOf(routes, route!.id),
    })) as Parameters<typeof matchRoutes>[0];
}

/** The route ids a URL and each of its ancestor paths match (what the partial manifest holds). */
function idsMatching(routes: ServerBuild["routes"], pathname: string): string[] {
  const tree = treeOf(routes);
  const segments = pathname.split("/").filter(Boolean);
  const paths = [pathname, ...segments.map((_, i) => `/${segments.slice(0, i).join("/")}`)];
  return [...new Set(paths.flatMap((path) => (matchRoutes(tree, path) ?? []).map((match) => match.route.id!)))].sort();
}

describe("public pages' build (issue #33 item 1)", () => {
  const full = buildOf(routeConfig as RouteEntry[]);
  const pages = publicPagesBuild(full);

  it("keeps the root, its index and the locale layout's routes of the site's table, and nothing else", () => {
    expect(pages).not.toBeNull();
    const kept = Object.keys(pages!.routes);
    expect(kept).toEqual(expect.arrayContaining(["root", "routes/public/root-redirect", "routes/public/layout"]));
    expect(kept).toContain("routes/public/home");
    expect(kept).toContain("routes/public/post");
    expect(kept.some((id) => id.includes("admin") || id.includes("resources"))).toBe(false);
    expect(kept.length).toBeLessThan(Object.keys(full.routes).length / 2);
    expect(Object.keys(pages!.assets.routes).sort()).toEqual([...kept].sort());
  });

  it("matches every public page path and its ancestors to the same routes as the whole table", () => {
    for (const pathname of ["/en", "/ar", "/en/blog", "/en/blog/a-post", "/ar/ventures/x", "/en/nope/deeper", "/xx"]) {
      expect(isPublicPageRequest("GET", pathname)).toBe(true);
      expect(idsMatching(pages!.routes, pathname)).toEqual(idsMatching(full.routes, pathname));
    }
  });

  it("is not used for resources, data requests, the admin or other methods", () => {
    for (const pathname of ["/", "/en/rss.xml", "/en/blog.data", "/admin", "/admin/blog", "/__manifest", "/media/x"]) {
      expect(isPublicPageRequest("GET", pathname)).toBe(false);
    }
    expect(isPublicPageRequest("POST", "/en/contact")).toBe(false);
    expect(isPublicPageRequest("HEAD", "/en")).toBe(true);
  });

  it("is not made when a route outside the public pages could match a page path or an ancestor of one", () => {
    const withFeed = [...(routeConfig as RouteEntry[]), { path: ":locale/feed", file: "routes/resources/feed.ts" }];
    expect(publicPagesBuild(buildOf(withFeed))).toBeNull();
    const withShortPrefix = [...(routeConfig as RouteEntry[]), { path: "go/:code", file: "routes/resources/go.ts" }];
    expect(publicPagesBuild(buildOf(withShortPrefix))).toBeNull();
    expect(publicPagesBuild(buildOf([{ path: "admin", file: "routes/admin/layout.tsx" }]))).toBeNull();
  });
});
