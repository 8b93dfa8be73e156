/**
 * Reading what Appwrite holds for `studio push` and `pull`: every row of a content table by version key, with
 * a missing schema reported as such, and a one-line description of an Appwrite failure for their reports.
 */
import { AppwriteException, Query, type Models } from "node-appwrite";
import { DATABASE_ID, type ContentKind } from "../../model/content.ts";
import { PUBLISH_AT_COLUMN, stateOf } from "../../model/lifecycle.ts";
import { CONTENT_MODEL, documentVersionKey, fieldsOf } from "../../model/model.ts";
import type { AdminServices } from "../appwrite/client.ts";
import { listPages } from "../appwrite/paginate.ts";
import { AbortError, EXIT } from "../errors.ts";
import { contentHash, type LockEntry } from "./lock.ts";

/** Appwrite has no database or collection to push into: the schema was never applied there. */
export class SchemaMissingError extends AbortError {
  override name = "SchemaMissingError";
  constructor(message: string) {
    super(message, { exitCode: EXIT.backend });
  }
}

/**
 * Rows a request when only a few columns are read (`listBySlug` with `columns`): Appwrite's largest page
 * (`Query.limit` up to 5,000), 40 requests for 200,000 rows.
 */
export const IDENTITY_PAGE = 5_000;

/**
 * Every document of a collection, by version key (`documentVersionKey`: the slug for English, `slug@ar` for
 * Arabic), read with cursor pagination (REFERENCE §2); with `columns`, only those (which must include `slug`
 * and `locale`) and the `$` attributes (`Query.select`), of which only `$id` and `$updatedAt` are kept in the
 * rows returned.
 * @throws {SchemaMissingError} when the database or collection does not exist.
 */
export async function listBySlug(
  services: AdminServices,
  collectionId: string,
  columns?: string[],
): Promise<Map<string, Models.DefaultRow>> {
  const bySlug = new Map<string, Models.DefaultRow>();
  const pages = listPages(
    (queries) =>
      (columns
        ? listRowsParsed(services, collectionId, queries)
        : services.tablesDB
            .listRows({ databaseId: DATABASE_ID, tableId: collectionId, queries, total: false })
            .then((page) => page.rows)
      ).catch((error: unknown) => {
        if (
          error instanceof AppwriteException &&
          ["database_not_found", "table_not_found", "collection_not_found"].includes(error.type)
        ) {
          const what = error.type === "database_not_found" ? `database ${DATABASE_ID}` : `collection ${collectionId}`;
          throw new SchemaMissingError(`${services.target.endpoint} has no ${what}: run \`studio setup\` first.`);
        }
        throw error;
      }),
    // Identity rows are small: `IDENTITY_PAGE` a request, 50× fewer round trips than 100 at 200,000 rows.
    columns ? { queries: [Query.select(columns)], pageSize: IDENTITY_PAGE } : {},
  );
  for await (const documents of pages) {
    for (const doc of documents) {
      // With `columns`, only the identity is kept (issue #33 item 6: 200,000 rows of ten `$` attributes, their
      // permissions among them, were ~0.7 kB each): the caller reads a row whole where it needs more.
      const kept = columns ? ({ $id: doc.$id, $updatedAt: doc.$updatedAt } as Models.DefaultRow) : doc;
      bySlug.set(documentVersionKey(doc), kept);
    }
  }
  return bySlug;
}

/**
 * One page of `listRows` (`total: false`) sent as the SDK sends it (`Client.prepareRequest`: its headers, key
 * and query string) but read with `JSON.parse`: the SDK parses every answer with json-bigint, ~3× slower (98
 * against 33 ms for a page of 5,000 identity rows; 40 such pages at issue #33 item 6's 200,000 rows). A
 * client for a self-signed endpoint goes through the SDK (its own TLS agent).
 * @throws {AppwriteException} with Appwrite's message, code and type for an error answer, as the SDK's;
 *   what `fetch` throws when Appwrite does not answer.
 */
