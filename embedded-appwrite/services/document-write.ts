import type { CollectionRecord } from "../db/catalog.ts";
import { deleteDocument, findDocument, insertDocument, updateDocument } from "../db/documents.ts";
import type { DocumentRecord } from "../db/documents.ts";
import { nowDatetime } from "../datetime.ts";
import { AppwriteError, invalidParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import type { Reply } from "../http/router.ts";
import { defaultPermissions, isAllowed } from "../permissions.ts";
import { publishDocument } from "../realtime/events.ts";
import {
  applyDefaults,
  canAccess,
  dataParam,
  documentModel,
  mapUniqueError,
  permissionsParam,
  splitData,
  validateStructure,
} from "./document-input.ts";

/**
 * The synchronous writes of one document, shared by the single-document routes, the bulk routes and
 * transaction commits (`document-operations.ts`). Each runs no `await`, so a caller may run several
 * inside one SQLite transaction; each publishes its realtime event on `ctx.app.events`.
 */

/**
 * Create a document (also the create branch of upsert): collection `create` needed (401
 * `user_unauthorized`); permissions default to the session user's (REFERENCE §6). `body` holds
 * `data` and optional `permissions`. Answers 201 with the Document.
 */
export function createOne(
  ctx: RequestContext,
  collection: CollectionRecord,
  id: string,
  body: Record<string, unknown>,
): Reply {
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
export function updateOne(
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

/** `PATCH …/{documentId}`: 400 `document_missing_payload` without data and permissions, 404 when missing. */
export function patchOne(ctx: RequestContext, collection: CollectionRecord, id: string, body: Record<string, unknown>) {
  const data = dataParam(body, false);
  if ((data === undefined || Object.keys(data).length === 0) && body["permissions"] === undefined) {
    throw new AppwriteError("document_missing_payload");
  }
  const doc = findDocument(ctx.app.store, collection, id);
  if (!doc) throw new AppwriteError("document_not_found", undefined, [id]);
  return updateOne(ctx, collection, doc, body, 200);
}

/** `PUT …/{documentId}` (upsert): create when missing, else a partial update; 201 either way. */
export function upsertOne(
  ctx: RequestContext,
  collection: CollectionRecord,
  id: string,
  body: Record<string, unknown>,
) {
  const doc = findDocument(ctx.app.store, collection, id);
  return doc ? updateOne(ctx, collection, doc, body, 201) : createOne(ctx, collection, id, body);
}

/** Delete document `id`: 404 `document_not_found`, 401 without `delete`; answers 204. */
export function deleteOne(ctx: RequestContext, collection: CollectionRecord, id: string): Reply {
  const doc = findDocument(ctx.app.store, collection, id);
  if (!doc) throw new AppwriteError("document_not_found", undefined, [id]);
  if (!canAccess(ctx, collection, doc, "delete")) throw new AppwriteError("user_unauthorized");
  deleteDocument(ctx.app.store, collection, doc.seq);
  publishDocument(ctx.app.events, collection, documentModel(collection, doc), "delete");
  return { status: 204, empty: true };
}

function numberParam(body: Record<string, unknown>, name: string, fallback: number | null): number | null {
  const raw = body[name];
  if (raw === undefined || raw === null) return fallback;
  const value = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
  if (typeof value !== "number" || !Number.isFinite(value)) throw invalidParam(name, "Value must be a valid number");
  return value;
}

/**
 * Increment (`direction` 1) or decrement (-1) attribute `key` of document `id` (AW 1.8
 * `Documents/Attribute/Increment.php`, `Decrement.php`; utopia `increaseDocumentAttribute`) by `body.value`
 * (default 1, > 0) on an integer or float attribute (a null value counts as 0). Going above `body.max`
 * (increment) or below `body.min` (decrement) → 400 `attribute_limit_exceeded`; a non-numeric or array
 * attribute → 400 `attribute_type_invalid`; needs collection or (documentSecurity) document `update` (401).
 * Answers 200 with the Document and publishes an update event.
 */
export function countOne(
  ctx: RequestContext,
  collection: CollectionRecord,
  id: string,
  key: string,
  direction: 1 | -1,
  body: Record<string, unknown>,
): Reply {
  const value = numberParam(body, "value", 1) ?? 1;
  const bound = numberParam(body, direction === 1 ? "max" : "min", null);
  const store = ctx.app.store;
  const doc = findDocument(store, collection, id);
  if (!doc) throw new AppwriteError("document_not_found", undefined, [id]);
  if (!canAccess(ctx, collection, doc, "update")) throw new AppwriteError("user_unauthorized");
  const attribute = collection.attributes.find((a) => a.key === key);
  if (!attribute) throw new AppwriteError("attribute_not_found", undefined, [key]);
  if ((attribute.type !== "integer" && attribute.type !== "double") || attribute.array) {
    throw new AppwriteError("attribute_type_invalid", undefined, [key]);
  }
  if (value <= 0) throw invalidParam("value", "Value must be numeric and greater than 0");
  if (attribute.type === "integer" && !Number.isInteger(value)) {
    throw invalidParam("value", "Value must be a valid integer");
  }
  const current = doc.data[key];
  const next = (typeof current === "number" ? current : 0) + direction * value;
  if (bound !== null && (direction === 1 ? next > bound : next < bound)) {
    throw new AppwriteError(
      "attribute_limit_exceeded",
      `Attribute "${key}" has reached the ${direction === 1 ? "maximum" : "minimum"} value of ${bound}`,
    );
  }
  const updated: DocumentRecord = { ...doc, data: { ...doc.data, [key]: next }, updatedAt: nowDatetime() };
  updateDocument(store, collection, updated);
  const model = documentModel(collection, findDocument(store, collection, id) as DocumentRecord);
  publishDocument(ctx.app.events, collection, model, "update");
  return { status: 200, json: model };
}
