import { AppwriteError } from "../errors.ts";
import { APPWRITE_ROUTES } from "./appwrite-routes.ts";
import type { RequestContext } from "./context.ts";

/** What a handler returns; `send` in `respond.ts` writes it. */
export type Reply =
  | { status: number; json: unknown; headers?: Record<string, string> }
  /** A JSON body already serialised (UTF-8) as `toJson` writes it (e.g. a document list, `document-json.ts`). */
  | { status: number; jsonBytes: Buffer }
  | { status: number; text: string }
  | { status: number; empty: true }
  | { status: number; file: string; size: number; start?: number; headers: Record<string, string> }
  | { status: number; buffer: Buffer; headers: Record<string, string> };

/** A route handler: reads the context, returns a reply or throws an `AppwriteError`. */
export type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;

/**
 * Scope a route needs (AW `app/config/roles.php`). `public` routes need neither a project
 * nor a scope; guests hold only the scopes in `GUEST_SCOPES`, users those in `USER_SCOPES`;
 * an API key holds all but `account`.
 */
export type Scope =
  | "public"
  | "project"
  | "account"
  | "sessions.write"
  | "databases.read"
  | "databases.write"
  | "collections.read"
  | "collections.write"
  | "attributes.read"
  | "attributes.write"
  | "indexes.read"
  | "indexes.write"
  | "documents.read"
  | "documents.write"
  | "buckets.read"
  | "buckets.write"
  | "files.read"
  | "files.write"
  | "users.read"
  | "users.write"
  | "health.read"
  | "tables.read"
  | "tables.write"
  | "rows.read"
  | "rows.write"
  | "providers.read"
  | "providers.write"
  | "messages.read"
  | "messages.write"
  | "targets.read"
  | "targets.write"
  | "teams.read"
  | "teams.write";

/** Scopes of the `guests` role that this emulator serves (AW `app/config/roles.php`). */
export const GUEST_SCOPES: ReadonlySet<Scope> = new Set<Scope>([
  "project",
  "sessions.write",
  "documents.read",
  "documents.write",
  "rows.read",
  "rows.write",
  "files.read",
  "files.write",
]);

/** Scopes of the `users` role: the guest scopes plus `account` and `teams.*` (AW `app/config/roles.php`). */
export const USER_SCOPES: ReadonlySet<Scope> = new Set<Scope>([
  ...GUEST_SCOPES,
  "account",
  "teams.read",
  "teams.write",
]);

/** A route's scope, or the scopes of which a caller needs one (AW labels such as `["tables.read", "collections.read"]`). */
export type RouteScope = Scope | readonly Scope[];

interface Route {
  method: string;
  segments: readonly string[];
  scope: RouteScope;
  handler: Handler;
}

/** A successful route lookup: the route plus its decoded path parameters. */
export interface RouteMatch {
  handler: Handler;
  scope: RouteScope;
  params: Record<string, string>;
}

function splitPath(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "");
}

/**
 * Method + path router with `:name` parameters. Paths are relative to `/v1`.
 * Registering a route is the only thing a service module does with it.
 */
export class Router {
  /** Routes by `method segment-count` (only those can match), each list in registration order. */
  private readonly routes = new Map<string, Route[]>();
  private readonly knownShapes = [...APPWRITE_ROUTES.entries()].map(([shape, methods]) => ({
    segments: splitPath(shape),
    methods,
  }));

  /** Register `handler` for `method path` needing `scope`. */
  add(method: string, path: string, scope: RouteScope, handler: Handler): void {
    const segments = splitPath(path);
    const key = `${method} ${segments.length}`;
    const bucket = this.routes.get(key) ?? [];
    bucket.push({ method, segments, scope, handler });
    this.routes.set(key, bucket);
  }

  /**
   * Find the handler for a request path (without `/v1`).
   * Throws 405 `general_not_implemented` for an Appwrite route the emulator does not serve,
   * 404 `general_route_not_found` for anything else (AW `general.php` wildcard route).
   */
  match(method: string, path: string): RouteMatch {
    const segments = splitPath(path);
    for (const route of this.routes.get(`${method} ${segments.length}`) ?? []) {
      const params = matchSegments(route.segments, segments);
      if (params) return { handler: route.handler, scope: route.scope, params };
    }
    const known = this.knownShapes.some(
      (shape) => shape.methods.includes(method) && matchSegments(shape.segments, segments, ":"),
    );
    if (known) throw new AppwriteError("general_not_implemented");
    throw new AppwriteError("general_route_not_found");
  }
}

function matchSegments(
  pattern: readonly string[],
  actual: readonly string[],
  wildcard?: string,
): Record<string, string> | null {
  if (pattern.length !== actual.length) return null;
  // Static segments first: most routes of a bucket differ there, and a parameter is decoded only for the route
  // that matches (issue #33 item 4: routing was decoding ids for every route it tried).
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i]!;
    if (wildcard !== undefined ? expected === wildcard : expected.startsWith(":")) continue;
    if (expected !== actual[i]) return null;
  }
  const params: Record<string, string> = {};
  if (wildcard !== undefined) return params;
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i]!;
    if (!expected.startsWith(":")) continue;
    try {
      params[expected.slice(1)] = decodeURIComponent(actual[i]!);
    } catch {
      return null;
    }
  }
  return params;
}
