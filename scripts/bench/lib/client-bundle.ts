/**
 * What the production build sends to a browser, read from `build/`: React Router's manifest of browser assets
 * (the `assets` the server build exports: the entry client, and each route's module and static imports) with
 * the build's route discovery mode, and `build/client-modules.json` (the source modules each chunk holds,
 * written by the `client-modules` plugin in `vite.config.ts`).
 *
 * Used by `scripts/bench/js-size.ts` and `tests/security/bundle.test.ts`.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  hasDefaultExport: boolean;
  module: string;
  imports?: string[];
}

/** React Router's manifest of browser assets: URLs are site-absolute (`/assets/x-Hash.js`). */
export interface ClientManifest {
  /** The full manifest as a script (`/assets/manifest-<version>.js`). */
  url: string;
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
}

/** One page route and the JavaScript a first visit to it loads. */
export interface RouteBundle {
  /** React Router's route id, e.g. `routes/public/post`. */
  id: string;
  /** The URL pattern, e.g. `/:locale/blog/:slug`. */
  pattern: string;
  /** Files under `build/client`, e.g. `assets/post-Hash.js`: entry client, and every route in the match. */
  files: string[];
}

/**
 * The manifest and route discovery mode from `build/server/index.js`. With lazy discovery (React Router's
 * default) a page inlines the part of the manifest it needs and never loads `manifest-*.js`.
 */
export async function readClientManifest(buildDir: string): Promise<{ manifest: ClientManifest; lazy: boolean }> {
  const file = path.join(buildDir, "server", "index.js");
  const build = (await import(pathToFileURL(file).href)) as {
    assets?: ClientManifest;
    routeDiscovery?: { mode: string };
  };
  if (!build.assets) throw new Error(`${file} exports no assets: run npm run build`);
  return { manifest: build.assets, lazy: build.routeDiscovery?.mode !== "initial" };
}

/** `build/client-modules.json`: chunk file (`assets/x-Hash.js`) → project-relative source modules in it. */
export async function readChunkModules(buildDir: string): Promise<Record<string, string[]>> {
  const file = path.join(buildDir, "client-modules.json");
  try {
    return JSON.parse(await readFile(file, "utf8")) as Record<string, string[]>;
  } catch (error) {
    throw new Error(`cannot read ${file} (made by vite.config.ts's client-modules plugin): run npm run build`, {
      cause: error,
    });
  }
}

function chain(manifest: ClientManifest, id: string): ManifestRoute[] {
  const routes: ManifestRoute[] = [];
  for (let route = manifest.routes[id]; route; route = route.parentId ? manifest.routes[route.parentId] : undefined) {
    routes.unshift(route);
  }
  return routes;
}

/** The files a first visit to `route` loads (see `publicRouteBundles`), with its URL pattern. */
function bundleOf(manifest: ClientManifest, lazy: boolean, route: ManifestRoute): RouteBundle {
  const routes = chain(manifest, route.id);
  const urls = [
    ...(lazy ? [] : [manifest.url]),
    manifest.entry.module,
    ...manifest.entry.imports,
    ...routes.flatMap((r) => [r.module, ...(r.imports ?? [])]),
  ];
  const pattern = `/${routes
    .map((r) => r.path ?? "")
    .filter(Boolean)
    .join("/")}`;
  return { id: route.id, pattern, files: [...new Set(urls)].map((url) => url.replace(/^\//, "")) };
}

/** Routes that render a page (a default export) and have no child routes, whose chain passes `within`. */
function pageRoutes(manifest: ClientManifest, within: (route: ManifestRoute) => boolean): ManifestRoute[] {
  const parents = new Set(Object.values(manifest.routes).map((route) => route.parentId));
  return Object.values(manifest.routes).filter(
    (route) => route.hasDefaultExport && !parents.has(route.id) && chain(manifest, route.id).some(within),
  );
}

/**
 * The public pages (route ids under `routes/public/` that render, i.e. have a default export) and, for each,
 * the files React Router's `<Scripts>` loads on a first visit: the entry client and its imports, the module
 * and imports of every route from the root to the page, and `manifest-*.js` unless discovery is `lazy`.
 */
export function publicRouteBundles(manifest: ClientManifest, lazy: boolean): RouteBundle[] {
  return pageRoutes(manifest, (route) => route.id.startsWith("routes/public/"))
    .filter((route) => route.id.startsWith("routes/public/"))
    .map((route) => bundleOf(manifest, lazy, route));
}

/**
 * The admin's pages (every rendering route under the admin layout, `routes/admin/layout`, e.g. the post
 * editor `admin-post-edit`) and the files a first visit to each loads, as `publicRouteBundles`.
 */
export function adminRouteBundles(manifest: ClientManifest, lazy: boolean): RouteBundle[] {
  return pageRoutes(manifest, (route) => route.id === "routes/admin/layout").map((route) =>
    bundleOf(manifest, lazy, route),
  );
}

/**
 * Source modules that only the admin may load (spec: the admin needs JavaScript, visitors should not pay
 * for it): admin routes and components, every module of the site server (`server/`: the admin's writes, sessions, throttles), and Prettier (the admin's
 * formatter, which runs on the server).
 */
export const ADMIN_ONLY_MODULES: readonly RegExp[] = [
  /^web\/routes\/admin\//,
  /^web\/components\/admin\//,
  /^web\/routes\/resources\/admin-/,
  /^server\//,
  /(^|\/)node_modules\/prettier\//,
];

/** Every admin-only module found in `files`, as `{ file, module }` (empty when the rule holds). */
export function adminModulesIn(
  files: readonly string[],
  chunkModules: Record<string, string[]>,
): { file: string; module: string }[] {
  return files.flatMap((file) =>
    (chunkModules[file] ?? [])
      .filter((module) => ADMIN_ONLY_MODULES.some((pattern) => pattern.test(module)))
      .map((module) => ({ file, module })),
  );
}
