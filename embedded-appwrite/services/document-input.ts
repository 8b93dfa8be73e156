import type { CollectionRecord } from "../db/catalog.ts";
import type { DocumentRecord } from "../db/documents.ts";
import { normaliseDatetime } from "../datetime.ts";
import { AppwriteError, missingParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { pathParam, stringArrayParam } from "../http/params.ts";
import { aggregatePermissions, assertGrantable, isAllowed, RECORD_ACTIONS } from "../permissions.ts";
import type { Action } from "../permissions.ts";
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
export function documentModel(
  collection: CollectionRecord,
  doc: DocumentRecord,
  select?: string[],
): Record<string, unknown> {
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

/** The collection named by the `databaseId`/`collectionId` path parameters (404s as `loadCollection`). */
export function collectionFor(ctx: RequestContext): CollectionRecord {
  return loadCollection(ctx, pathParam(ctx, "databaseId"), pathParam(ctx, "collectionId"));
}

/** Collection grant, else (with `documentSecurity`) the document's own grant (REFERENCE §6). */
export function canAccess(
  ctx: RequestContext,
  collection: CollectionRecord,
  doc: DocumentRecord,
  action: Action,
): boolean {
  if (isAllowed(ctx.caller, collection.permissions, action)) return true;
  return collection.documentSecurity && isAllowed(ctx.caller, doc.permissions, action);
}

/**
 * Validate the full document `data` against the collection ([UDB] `Validator/Structure.php`):
 * missing required attribute, then unknown attribute, then invalid values.
 * Throws 400 `document_invalid_structure` with `Invalid document structure: …`.
 */
export function validateStructure(collection: CollectionRecord, data: Record<string, unknown>): void {
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

/** The `data` body parameter: a JSON object, or `undefined` when absent and not `required`. */
export function dataParam(body: Record<string, unknown>, required: boolean): Record<string, unknown> | undefined {
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

/**
 * The `permissions` body parameter, aggregated for documents; a non-key caller may only grant
 * roles it holds (401 `user_unauthorized`). `undefined` when absent.
 */
export function permissionsParam(ctx: RequestContext, body: Record<string, unknown>): string[] | undefined {
  const raw = stringArrayParam(body, "permissions");
  if (raw === undefined) return undefined;
  const permissions = aggregatePermissions(raw, RECORD_ACTIONS);
  assertGrantable(ctx.caller, permissions);
  return permissions;
}

/** Split request data into attribute values and honoured system timestamps (API keys only). */
export function splitData(ctx: RequestContext, data: Record<string, unknown>) {
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

/** Fill unset attributes with their defaults. */
export function applyDefaults(collection: CollectionRecord, values: Record<string, unknown>): void {
  for (const attribute of collection.attributes) {
    if ((values[attribute.key] === undefined || values[attribute.key] === null) && attribute.default !== null) {
      values[attribute.key] = attribute.default;
    }
  }
}

/** Map SQLite unique violations: `_id` → 409 `document_already_exists`, others → 409 `document_unique_constraint_violation`. */
export function mapUniqueError(error: unknown, id: string): never {
  const e = error as { code?: string; message?: string };
  if (e.code === "SQLITE_CONSTRAINT_UNIQUE" || e.code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
    if (/\._id$/.test(e.message ?? "")) throw new AppwriteError("document_already_exists", undefined, [id]);
    throw new AppwriteError("document_unique_constraint_violation");
  }
  throw error;
}
