import type { IncomingMessage } from "node:http";
import type { AbuseLimiter } from "../auth/abuse.ts";
import type { SessionRecord } from "../db/sessions.ts";
import type { Store } from "../db/store.ts";
import type { ScopedKey } from "../project.ts";
import type { PasswordHashing, UserRecord } from "../db/users.ts";
import type { MessageDelivery } from "../messaging/delivery.ts";
import type { EventBus } from "../realtime/bus.ts";

/**
 * Who is calling. An API key disables permission checks (AW `shared/api.php`
 * `setDefaultStatus(false)`); a session or JWT user holds the roles of `userRoles`; everyone
 * else is a guest with roles `any`, `guests` (REFERENCE §6).
 */
export interface Caller {
  isKey: boolean;
  roles: readonly string[];
  /** The signed-in user (session cookie/header, fallback cookie or JWT). */
  user?: UserRecord;
  /** The session that authenticated `user` (also set for a JWT, which names its session). */
  session?: SessionRecord;
  /** True when `user` came from `X-Appwrite-JWT`. */
  viaJwt?: boolean;
  /** The client's address (socket peer). */
  ip: string;
}

/** Emulator-wide state shared by every request. */
export interface AppState {
  dataDir: string;
  projectId: string;
  apiKey: string;
  /** Keys limited to some scopes (`project.json` `keys`). */
  scopedKeys: readonly ScopedKey[];
  store: Store;
  /** Session length in seconds (option `sessionDuration`, env `EMULATOR_SESSION_DURATION`). */
  sessionDuration: number;
  /** HMAC key of account JWTs (derived from the API key, so JWTs survive a restart). */
  jwtKey: Buffer;
  /** Browser origins (besides loopback ones) allowed to make client write requests. */
  allowedOrigins: ReadonlySet<string>;
  /** Email login: 10 requests per email per hour, reset by a success (AW `account.php`). */
  loginLimiter: AbuseLimiter;
  /** Sign-up: 10 per IP per hour (AW `POST /account` `abuse-limit`). */
  signupLimiter: AbuseLimiter;
  /** Realtime events published by the write paths after they commit (`realtime/bus.ts`). */
  events: EventBus;
  /** Sends queued and scheduled Messaging e-mails (`messaging/delivery.ts`). */
  delivery: MessageDelivery;
  /** Argon2id cost of new passwords (option `passwordHashing`; default Appwrite's, SECURITY C11). */
  passwordHashing: PasswordHashing;
}

/** Everything a handler may read about the request. */
export interface RequestContext {
  req: IncomingMessage;
  method: string;
  /** Path below `/v1`, e.g. `/databases/db1`. */
  path: string;
  /** Decoded `:name` path parameters. */
  params: Record<string, string>;
  /** Query string parsed PHP-style by `qs` (REFERENCE §1). */
  query: Record<string, unknown>;
  caller: Caller;
  app: AppState;
  /** Extra response headers (sent with success and error replies alike). */
  headers: Record<string, string | string[]>;
  /**
   * Set by TablesDB (`tables-db.ts`) on `/tablesdb/…/rows` requests it hands to a legacy handler: a
   * reply written as bytes (`jsonBytes`) names its models as TablesDB does (`Row`, `RowList`).
   */
  rowNames?: boolean;
  /** The JSON body (an empty object when there is none); read once, then cached. */
  body(): Promise<Record<string, unknown>>;
}

/** The caller's roles as a guest (REFERENCE §6). */
export const GUEST_ROLES: readonly string[] = ["any", "guests"];

/** The fields `contextWith` may replace. */
export interface ContextChanges {
  app?: AppState;
  path?: string;
  params?: Record<string, string>;
  rowNames?: boolean;
  body?: () => Promise<Record<string, unknown>>;
}

/**
 * `ctx` with some fields replaced, written as one literal with every field in `handle`'s order, so every
 * context shares one object layout. `{ ...ctx, app }` (a spread, then a field it already holds) made V8 rebuild
 * the copy's layout on every request and left the handlers reading a context of many shapes: the TablesDB
 * layer cost a `getRow` ~60 µs that way (issue #33 item 4).
 */
export function contextWith(ctx: RequestContext, changes: ContextChanges): RequestContext {
  return {
    req: ctx.req,
    method: ctx.method,
    path: changes.path ?? ctx.path,
    params: changes.params ?? ctx.params,
    query: ctx.query,
    caller: ctx.caller,
    app: changes.app ?? ctx.app,
    headers: ctx.headers,
    rowNames: changes.rowNames ?? ctx.rowNames,
    body: changes.body ?? ctx.body,
  };
}

/** `app` with another event bus, built field by field for the reason `contextWith` gives. */
export function appWithEvents(app: AppState, events: EventBus): AppState {
  return {
    dataDir: app.dataDir,
    projectId: app.projectId,
    apiKey: app.apiKey,
    scopedKeys: app.scopedKeys,
    store: app.store,
    sessionDuration: app.sessionDuration,
    jwtKey: app.jwtKey,
    allowedOrigins: app.allowedOrigins,
    loginLimiter: app.loginLimiter,
    signupLimiter: app.signupLimiter,
    events,
    delivery: app.delivery,
    passwordHashing: app.passwordHashing,
  };
}
