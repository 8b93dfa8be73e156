import type { IncomingMessage, ServerResponse } from "node:http";
import { isIP } from "node:net";
import { authenticate } from "../auth/caller.ts";
import { AppwriteError } from "../errors.ts";
import { readJsonBody } from "./body.ts";
import { parseQueryString, splitTarget } from "./query-string.ts";
import type { AppState, RequestContext } from "./context.ts";
import { send } from "./respond.ts";
import type { Reply, Router } from "./router.ts";

/** Request headers the web SDK may send (AW `app/config/cors.php`). */
const CORS_HEADERS =
  "Content-Type, Content-Range, Range, Cache-Control, X-Requested-With, X-Forwarded-For, X-Forwarded-User-Agent, X-Fallback-Cookies, X-Appwrite-Project, X-Appwrite-Key, X-Appwrite-JWT, X-Appwrite-Locale, X-Appwrite-Response-Format, X-Appwrite-ID, X-Appwrite-Session, X-Appwrite-Dev-Key, X-Appwrite-Impersonate-User-Id, X-Appwrite-Impersonate-User-Email, X-Appwrite-Impersonate-User-Phone, X-SDK-Version, X-SDK-Name, X-SDK-Language, X-SDK-Platform, X-SDK-GraphQL, X-SDK-Profile";
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Whether a browser origin is trusted, like an Appwrite web platform: loopback hosts always
 * (Appwrite always allows `localhost`), plus the configured `allowedOrigins`.
 */
export function originAllowed(app: AppState, origin: string): boolean {
  if (app.allowedOrigins.has(origin)) return true;
  try {
    const host = new URL(origin).hostname.replace(/^\[|\]$/g, "");
    return host === "localhost" || host.endsWith(".localhost") || (isIP(host) !== 0 && /^(127\.|::1$)/.test(host));
  } catch {
    return false;
  }
}

/**
 * CORS as Appwrite answers the web SDK (REFERENCE §1): a trusted Origin is echoed with
 * credentials and the exposed `X-Appwrite-Session`/`X-Fallback-Cookies`; another origin gets the
 * server's own origin (so the browser refuses the response). Returns whether the origin is trusted.
 */
function applyCors(app: AppState, req: IncomingMessage, res: ServerResponse): boolean {
  const origin = first(req.headers.origin);
  if (!origin) return true;
  const trusted = originAllowed(app, origin);
  res.setHeader("Access-Control-Allow-Origin", trusted ? origin : `http://${req.headers.host ?? "localhost"}`);
  res.setHeader("Access-Control-Allow-Credentials", "true");
  res.setHeader("Access-Control-Expose-Headers", "X-Appwrite-Session, X-Fallback-Cookies");
  res.setHeader("Vary", "Origin");
  return trusted;
}

const bodies = new WeakMap<IncomingMessage, Promise<Record<string, unknown>>>();

/**
 * `RequestContext.body` of every request: the JSON body of `this.req`, read once. One shared method instead of a
 * closure per request (which `tsx` also named with an `Object.defineProperty` each time; issue #33 item 4).
 */
function requestBody(this: RequestContext): Promise<Record<string, unknown>> {
  let body = bodies.get(this.req);
  if (body === undefined) {
    body = readJsonBody(this.req);
    bodies.set(this.req, body);
  }
  return body;
}

/**
 * Answer one REST request: CORS, `/v1` routing, caller resolution (`auth/caller.ts`), the
 * handler, and Appwrite's error body for any `AppwriteError`. A client (non-key) write from an
 * untrusted Origin gets 403 `general_unknown_origin` (AW `general.php`). Unexpected errors are
 * logged and answered with 500 `general_unknown`. The answer is written once the writes of its
 * event-loop turn are committed (`Store.committed`, decision 0024); 500 `general_unknown` when
 * they were rolled back.
 */
export async function handle(app: AppState, router: Router, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const trusted = applyCors(app, req, res);
  const method = req.method ?? "GET";
  if (method === "OPTIONS") {
    res.setHeader("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE");
    res.setHeader("Access-Control-Allow-Headers", CORS_HEADERS);
    await send(res, { status: 204, empty: true });
    return;
  }
  let reply: Reply;
  const headers: Record<string, string | string[]> = {};
  // A handler that awaits I/O between writes writes in more than one turn: `committed()` below covers the last.
  const mark = app.store.commitMark();
  try {
    const { pathname, search } = splitTarget(req.url ?? "/");
    if (pathname !== "/v1" && !pathname.startsWith("/v1/")) throw new AppwriteError("general_route_not_found");
    const path = pathname.slice(3) || "/";
    const query = parseQueryString(search);
    const match = router.match(method, path);
    if (!trusted && WRITE_METHODS.has(method) && req.headers["x-appwrite-key"] === undefined) {
      const host = new URL(req.headers.origin ?? "http://invalid").host;
      throw new AppwriteError(
        "general_unknown_origin",
        `Invalid Origin. Register your new client (${host}) as a new Web platform on your project console dashboard`,
      );
    }
    const caller = authenticate(app, req.headers, query, match.scope, req.socket.remoteAddress ?? "");
    const ctx: RequestContext = {
      req,
      method,
      path,
      params: match.params,
      query,
      caller,
      app,
      headers,
      rowNames: false,
      body: requestBody,
    };
    // Most handlers answer synchronously: no microtask hop before the reply is written.
    const answer = match.handler(ctx);
    reply = answer instanceof Promise ? await answer : answer;
  } catch (error) {
    if (error instanceof AppwriteError) {
      reply = { status: error.code, json: error.toBody() };
    } else {
      console.error("[emulator] unexpected error", error);
      reply = { status: 500, json: new AppwriteError("general_unknown").toBody() };
    }
    req.resume();
  }
  // With group commit, the writes of this turn (this request's, or others' it may have read) are not yet
  // durable: answer once they are (`Store.committed`), or with a 500 when they, or those of an earlier turn of
  // this request, were rolled back (`Store.failedSince`: any turn's, as a request cannot tell which were its own).
  const committing = app.store.committed();
  if (committing) await committing.catch(() => undefined);
  if (app.store.failedSince(mark)) {
    await send(res, { status: 500, json: new AppwriteError("general_unknown").toBody() });
    return;
  }
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  await send(res, reply);
}
