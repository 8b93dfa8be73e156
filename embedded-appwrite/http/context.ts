import type { IncomingMessage } from "node:http";
import type { AbuseLimiter } from "../auth/abuse.ts";
import type { SessionRecord } from "../db/sessions.ts";
import type { Store } from "../db/store.ts";
import type { ScopedKey } from "../project.ts";
import type { UserRecord } from "../db/users.ts";
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
