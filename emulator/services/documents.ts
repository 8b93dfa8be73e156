import type { CollectionRecord } from "../db/catalog.ts";
import { deleteDocument, findDocument, insertDocument, updateDocument } from "../db/documents.ts";
import type { DocumentRecord } from "../db/documents.ts";
import { runList } from "../db/list.ts";
import type { Condition } from "../db/list.ts";
import { nowDatetime } from "../datetime.ts";
import { AppwriteError } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { customIdParam, pathParam, queriesParam, totalParam } from "../http/params.ts";
import type { Reply, Router } from "../http/router.ts";
import { defaultPermissions, isAllowed } from "../permissions.ts";
import { publishDocument } from "../realtime/events.ts";
import {
  applyDefaults,
  canAccess,
  collectionFor,
  dataParam,
  documentModel,
  mapUniqueError,
  permissionsParam,
  splitData,
  validateStructure,
} from "./document-input.ts";
import { compileDocumentQueries, documentListSpec } from "./document-list.ts";
import type { RawDocumentRow } from "./document-list.ts";

/**
 * Create a document (also the create branch of upsert): collection `create` needed (401
 * `user_unauthorized`); permissions default to the session user's (REFERENCE §6).
 */
function create(ctx: RequestContext, collection: CollectionRecord, id: string, body: Record<string, unknown>): Reply {
  const data = dataParam(body, true) ?? {};
  if (Object.keys(data).length === 0) throw new AppwriteError("document_missing_data");
  if (!isAllowed(ctx.caller, collection.permissions, "create")) throw new AppwriteError("user_unauthorized");
  const permissions = permissionsParam(ctx, body) ?? defaultPermissions(ctx.caller);
  const { values, stamps } = splitData(ctx, data);
  applyDefaults(collection, values);
  validateStructure(collection, values);
  const store = ctx.app.store;
  if (findDocument(store, collection, id)) throw new AppwriteError("document_already_exists", undefined, [id]);
  const now = nowDatetime();
  try {
    insertDocument(store, collection, {
      id,
      createdAt: stamps.createdAt ?? now,
      updatedAt: stamps.updatedAt ?? now,
      permissions,
      data: values,
    });
  } catch (error) {
    mapUniqueError(error, id);
  }
  const model = documentModel(collection, findDocument(store, collection, id) as DocumentRecord);
  publishDocument(ctx.app.events, collection, model, "create");
  return { status: 201, json: model };
}

/**
 * Update `doc` partially (also the update branch of upsert): omitted attributes and permissions
 * are kept; needs collection or (documentSecurity) document `update` (401 otherwise).
 */
function update(
  ctx: RequestContext,
  collection: CollectionRecord,
  doc: DocumentRecord,
  body: Record<string, unknown>,
  status: number,
): Reply {
  const data = dataParam(body, false);
  const permissions = permissionsParam(ctx, body);
  if (!canAccess(ctx, collection, doc, "update")) throw new AppwriteError("user_unauthorized");
  const { values, stamps } = splitData(ctx, data ?? {});
  const merged = { ...doc.data, ...values };
  validateStructure(collection, merged);
  const updated: DocumentRecord = {
    ...doc,
    data: merged,
    permissions: permissions ?? doc.permissions,
    updatedAt: stamps.updatedAt ?? nowDatetime(),
  };
  try {
    updateDocument(ctx.app.store, collection, updated);
  } catch (error) {
    mapUniqueError(error, doc.id);
  }
  const model = documentModel(collection, findDocument(ctx.app.store, collection, doc.id) as DocumentRecord);
  publishDocument(ctx.app.events, collection, model, "update");
  return { status, json: model };
}

async function createHandler(ctx: RequestContext): Promise<Reply> {
  const collection = collectionFor(ctx);
  const body = await ctx.body();
  return create(ctx, collection, customIdParam(body, "documentId"), body);
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

/** List documents: the collection lookup, `total` and the page read in one transaction (`Store.read`). */
function listHandler(ctx: RequestContext): Reply {
  return ctx.app.store.read(() => {
    const collection = collectionFor(ctx);
    const { queries, toModel } = compileDocumentQueries(collection, queriesParam(ctx));
    const scope = readableScope(ctx, collection);
    const { rows, total } = runList<RawDocumentRow>(
      ctx.app.store,
      documentListSpec(collection, scope),
      queries,
      totalParam(ctx),
    );
    return { status: 200, json: { total, documents: rows.map(toModel) } };
  });
}

function getHandler(ctx: RequestContext): Reply {
  const collection = collectionFor(ctx);
  const id = pathParam(ctx, "documentId");
  const { queries } = compileDocumentQueries(collection, queriesParam(ctx));
  const doc = findDocument(ctx.app.store, collection, id);
  if (!doc || !canAccess(ctx, collection, doc, "read")) throw new AppwriteError("document_not_found", undefined, [id]);
  return { status: 200, json: documentModel(collection, doc, queries.select) };
}

async function updateHandler(ctx: RequestContext): Promise<Reply> {
  const collection = collectionFor(ctx);
  const id = pathParam(ctx, "documentId");
  const body = await ctx.body();
  const data = dataParam(body, false);
  if ((data === undefined || Object.keys(data).length === 0) && body["permissions"] === undefined) {
    throw new AppwriteError("document_missing_payload");
  }
  const doc = findDocument(ctx.app.store, collection, id);
  if (!doc) throw new AppwriteError("document_not_found", undefined, [id]);
  return update(ctx, collection, doc, body, 200);
}

/**
 * `PUT …/documents/{documentId}` (upsert, REFERENCE §4): creates the document when missing
 * (collection `create` needed) or updates it partially (`update` needed); 201 either way.
 */
async function upsertHandler(ctx: RequestContext): Promise<Reply> {
  const collection = collectionFor(ctx);
  const id = pathParam(ctx, "documentId");
  const body = await ctx.body();
  const doc = findDocument(ctx.app.store, collection, id);
  return doc ? update(ctx, collection, doc, body, 201) : create(ctx, collection, id, body);
}

function deleteHandler(ctx: RequestContext): Reply {
  const collection = collectionFor(ctx);
  const id = pathParam(ctx, "documentId");
  const doc = findDocument(ctx.app.store, collection, id);
  if (!doc) throw new AppwriteError("document_not_found", undefined, [id]);
  if (!canAccess(ctx, collection, doc, "delete")) throw new AppwriteError("user_unauthorized");
  deleteDocument(ctx.app.store, collection, doc.seq);
  publishDocument(ctx.app.events, collection, documentModel(collection, doc), "delete");
  return { status: 204, empty: true };
}

/**
 * Documents of the legacy API (REFERENCE §4, §6): create (201), list, get, update (PATCH,
 * partial), upsert (PUT, 201), delete (204). Non-key callers pass the permission rules of §6:
 * collection `create` for create; collection read or (`documentSecurity`) document read for get
 * (else 404) and list (else 401); collection or document update/delete for writes (else 401).
 */
export function register(router: Router): void {
  const base = "/databases/:databaseId/collections/:collectionId/documents";
  router.add("POST", base, "documents.write", createHandler);
  router.add("GET", base, "documents.read", listHandler);
  router.add("GET", `${base}/:documentId`, "documents.read", getHandler);
  router.add("PATCH", `${base}/:documentId`, "documents.write", updateHandler);
  router.add("PUT", `${base}/:documentId`, "documents.write", upsertHandler);
  router.add("DELETE", `${base}/:documentId`, "documents.write", deleteHandler);
}