async function listRowsParsed(
  services: AdminServices,
  tableId: string,
  queries: string[],
): Promise<Models.DefaultRow[]> {
  const { client } = services;
  if (client.config.selfSigned) {
    return (await services.tablesDB.listRows({ databaseId: DATABASE_ID, tableId, queries, total: false })).rows;
  }
  const path = `/tablesdb/${encodeURIComponent(DATABASE_ID)}/tables/${encodeURIComponent(tableId)}/rows`;
  // The headers `TablesDB.listRows` adds to the client's own (its key among them).
  const headers = { "X-Appwrite-Project": client.config.project, accept: "application/json" };
  const { uri, options } = client.prepareRequest("GET", new URL(client.config.endpoint + path), headers, {
    queries,
    total: false,
  });
  // A GET: its options are the method and the headers (no body, no TLS agent: see above).
  const response = await fetch(uri, { method: "GET", headers: options.headers as Record<string, string> });
  const text = await response.text();
  let data: { rows?: Models.DefaultRow[]; message?: string; type?: string };
  try {
    data = JSON.parse(text) as typeof data;
  } catch {
    data = { message: text };
  }
  if (response.status >= 400 || !data.rows)
    throw new AppwriteException(
      data.message ?? `listRows answered ${response.status}`,
      response.status,
      data.type ?? "",
      text,
    );
  return data.rows;
}

/**
 * A hash of what a document says, as far as an edit can change it: every field of its kind and its due time
 * (datetimes as instants), and its state with `scheduled` read as `published`, because the schedule turning
 * one into the other (`promoteDue`) is not an edit (issue #26 item 10). Its timestamps, permissions (derived
 * from the state) and `updatedBy` are left out. Recorded in the lock (`LockEntry.remote`) by push and pull.
 */
export function remoteFingerprint(kind: ContentKind, doc: Models.DefaultRow): string {
  const values: Record<string, string | null> = {};
  for (const [name] of fieldsOf(CONTENT_MODEL[kind])) values[name] = canonical(doc[name]);
  values[PUBLISH_AT_COLUMN] = canonical(doc[PUBLISH_AT_COLUMN]);
  const state = stateOf(doc);
  values["state"] = state === "scheduled" ? "published" : state;
  return contentHash(values);
}

/** A column's value as the fingerprint's text: datetimes as ISO instants, other values as JSON, null as null. */
function canonical(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value))) {
    return new Date(value).toISOString();
  }
  return JSON.stringify(value);
}

/**
 * Whether `doc` changed in Appwrite since the lock entry was recorded (an edit in the admin): no entry, another
 * document, or a new `$updatedAt` with different content (`remoteFingerprint`; an entry recorded before the
 * fingerprint existed counts any new `$updatedAt`). A new `$updatedAt` from the schedule publishing the item is
 * not a change (issue #26 item 10: the next push of a local edit was a false conflict, pull rewrote the file).
 */
export function remoteChangedSince(kind: ContentKind, entry: LockEntry | undefined, doc: Models.DefaultRow): boolean {
  if (!entry || entry.id !== doc.$id) return true;
  if (entry.updatedAt === doc.$updatedAt) return false;
  return entry.remote === undefined || entry.remote !== remoteFingerprint(kind, doc);
}

/** The lock entry for `doc` as just written or agreed: its id, `$updatedAt` and fingerprint, with `rest`. */
export function lockEntryFor(
  kind: ContentKind,
  doc: Models.DefaultRow,
  rest: Omit<LockEntry, "id" | "updatedAt" | "remote">,
): LockEntry {
  return {
    id: ownString(doc.$id),
    updatedAt: ownString(doc.$updatedAt),
    remote: remoteFingerprint(kind, doc),
    ...rest,
  };
}

/**
 * `text` as a string of its own. The SDK parses an answer with json-bigint, whose strings are `substring`s of the
 * answer's whole text: V8 keeps such a slice as a pointer into that text, so a row's `$id` kept in the lock kept
 * the whole `createRows` answer it came in (100 rendered rows, ~0.2–0.4 MB) alive: ~2 kB an item written
 * (issue #33 item 6: 200,000 of them).
 */
export function ownString(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/** A one-line description of a failure, with Appwrite's error type when there is one. */
export function describeError(error: unknown): string {
  if (error instanceof AppwriteException) return `${error.message}${error.type ? ` (${error.type})` : ""}`;
  return error instanceof Error ? error.message : String(error);
}
