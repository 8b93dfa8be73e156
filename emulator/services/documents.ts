import { documentTable } from "../db/catalog.ts";
import type { CollectionRecord } from "../db/catalog.ts";
import {
  deleteDocument,
  documentColumns,
  documentQuerySchema,
  findDocument,
  insertDocument,
  toDocument,
  updateDocument,
} from "../db/documents.ts";
import type { DocumentRecord, DocumentRow } from "../db/documents.ts";
import { runList } from "../db/list.ts";
import type { Condition } from "../db/list.ts";
import { normaliseDatetime, nowDatetime } from "../datetime.ts";
import { AppwriteError, missingParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { customIdParam, pathParam, queriesParam, stringArrayParam, totalParam } from "../http/params.ts";
import type { Router } from "../http/router.ts";
import { aggregatePermissions, assertGrantable, isAllowed, RECORD_ACTIONS } from "../permissions.ts";
import type { Action } from "../permissions.ts";
import { compileQueries } from "../queries.ts";
import { checkAttributeValue } from "../values.ts";
import { loadCollection } from "./models.ts";

const SYSTEM_KEYS = new Set([
  "$id",
  "$sequence",
  "$collectionId",
  "$databaseId",
  "$permissions",
  "$collection",
  "$tenant",
]);

/** Appwrite `Document` model; with `select`, only the selected attributes (plus `$` fields) are kept. */
function documentModel(collection: CollectionRecord, doc: DocumentRecord, select?: string[]): Record<string, unknown> {
  const all = !select || select.includes("*");
  const data = Object.fromEntries(Object.entries(doc.data).filter(([key]) => all || select.includes(key)));
  return {
    $id: doc.id,
    $sequence: String(doc.seq),
    $collectionId: collection.id,
    $databaseId: collection.databaseId,
    $createdAt: doc.createdAt,
    $updatedAt: doc.updatedAt,
    $permissions: doc.permissions,
    ...data,
  };
}

function collectionFor(ctx: RequestContext): CollectionRecord {
  return loadCollection(ctx, pathParam(ctx, "databaseId"), pathParam(ctx, "collectionId"));
}

/** Collection grant, else (with `documentSecurity`) the document's own grant (REFERENCE §6). */
function canAccess(ctx: RequestContext, collection: CollectionRecord, doc: DocumentRecord, action: Action): boolean {
  if (isAllowed(ctx.caller, collection.permissions, action)) return true;
  return collection.documentSecurity && isAllowed(ctx.caller, doc.permissions, action);
}

/**
 * Validate the full document `data` against the collection ([UDB] `Validator/Structure.php`):
 * missing required attribute, then unknown attribute, then invalid values.
 * Throws 400 `document_invalid_structure` with `Invalid document structure: …`.
 */
function validateStructure(collection: CollectionRecord, data: Record<string, unknown>): void {
  const fail = (message: string) =>
    new AppwriteError("document_invalid_structure", `Invalid document structure: ${message}`);
  for (const attribute of collection.attributes) {
    const value = data[attribute.key];
    if (attribute.required && (value === undefined || value === null))
      throw fail(`Missing required attribute "${attribute.key}"`);
  }
  for (const key of Object.keys(data)) {
    if (!collection.attributes.some((a) => a.key === key)) throw fail(`Unknown attribute: "${key}"`);
  }
  for (const attribute of collection.attributes) {
    const value = data[attribute.key];
    if (value === undefined) continue;
    const problem = checkAttributeValue(attribute, value);
    if (problem) throw fail(problem);
  }
}

function dataParam(body: Record<string, unknown>, required: boolean): Record<string, unknown> | undefined {
  const data = body["data"];
  if (data === undefined || data === null) {
    if (required) throw missingParam("data");
    return undefined;
  }
  if (typeof data !== "object" || Array.isArray(data)) {
    throw new AppwriteError("general_argument_invalid", "Invalid `data` param: Value must be a valid JSON object");
  }
  return data as Record<string, unknown>;
}

function permissionsParam(ctx: RequestContext, body: Record<string, unknown>): string[] | undefined {
  const raw = stringArrayParam(body, "permissions");
  if (raw === undefined) return undefined;
  const permissions = aggregatePermissions(raw, RECORD_ACTIONS);
  assertGrantable(ctx.caller, permissions);
  return permissions;
}

/** Split request data into attribute values and honoured system timestamps (API keys only). */
function splitData(ctx: RequestContext, data: Record<string, unknown>) {
  const values: Record<string, unknown> = {};
  const stamps: { createdAt?: string; updatedAt?: string } = {};
  for (const [key, value] of Object.entries(data)) {
    if (SYSTEM_KEYS.has(key)) continue;
    if (key === "$createdAt" || key === "$updatedAt") {
      const normalised = normaliseDatetime(value);
      if (ctx.caller.isKey && normalised) stamps[key === "$createdAt" ? "createdAt" : "updatedAt"] = normalised;
      continue;
    }
    values[key] = value;
  }
  return { values, stamps };
}

function mapUniqueError(error: unknown, id: string): never {
  const e = error as { code?: string; message?: string };
  if (e.code === "SQLITE_CONSTRAINT_UNIQUE" || e.code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
    if (/\._id$/.test(e.message ?? "")) throw new AppwriteError("document_already_exists", undefined, [id]);
    throw new AppwriteError("document_unique_constraint_violation");
  }
  throw error;
}

async function createDocumentHandler(ctx: RequestContext) {
  const collection = collectionFor(ctx);
  const body = await ctx.body();
  const id = customIdParam(body, "documentId");
  const data = dataParam(body, true) ?? {};
  if (Object.keys(data).length === 0) throw new AppwriteError("document_missing_data");
  if (!isAllowed(ctx.caller, collection.permissions, "create")) throw new AppwriteError("user_unauthorized");
  const permissions = permissionsParam(ctx, body) ?? [];
  const { values, stamps } = splitData(ctx, data);
  for (const attribute of collection.attributes) {
    if ((values[attribute.key] === undefined || values[attribute.key] === null) && attribute.default !== null) {
      values[attribute.key] = attribute.default;
    }
  }
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
  return { status: 201, json: documentModel(collection, findDocument(store, collection, id) as DocumentRecord) };
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

function listDocumentsHandler(ctx: RequestContext) {
  const collection = collectionFor(ctx);
  const q = compileQueries(queriesParam(ctx), documentQuerySchema(collection));
  const scope = readableScope(ctx, collection);
  const { rows, total } = runList<DocumentRow>(
    ctx.app.store,
    {
      table: documentTable(collection.seq),
      columns: documentColumns(collection),
      idColumn: "_id",
      seqColumn: "_seq",
      scope,
      noun: "Document",
    },
    q,
    totalParam(ctx),
  );
  const documents = rows.map((row) => documentModel(collection, toDocument(collection, row), q.select));
  return { status: 200, json: { total, documents } };
}

function getDocumentHandler(ctx: RequestContext) {
  const collection = collectionFor(ctx);
  const id = pathParam(ctx, "documentId");
  const q = compileQueries(queriesParam(ctx), documentQuerySchema(collection));
  const doc = findDocument(ctx.app.store, collection, id);
  if (!doc || !canAccess(ctx, collection, doc, "read")) throw new AppwriteError("document_not_found", undefined, [id]);
  return { status: 200, json: documentModel(collection, doc, q.select) };
}

async function updateDocumentHandler(ctx: RequestContext) {
  const collection = collectionFor(ctx);
  const id = pathParam(ctx, "documentId");
  const body = await ctx.body();
  const data = dataParam(body, false);
  const permissions = permissionsParam(ctx, body);
  if ((data === undefined || Object.keys(data).length === 0) && permissions === undefined) {
    throw new AppwriteError("document_missing_payload");
  }
  const store = ctx.app.store;
  const doc = findDocument(store, collection, id);
  if (!doc) throw new AppwriteError("document_not_found", undefined, [id]);
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
    updateDocument(store, collection, updated);
  } catch (error) {
    mapUniqueError(error, id);
  }
  return { status: 200, json: documentModel(collection, findDocument(store, collection, id) as DocumentRecord) };
}

function deleteDocumentHandler(ctx: RequestContext) {
  const collection = collectionFor(ctx);
  const id = pathParam(ctx, "documentId");
  const doc = findDocument(ctx.app.store, collection, id);
  if (!doc) throw new AppwriteError("document_not_found", undefined, [id]);
  if (!canAccess(ctx, collection, doc, "delete")) throw new AppwriteError("user_unauthorized");
  deleteDocument(ctx.app.store, collection, doc.seq);
  return { status: 204, empty: true as const };
}

/**
 * Documents of the legacy API (REFERENCE §4, §6): create (201), list, get, update (PATCH,
 * partial), delete (204). Guests pass the permission rules of §6: collection `create` for
 * create; collection read or (`documentSecurity`) document read for get (else 404) and list
 * (else 401); collection or document update/delete for writes (else 401).
 */
export function register(router: Router): void {
  const base = "/databases/:databaseId/collections/:collectionId/documents";
  router.add("POST", base, "documents.write", createDocumentHandler);
  router.add("GET", base, "documents.read", listDocumentsHandler);
  router.add("GET", `${base}/:documentId`, "documents.read", getDocumentHandler);
  router.add("PATCH", `${base}/:documentId`, "documents.write", updateDocumentHandler);
  router.add("DELETE", `${base}/:documentId`, "documents.write", deleteDocumentHandler);
}
