import { documentTable } from "../db/catalog.ts";
import type { CollectionRecord } from "../db/catalog.ts";
import { documentColumns, documentQuerySchema, toDocument } from "../db/documents.ts";
import type { DocumentRow } from "../db/documents.ts";
import { runList } from "../db/list.ts";
import { AppwriteError, invalidParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { customIdParam, stringArrayParam } from "../http/params.ts";
import type { Reply } from "../http/router.ts";
import { compileQueries, parseQuery } from "../queries.ts";
import { documentModel } from "./document-input.ts";
import { createOne, deleteOne, updateOne, upsertOne } from "./document-write.ts";

/**
 * Bulk document operations (AW 1.8 `Documents/Bulk/*.php`, `Documents/Create.php` with `documents`;
 * TablesDB `createRows`, `upsertRows`, `updateRows`, `deleteRows`). API keys only: the route answers 401
 * `general_unauthorized_scope` to anyone else before calling these. Each function writes synchronously, so
 * the caller runs it inside one SQLite transaction (`document-operations.ts` `atomically`): a bulk call is
 * all or nothing.
 */

/** Most documents one bulk create or upsert takes, and most a bulk answer lists (AW `APP_LIMIT_DATABASE_BATCH`). */
export const BATCH_LIMIT = 100;

type Json = Record<string, unknown>;

/** The `documents` body parameter: 1–100 JSON objects (utopia `ArrayList(JSON, 100)`). */
export function documentsParam(body: Json, name = "documents"): Json[] {
  const value = body[name];
  if (value === undefined || value === null) throw invalidParam(name, "Value must a valid array");
  const valid =
    Array.isArray(value) &&
    value.length <= BATCH_LIMIT &&
    value.every((item) => item !== null && typeof item === "object" && !Array.isArray(item));
  if (!valid) {
    throw invalidParam(
      name,
      `Value must a valid array no longer than ${BATCH_LIMIT} items and Value must be a valid JSON object`,
    );
  }
  if (value.length === 0) throw new AppwriteError("document_missing_data");
  return value as Json[];
}

/** One bulk item (`{$id?, $permissions?, …attributes}`) as the single-document body `{data, permissions}`. */
function itemBody(item: Json): { id: string; body: Json } {
  const { $id, $permissions, ...data } = item;
  const id = $id === undefined ? customIdParam({ $id: "unique()" }, "$id") : customIdParam({ $id }, "$id");
  return { id, body: $permissions === undefined ? { data } : { data, permissions: $permissions } };
}

/** The Document models of single-document replies, as a bulk answer lists them (at most `BATCH_LIMIT`). */
function listOf(replies: Reply[], status: number): Reply {
  const documents = replies.flatMap((r) => ("json" in r ? [r.json] : [])).slice(0, BATCH_LIMIT);
  return { status, json: { total: replies.length, documents } };
}

/** `POST …/documents` with `documents`: create each (201 `{total, documents}`); any failure fails all. */
export function createMany(ctx: RequestContext, collection: CollectionRecord, items: Json[]): Reply {
  return listOf(
    items.map((item) => {
      const { id, body } = itemBody(item);
      return createOne(ctx, collection, id, body);
    }),
    201,
  );
}

/** `PUT …/documents`: upsert each (create, or update the given attributes); 201 `{total, documents}`. */
export function upsertMany(ctx: RequestContext, collection: CollectionRecord, items: Json[]): Reply {
  return listOf(
    items.map((item) => {
      const { id, body } = itemBody(item);
      return upsertOne(ctx, collection, id, body);
    }),
    201,
  );
}

/**
 * The documents matching `queries` (filters, order, cursor, offset; `limit` when given, else all of them),
 * as utopia `updateDocuments`/`deleteDocuments` select them. 400 `general_query_invalid` as for lists.
 */
function selected(ctx: RequestContext, collection: CollectionRecord, queries: string[]) {
  const q = compileQueries(queries, documentQuerySchema(collection));
  if (!queries.some((raw) => parseQuery(raw).method === "limit")) q.limit = Number.MAX_SAFE_INTEGER;
  const { rows } = runList<DocumentRow>(
    ctx.app.store,
    {
      table: documentTable(collection.seq),
      columns: documentColumns(collection),
      idColumn: "_id",
      seqColumn: "_seq",
      scope: [],
      noun: "Document",
    },
    q,
    false,
  );
  return rows.map((row) => toDocument(collection, row));
}

/**
 * `PATCH …/documents` `{data, queries}`: apply `data` (attributes, and `$permissions` to replace the
 * permissions) to every matching document; 400 `document_missing_payload` when `data` is empty.
 * Answers 200 `{total, documents}`.
 */
export function updateMany(ctx: RequestContext, collection: CollectionRecord, body: Json): Reply {
  const data = body["data"] ?? {};
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw invalidParam("data", "Value must be a valid JSON object");
  }
  if (Object.keys(data).length === 0) throw new AppwriteError("document_missing_payload");
  const { $permissions, ...values } = data as Json;
  const update = $permissions === undefined ? { data: values } : { data: values, permissions: $permissions };
  const queries = stringArrayParam(body, "queries") ?? [];
  const replies = selected(ctx, collection, queries).map((doc) => updateOne(ctx, collection, doc, update, 200));
  return listOf(replies, 200);
}

/** `DELETE …/documents` `{queries}`: delete every matching document; 200 `{total, documents}` (as they were). */
export function deleteMany(ctx: RequestContext, collection: CollectionRecord, body: Json): Reply {
  const queries = stringArrayParam(body, "queries") ?? [];
  const docs = selected(ctx, collection, queries);
  for (const doc of docs) deleteOne(ctx, collection, doc.id);
  return listOf(
    docs.map((doc) => ({ status: 200, json: documentModel(collection, doc) })),
    200,
  );
}
