/**
 * Appwrite access through the official SDK (ARCHITECTURE decision 1). One place builds clients, so the
 * web server, `studio` and the launcher talk to the embedded server and to a real Appwrite identically.
 */
import { Account, AppwriteException, Client, Storage, TablesDB, Users } from "node-appwrite";
import type { GuestReadCache } from "./read-cache.ts";

/**
 * node-appwrite's `Client`, except that an answer it cannot parse fails with an `AppwriteException` (502)
 * instead of the plain object its JSON parser throws, which carries the whole response text. React Router
 * hides only `Error`s from visitors in production; a plain object thrown by a loader is sent to the browser
 * as is (SECURITY C28: a body quoting the endpoint or key must never reach a page). Callers treat it like any
 * failing Appwrite (5xx): public pages answer 503.
 */
export class AppwriteClient extends Client {
  override async call(...args: Parameters<Client["call"]>): ReturnType<Client["call"]> {
    try {
      return await super.call(...args);
    } catch (error) {
      if (error instanceof Error) throw error;
      const reason = (error as { message?: unknown } | null)?.message;
      const detail = typeof reason === "string" ? ` (${reason.slice(0, 80)})` : "";
      throw new AppwriteException(`Appwrite's answer could not be read: it is not valid JSON${detail}.`, 502);
    }
  }
}

/** Where an Appwrite project is and the server API key that acts on it. */
export interface AppwriteTarget {
  /** `http(s)://host[:port]/v1` */
  endpoint: string;
  projectId: string;
  apiKey: string;
}

/** The SDK services the product uses, bound to one API-key client. */
export interface AdminServices {
  target: AppwriteTarget;
  client: Client;
  /** TablesDB, Appwrite's database API of record since 1.8 (the `Databases` methods are deprecated). */
  tablesDB: TablesDB;
  storage: Storage;
  users: Users;
}

/**
 * Builds an API-key ("admin") client and its services. API-key requests skip Appwrite's permission
 * checks and rate limits (REFERENCE §1, §6), so they see every document, public or not: use them only for
 * server-owned work (`studio`, the schema, creating a session at login as Appwrite's SSR guide does, storing
 * visitor submissions), never to read what a public page shows (ARCHITECTURE decision 8, SECURITY C55; public
 * pages read with `createGuestServices`).
 */
export function createAdminServices(target: AppwriteTarget): AdminServices {
  const client = new AppwriteClient().setEndpoint(target.endpoint).setProject(target.projectId).setKey(target.apiKey);
  return {
    target,
    client,
    tablesDB: new TablesDB(client),
    storage: new Storage(client),
    users: new Users(client),
  };
}

/** The SDK services a guest (no key, no session) uses to read: what Appwrite lets anyone read, and only that. */
export interface GuestServices {
  client: Client;
  /** TablesDB, Appwrite's database API of record since 1.8 (the `Databases` methods are deprecated). */
  tablesDB: TablesDB;
  storage: Storage;
}

/**
 * Builds a guest client (endpoint and project only: no API key, no session) and its read services, for
 * public pages. Appwrite checks every request against the guest roles `any` and `guests` (Appwrite
 * permissions doc; REFERENCE §6): a document or file without `read("any")` (or `read("guests")`) is
 * `404 document_not_found` / `404 storage_file_not_found` on get and is absent from lists, whose `total`
 * counts only readable ones; a collection that grants guests no read and has document security off answers
 * `401 user_unauthorized`. Unlike the SSR guide's session client it carries no secret, so one client can
 * be shared by every request: it holds no per-user state.
 */
export function createGuestServices(
  target: Pick<AppwriteTarget, "endpoint" | "projectId">,
  readCache?: GuestReadCache,
): GuestServices {
  const client = (readCache ? new CachingGuestClient(readCache) : new AppwriteClient())
    .setEndpoint(target.endpoint)
    .setProject(target.projectId);
  return { client, tablesDB: new TablesDB(client), storage: new Storage(client) };
}

/**
 * A guest client whose JSON `GET`s go through a `GuestReadCache` (issue #33 item 2; `read-cache.ts` says when
 * it serves). Keyed by method, URL and parameters; binary answers (file views) and writes are never cached.
 */
class CachingGuestClient extends AppwriteClient {
  constructor(private readonly cache: GuestReadCache) {
    super();
  }

  override call(...args: Parameters<Client["call"]>): ReturnType<Client["call"]> {
    const [method, url, , params, responseType] = args;
    if (method.toLowerCase() !== "get" || (responseType !== undefined && responseType !== "json")) {
      return super.call(...args);
    }
    return this.cache.read(`${url.href}\0${JSON.stringify(params ?? {})}`, () => super.call(...args));
  }
}

/**
 * The view URL Appwrite serves a stored file at (spec §7 "build a view URL from the file id"):
 * `<endpoint>/storage/buckets/<bucketId>/files/<fileId>/view?project=<projectId>`.
 */
export function fileViewUrl(
  target: Pick<AppwriteTarget, "endpoint" | "projectId">,
  bucketId: string,
  fileId: string,
): string {
  return `${target.endpoint}/storage/buckets/${encodeURIComponent(bucketId)}/files/${encodeURIComponent(fileId)}/view?project=${encodeURIComponent(target.projectId)}`;
}

const VIEW_URL_PATTERN = /\/storage\/buckets\/([^/?#]+)\/files\/([^/?#]+)\/view(?:[?#]|$)/;

/**
 * Recovers `{bucketId, fileId}` from a view URL of the form `.../files/{id}/view` (spec §3), or null
 * when the URL is not an Appwrite file view URL.
 */
export function parseFileViewUrl(url: string): { bucketId: string; fileId: string } | null {
  const match = VIEW_URL_PATTERN.exec(url);
  if (!match?.[1] || !match[2]) return null;
  return { bucketId: decodeURIComponent(match[1]), fileId: decodeURIComponent(match[2]) };
}

/** Removes a trailing `mode=admin` query parameter from an image URL (spec §3: "stripped on read"). */
export function stripAdminMode(url: string | null): string | null {
  if (!url) return url;
  return url.replace(/([?&])mode=admin(?=&|$)&?/, "$1").replace(/[?&]$/, "");
}

/** The SDK services acting as one signed-in user (their session secret), so Appwrite enforces permissions. */
export interface SessionServices {
  client: Client;
  account: Account;
  /** TablesDB, Appwrite's database API of record since 1.8 (the `Databases` methods are deprecated). */
  tablesDB: TablesDB;
  storage: Storage;
}

/**
 * A per-request client for a user's session (Appwrite SSR guide: `setSession(secret)`; never share a client
 * between requests). Writes made through it carry the user's roles, so Appwrite's permissions apply.
 */
export function createSessionServices(
  target: Pick<AppwriteTarget, "endpoint" | "projectId">,
  secret: string,
): SessionServices {
  const client = new AppwriteClient().setEndpoint(target.endpoint).setProject(target.projectId).setSession(secret);
  return { client, account: new Account(client), tablesDB: new TablesDB(client), storage: new Storage(client) };
}

/** True for Appwrite's 404: a database, table, row, file, user or team that does not exist. */
export function isNotFound(error: unknown): boolean {
  return error instanceof AppwriteException && error.code === 404;
}
