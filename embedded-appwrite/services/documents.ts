import type { CollectionRecord } from "../db/catalog.ts";
import { runList } from "../db/list.ts";
import type { Condition } from "../db/list.ts";
import { AppwriteError } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { customIdParam, pathParam, queriesParam, totalParam } from "../http/params.ts";
import type { Reply, Router } from "../http/router.ts";
import { isAllowed } from "../permissions.ts";
import { collectionFor } from "./document-input.ts";
import { compileDocumentQueries, documentListSpec, findDocumentRow, rowPermissions } from "./document-list.ts";
import type { RawDocumentRow } from "./document-list.ts";
import { keptRead, READ_CACHE } from "./read-cache.ts";
import { execute, readThrough } from "./transactions.ts";

/** The database and collection of the request path, as an operation names them. */
function target(ctx: RequestContext) {
  return { databaseId: pathParam(ctx, "databaseId"), collectionId: pathParam(ctx, "collectionId") };
}

/** Bulk operations are for API keys only (AW `Documents/Create.php`: 401 `general_unauthorized_scope`). */
function keyOnly(ctx: RequestContext): void {
  if (!ctx.caller.isKey) throw new AppwriteError("general_unauthorized_scope");
}

/** `POST …/documents`: one document, or with `documents` a bulk create (keys only). */
async function createHandler(ctx: RequestContext): Promise<Reply> {
  collectionFor(ctx);
  const body = await ctx.body();
  if (body["documents"] !== undefined) {
    keyOnly(ctx);
    return execute(ctx, { action: "bulkCreate", ...target(ctx), body: { documents: body["documents"] } }, body);
  }
  const documentId = customIdParam(body, "documentId");
  return execute(ctx, { action: "create", ...target(ctx), documentId, body: documentBody(body) }, body);
}

/** The single-document body without routing parameters, as a transaction stores it. */
function documentBody(body: Record<string, unknown>): Record<string, unknown> {
  const { data, permissions } = body;
  return permissions === undefined ? { data } : { data, permissions };
}

function readableScope(ctx: RequestContext, collection: CollectionRecord): Condition[] {
  if (isAllowed(ctx.caller, collection.permissions, "read")) return [];
  if (!collection.documentSecurity) throw new AppwriteError("user_unauthorized");
  const roles = [...ctx.caller.roles];
  return [
    {
      sql: `EXISTS (SELECT 1 FROM json_each(_read) WHERE value IN (${roles.map(() => "?").join(", ")}))`,
      params: roles,
    },
  ];
}

/**
 * List documents: the collection lookup, `total` and the page read in one transaction (`Store.read`). A caller
 * who may read the whole collection (no permission filter) and lists outside a transaction gets the reply kept
 * for the same query list while the database is unchanged (`RowJsonMemo.keptList`, `Store.changeMark` read as
 * the transaction's first statement); a read through a transaction (staged writes, rolled back) neither uses
 * nor fills it.
 */
function listHandler(ctx: RequestContext): Reply {
  const store = ctx.app.store;
  const own = READ_CACHE && !store.db.inTransaction;
  return store.read(() => {
    const mark = own ? store.changeMark() : undefined;
    const collection = collectionFor(ctx);
    const { key, queries, lists } = compileDocumentQueries(collection, queriesParam(ctx));
    const scope = readableScope(ctx, collection);
    const withTotal = totalParam(ctx);
    const memo = lists[ctx.rowNames === true ? "rows" : "documents"];
    const replyKey = mark !== undefined && scope.length === 0 ? `${withTotal ? "t" : "n"}${key}` : undefined;
    const kept = replyKey === undefined ? undefined : memo.keptList(replyKey, mark!);
    if (kept) return { status: 200, jsonBytes: kept };
    const { rows, total } = runList<RawDocumentRow>(store, documentListSpec(collection, scope), queries, withTotal);
    const bytes = memo.list(total, rows);
    if (replyKey !== undefined) memo.keepList(replyKey, mark!, bytes);
    return { status: 200, jsonBytes: bytes };
  });
}

/**
 * Get one document: the collection lookup and the row read in one transaction (`Store.read`), the reply the
 * row's JSON text as lists write it (`document-json.ts`: serialised once while the row is unchanged), so a get
 * builds no record, model or renamed copy (issue #33 item 4). 404 when missing or not readable (REFERENCE §6).
 */
