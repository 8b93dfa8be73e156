import type { IncomingMessage } from "node:http";
import type { Store } from "../db/store.ts";

/**
 * Who is calling. An API key disables permission checks (AW `shared/api.php`
 * `setDefaultStatus(false)`); everyone else is a guest with roles `any`, `guests` (REFERENCE §6).
 */
export interface Caller {
  isKey: boolean;
  roles: readonly string[];
}

/** Emulator-wide state shared by every request. */
export interface AppState {
  dataDir: string;
  projectId: string;
  apiKey: string;
  store: Store;
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
  /** The JSON body (an empty object when there is none); read once, then cached. */
  body(): Promise<Record<string, unknown>>;
}

/** The caller's roles as a guest (REFERENCE §6). */
export const GUEST_ROLES: readonly string[] = ["any", "guests"];
