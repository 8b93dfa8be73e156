import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { timingSafeEqual } from "node:crypto";
import qs from "qs";
import { Store } from "./db/store.ts";
import { AppwriteError } from "./errors.ts";
import { readJsonBody } from "./http/body.ts";
import { GUEST_ROLES } from "./http/context.ts";
import type { AppState, Caller, RequestContext } from "./http/context.ts";
import { send } from "./http/respond.ts";
import { GUEST_SCOPES, Router } from "./http/router.ts";
import type { Reply } from "./http/router.ts";
import { resolveProject } from "./project.ts";
import * as attributes from "./services/attributes.ts";
import * as databases from "./services/databases.ts";
import * as documents from "./services/documents.ts";
import * as files from "./services/files.ts";
import * as health from "./services/health.ts";
import * as storage from "./services/storage.ts";
import * as users from "./services/users.ts";

/** Options of `startEmulator`. */
export interface EmulatorOptions {
  /** Directory for `emulator.sqlite`, `project.json` and `files/`. */
  dataDir: string;
  /** TCP port; 0 picks a free port. Default 8787. */
  port?: number;
  /** Loopback host to bind (default `127.0.0.1`); any other host is refused. */
  host?: string;
  /** Project ID; default: kept in `DATA_DIR/project.json`, generated once. */
  projectId?: string;
  /** API key; default: kept in `DATA_DIR/project.json`, generated once. */
  apiKey?: string;
}

/** A started emulator. */
export interface RunningEmulator {
  /** Base URL for the SDK, e.g. `http://127.0.0.1:8787/v1`. */
  endpoint: string;
  projectId: string;
  apiKey: string;
  /** Stop listening, close open connections, then close the database. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);
const SERVICES = [health, databases, attributes, documents, storage, files, users];
const CORS_HEADERS =
  "Content-Type, Content-Range, Range, Cache-Control, X-Requested-With, X-Forwarded-For, X-Forwarded-User-Agent, X-Fallback-Cookies, X-Appwrite-Project, X-Appwrite-Key, X-Appwrite-JWT, X-Appwrite-Locale, X-Appwrite-Response-Format, X-Appwrite-ID, X-Appwrite-Session, X-Appwrite-Dev-Key, X-SDK-Version, X-SDK-Name, X-SDK-Language, X-SDK-Platform, X-SDK-GraphQL, X-SDK-Profile";

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Resolve project and caller (REFERENCE §1 headers, §7 errors): no project → 401
 * `general_access_forbidden`; unknown project → 404 `project_not_found`; a wrong
 * `X-Appwrite-Key` → 401 `user_unauthorized`; no key → guest. Then the route's scope: a guest
 * lacking it gets 401 `general_unauthorized_scope` (AW `shared/api.php`).
 */
function authenticate(app: AppState, req: IncomingMessage, query: Record<string, unknown>, scope: string): Caller {
  const guest: Caller = { isKey: false, roles: GUEST_ROLES };
  if (scope === "public") return guest;
  const project =
    header(req, "x-appwrite-project") ?? (typeof query["project"] === "string" ? query["project"] : undefined);
  if (!project)
    throw new AppwriteError(
      "general_access_forbidden",
      "No Appwrite project was specified. Please specify your project ID when initializing your Appwrite SDK.",
    );
  if (project !== app.projectId) throw new AppwriteError("project_not_found");
  const key = header(req, "x-appwrite-key");
  if (key !== undefined) {
    if (!sameSecret(key, app.apiKey)) throw new AppwriteError("user_unauthorized");
    return { isKey: true, roles: [] };
  }
  if (!GUEST_SCOPES.has(scope as never)) {
    throw new AppwriteError("general_unauthorized_scope", `User (role: guests) missing scopes (["${scope}"])`);
  }
  return guest;
}

async function handle(app: AppState, router: Router, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const origin = header(req, "origin");
  if (origin) {
    res.setHeader("Access-Control-Allow-Origin", origin);
    res.setHeader("Access-Control-Allow-Credentials", "true");
    res.setHeader("Access-Control-Expose-Headers", "X-Appwrite-Session, X-Fallback-Cookies");
    res.setHeader("Vary", "Origin");
  }
  const method = req.method ?? "GET";
  if (method === "OPTIONS") {
    res.setHeader("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE");
    res.setHeader("Access-Control-Allow-Headers", CORS_HEADERS);
    await send(res, { status: 204, empty: true });
    return;
  }
  let reply: Reply;
  try {
    const url = new URL(req.url ?? "/", "http://emulator.invalid");
    if (url.pathname !== "/v1" && !url.pathname.startsWith("/v1/")) throw new AppwriteError("general_route_not_found");
    const path = url.pathname.slice(3) || "/";
    const query = qs.parse(url.search.slice(1), { arrayLimit: 100, parameterLimit: 1000, depth: 5 }) as Record<
      string,
      unknown
    >;
    const match = router.match(method, path);
    const caller = authenticate(app, req, query, match.scope);
    let body: Promise<Record<string, unknown>> | undefined;
    const ctx: RequestContext = {
      req,
      method,
      path,
      params: match.params,
      query,
      caller,
      app,
      body: () => (body ??= readJsonBody(req)),
    };
    reply = await match.handler(ctx);
  } catch (error) {
    if (error instanceof AppwriteError) {
      reply = { status: error.code, json: error.toBody() };
    } else {
      console.error("[emulator] unexpected error", error);
      reply = { status: 500, json: new AppwriteError("general_unknown").toBody() };
    }
    req.resume();
  }
  await send(res, reply);
}

/**
 * Start the Appwrite-compatible server on loopback (ARCHITECTURE decision 1). Opens (or
 * creates) the SQLite store in `dataDir`, resolves the project ID and key, registers every
 * service and listens. Throws when `host` is not a loopback address.
 */
export async function startEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1";
  if (!LOOPBACK.has(host)) throw new Error(`The emulator only binds to loopback; refusing host "${host}".`);
  const identity = resolveProject(options.dataDir, options.projectId, options.apiKey);
  const store = new Store(options.dataDir);
  const app: AppState = { dataDir: options.dataDir, ...identity, store };
  const router = new Router();
  for (const service of SERVICES) service.register(router);

  const server = createServer((req, res) => {
    handle(app, router, req, res).catch((error: unknown) => {
      console.error("[emulator] failed to answer", error);
      res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8787, host === "localhost" ? "127.0.0.1" : host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostForUrl = host === "::1" ? "[::1]" : host === "localhost" ? "127.0.0.1" : host;
  return {
    endpoint: `http://${hostForUrl}:${port}/v1`,
    projectId: identity.projectId,
    apiKey: identity.apiKey,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      store.close();
    },
  };
}