function getHandler(ctx: RequestContext): Reply {
  const store = ctx.app.store;
  return store.read(() => {
    const collection = collectionFor(ctx);
    const id = pathParam(ctx, "documentId");
    const { lists } = compileDocumentQueries(collection, queriesParam(ctx));
    const row = findDocumentRow(store, collection, id);
    const readable =
      row !== undefined &&
      (isAllowed(ctx.caller, collection.permissions, "read") ||
        (collection.documentSecurity && isAllowed(ctx.caller, rowPermissions(row), "read")));
    if (!readable) throw new AppwriteError("document_not_found", undefined, [id]);
    return { status: 200, jsonBytes: lists[ctx.rowNames === true ? "rows" : "documents"].bytes(row) };
  });
}

/** `PATCH …/documents/{documentId}`: partial update (data and/or permissions). */
async function updateHandler(ctx: RequestContext): Promise<Reply> {
  collectionFor(ctx);
  const body = await ctx.body();
  const documentId = pathParam(ctx, "documentId");
  return execute(ctx, { action: "update", ...target(ctx), documentId, body: documentBody(body) }, body);
}

/**
 * `PUT …/documents/{documentId}` (upsert, REFERENCE §4): creates the document when missing
 * (collection `create` needed) or updates it partially (`update` needed); 201 either way.
 */
async function upsertHandler(ctx: RequestContext): Promise<Reply> {
  collectionFor(ctx);
  const body = await ctx.body();
  const documentId = pathParam(ctx, "documentId");
  return execute(ctx, { action: "upsert", ...target(ctx), documentId, body: documentBody(body) }, body);
}

async function deleteHandler(ctx: RequestContext): Promise<Reply> {
  collectionFor(ctx);
  const body = await ctx.body();
  return execute(ctx, { action: "delete", ...target(ctx), documentId: pathParam(ctx, "documentId"), body: {} }, body);
}

/** `PUT …/documents` `{documents}`: bulk upsert (keys only). */
async function upsertManyHandler(ctx: RequestContext): Promise<Reply> {
  collectionFor(ctx);
  keyOnly(ctx);
  const body = await ctx.body();
  return execute(ctx, { action: "bulkUpsert", ...target(ctx), body: { documents: body["documents"] } }, body);
}

/** `PATCH …/documents` `{data, queries}`: bulk update (keys only). */
async function updateManyHandler(ctx: RequestContext): Promise<Reply> {
  collectionFor(ctx);
  keyOnly(ctx);
  const body = await ctx.body();
  const op = { action: "bulkUpdate" as const, ...target(ctx), body: { data: body["data"], queries: body["queries"] } };
  return execute(ctx, op, body);
}

/** `DELETE …/documents` `{queries}`: bulk delete (keys only). */
async function deleteManyHandler(ctx: RequestContext): Promise<Reply> {
  collectionFor(ctx);
  keyOnly(ctx);
  const body = await ctx.body();
  return execute(ctx, { action: "bulkDelete", ...target(ctx), body: { queries: body["queries"] } }, body);
}

/**
 * Documents of the legacy API (REFERENCE §4, §6): create (201), list, get, update (PATCH,
 * partial), upsert (PUT, 201), delete (204), and the bulk create/upsert/update/delete (keys only,
 * `document-bulk.ts`). Non-key callers pass the permission rules of §6:
 * collection `create` for create; collection read or (`documentSecurity`) document read for get
 * (else 404) and list (else 401); collection or document update/delete for writes (else 401).
 * Every write takes `transactionId` (stage it, `transactions.ts`); list and get read through one.
 */
export function register(router: Router): void {
  const base = "/databases/:databaseId/collections/:collectionId/documents";
  router.add("POST", base, "documents.write", createHandler);
  router.add("PUT", base, "documents.write", upsertManyHandler);
  router.add("PATCH", base, "documents.write", updateManyHandler);
  router.add("DELETE", base, "documents.write", deleteManyHandler);
  router.add("GET", base, "documents.read", (ctx) => keptRead(ctx, (inner) => readThrough(inner, listHandler)));
  router.add("GET", `${base}/:documentId`, "documents.read", (ctx) =>
    keptRead(ctx, (inner) => readThrough(inner, getHandler)),
  );
  router.add("PATCH", `${base}/:documentId`, "documents.write", updateHandler);
  router.add("PUT", `${base}/:documentId`, "documents.write", upsertHandler);
  router.add("DELETE", `${base}/:documentId`, "documents.write", deleteHandler);
}
