import { insertAttribute, insertIndex } from "../db/ddl.ts";
import type { AttributeRecord, AttributeType, CollectionRecord } from "../db/catalog.ts";
import { nowDatetime } from "../datetime.ts";
import { AppwriteError, invalidParam, missingParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { boolParam, intParam, pathParam, stringArrayParam } from "../http/params.ts";
import type { Router } from "../http/router.ts";
import { checkScalar, toColumn } from "../values.ts";
import { attributeModel, indexModel, loadCollection } from "./models.ts";

const KEY = /^[A-Za-z0-9][A-Za-z0-9_]{0,35}$/;
const KEY_DESCRIPTION =
  "Parameter must contain at most 36 chars. Valid chars are a-z, A-Z, 0-9, and underscore. Can't start with a special char";
const STRING_MAX = 1073741824;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function keyParam(body: Record<string, unknown>, name = "key"): string {
  const key = body[name];
  if (key === undefined || key === null) throw missingParam(name);
  if (typeof key !== "string" || !KEY.test(key)) throw invalidParam(name, KEY_DESCRIPTION);
  return key;
}

function collectionFor(ctx: RequestContext): CollectionRecord {
  return loadCollection(ctx, pathParam(ctx, "databaseId"), pathParam(ctx, "collectionId"));
}

/** `elements` of an enum: 1–100 distinct non-empty strings of at most 255 chars (AW `createEnumAttribute`). */
export function elementsParam(body: Record<string, unknown>): string[] {
  const elements = stringArrayParam(body, "elements", 255);
  if (elements === undefined) throw missingParam("elements");
  if (elements.length === 0 || elements.length > 100) {
    throw invalidParam("elements", "Value must be an array and no longer than 100 items");
  }
  if (elements.some((e) => e === ""))
    throw new AppwriteError("attribute_value_invalid", "Enum elements must not be empty");
  if (new Set(elements).size !== elements.length) {
    throw new AppwriteError("attribute_value_invalid", "Enum elements must be unique");
  }
  return elements;
}

/** `min`/`max` of a float attribute (any finite numbers; `min` ≤ `max`), defaulting to `fallback`. */
export function rangeParams(
  body: Record<string, unknown>,
  fallback: { min: number; max: number },
): { min: number; max: number } {
  const read = (name: "min" | "max") => {
    const value = body[name];
    if (value === undefined || value === null) return fallback[name];
    if (typeof value !== "number" || !Number.isFinite(value)) throw invalidParam(name, "Value must be a valid float");
    return value;
  };
  const range = { min: read("min"), max: read("max") };
  if (range.min > range.max) {
    throw new AppwriteError("attribute_value_invalid", "Minimum value must be lesser than maximum value");
  }
  return range;
}

function bigParam(body: Record<string, unknown>, name: string): bigint | null {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isInteger(value)) throw invalidParam(name, "Value must be a valid integer");
  return BigInt(value);
}

/**
 * Create an attribute of `type`/`format` from the request body. Validates the key, `required`,
 * `size` (strings), `min`/`max` (integers) and `default` (REFERENCE §4 attribute rows).
 * Errors: 409 `attribute_already_exists`, 400 `attribute_default_unsupported`,
 * 400 `attribute_value_invalid`, 400 `general_argument_invalid`.
 */
function createAttribute(type: AttributeType, format: "" | "email" | "url" | "enum") {
  return async (ctx: RequestContext) => {
    const collection = collectionFor(ctx);
    const body = await ctx.body();
    const key = keyParam(body);
    if (body["required"] === undefined) throw missingParam("required");
    const required = boolParam(body, "required", false);
    const array = boolParam(body, "array", false);
    const size =
      type === "string" && format === "" ? (intParam(body, "size", undefined, { min: 1, max: STRING_MAX }) ?? -1) : 0;
    if (size === -1) throw missingParam("size");
    const min = type === "integer" ? (bigParam(body, "min") ?? INT64_MIN) : null;
    const max = type === "integer" ? (bigParam(body, "max") ?? INT64_MAX) : null;
    if (min !== null && max !== null && min > max) {
      throw new AppwriteError("attribute_value_invalid", "Minimum value must be lesser than maximum value");
    }
    const now = nowDatetime();
    const attribute: AttributeRecord = {
      key,
      type,
      format,
      size: format === "email" ? 254 : format === "url" ? 2000 : format === "enum" ? 255 : size,
      required,
      array,
      default: null,
      min,
      max,
      encrypt: boolParam(body, "encrypt", false),
      createdAt: now,
      updatedAt: now,
      ...(format === "enum" ? { elements: elementsParam(body) } : {}),
      ...(type === "double" ? { range: rangeParams(body, { min: -Number.MAX_VALUE, max: Number.MAX_VALUE }) } : {}),
    };
    const fallback = body["default"];
    if (fallback !== undefined && fallback !== null) {
      if (required)
        throw new AppwriteError("attribute_default_unsupported", "Cannot set default value for required attribute");
      if (array)
        throw new AppwriteError("attribute_default_unsupported", "Cannot set default value for array attributes");
      const problem = checkScalar(attribute, fallback);
      if (problem) throw new AppwriteError("attribute_value_invalid", `Invalid \`default\` param: ${problem}`);
      attribute.default = type === "datetime" ? toColumn(attribute, fallback) : fallback;
    }
    if (collection.attributes.some((a) => a.key.toLowerCase() === key.toLowerCase())) {
      throw new AppwriteError("attribute_already_exists", undefined, [key]);
    }
    insertAttribute(ctx.app.store, collection, attribute);
    return { status: 202, json: attributeModel(attribute) };
  };
}

function listAttributes(ctx: RequestContext) {
  const collection = collectionFor(ctx);
  return {
    status: 200,
    json: { total: collection.attributes.length, attributes: collection.attributes.map(attributeModel) },
  };
}

function getAttribute(ctx: RequestContext) {
  const collection = collectionFor(ctx);
  const key = pathParam(ctx, "key");
  const attribute = collection.attributes.find((a) => a.key === key);
  if (!attribute) throw new AppwriteError("attribute_not_found", undefined, [key]);
  return { status: 200, json: attributeModel(attribute) };
}

/**
 * Create a `key`, `unique` or `fulltext` index (202; fulltext is an FTS5 table, see `db/ddl.ts`). Every attribute must exist (400 `attribute_unknown`)
 * and not be an array (400 `index_invalid`); a duplicate key gives 409 `index_already_exists`.
 * Existing documents that violate a new unique index give 409
 * `document_unique_constraint_violation` (Appwrite would mark the index `failed`).
 */
async function createIndex(ctx: RequestContext) {
  const collection = collectionFor(ctx);
  const body = await ctx.body();
  const key = keyParam(body);
  const type = body["type"];
  if (type === undefined) throw missingParam("type");
  if (type === "spatial") {
    throw new AppwriteError("general_not_implemented", `Index type "${type}" is not supported by the emulator.`);
  }
  if (type !== "key" && type !== "unique" && type !== "fulltext") {
    throw invalidParam("type", "Value must be one of (key, fulltext, unique, spatial)");
  }
  const attributes = stringArrayParam(body, "attributes");
  if (!attributes || attributes.length === 0) throw missingParam("attributes");
  for (const name of attributes) {
    if (["$id", "$createdAt", "$updatedAt"].includes(name) && type !== "fulltext") continue;
    const attribute = collection.attributes.find((a) => a.key === name);
    if (!attribute) throw new AppwriteError("attribute_unknown", undefined, [name]);
    if (attribute.array)
      throw new AppwriteError("index_invalid", "Creating indexes on array attributes is not currently supported.");
    if (type === "fulltext" && attribute.type !== "string") {
      throw new AppwriteError(
        "index_invalid",
        `Attribute "${name}" cannot be part of a fulltext index, must be of type string`,
      );
    }
  }
  const orders = (stringArrayParam(body, "orders") ?? []).map((o) => o.toUpperCase());
  if (orders.some((o) => o !== "ASC" && o !== "DESC")) throw invalidParam("orders", "Value must be one of (ASC, DESC)");
  const lengths = ((body["lengths"] as unknown[] | undefined) ?? []).filter((l): l is number => typeof l === "number");
  if (collection.indexes.some((i) => i.key === key)) throw new AppwriteError("index_already_exists", undefined, [key]);
  const now = nowDatetime();
  const index = { key, type, attributes, orders, lengths, createdAt: now, updatedAt: now } as const;
  try {
    insertIndex(ctx.app.store, collection, { ...index, attributes: [...attributes], orders, lengths });
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE") {
      throw new AppwriteError("document_unique_constraint_violation");
    }
    throw error;
  }
  return { status: 202, json: indexModel(collection, { ...index, attributes, orders, lengths }) };
}

function listIndexes(ctx: RequestContext) {
  const collection = collectionFor(ctx);
  return {
    status: 200,
    json: { total: collection.indexes.length, indexes: collection.indexes.map((i) => indexModel(collection, i)) },
  };
}

function getIndex(ctx: RequestContext) {
  const collection = collectionFor(ctx);
  const key = pathParam(ctx, "key");
  const index = collection.indexes.find((i) => i.key === key);
  if (!index) throw new AppwriteError("index_not_found", undefined, [key]);
  return { status: 200, json: indexModel(collection, index) };
}

/**
 * Attributes (string, email, url, datetime, integer, boolean) and indexes (key, unique) of a
 * collection: `POST …/attributes/{type}` (202), `GET …/attributes[/{key}]`,
 * `POST …/indexes` (202), `GET …/indexes[/{key}]` (REFERENCE §4). API key only.
 */
export function register(router: Router): void {
  const base = "/databases/:databaseId/collections/:collectionId";
  router.add("POST", `${base}/attributes/string`, "attributes.write", createAttribute("string", ""));
  router.add("POST", `${base}/attributes/email`, "attributes.write", createAttribute("string", "email"));
  router.add("POST", `${base}/attributes/url`, "attributes.write", createAttribute("string", "url"));
  router.add("POST", `${base}/attributes/datetime`, "attributes.write", createAttribute("datetime", ""));
  router.add("POST", `${base}/attributes/integer`, "attributes.write", createAttribute("integer", ""));
  router.add("POST", `${base}/attributes/float`, "attributes.write", createAttribute("double", ""));
  router.add("POST", `${base}/attributes/enum`, "attributes.write", createAttribute("string", "enum"));
  router.add("POST", `${base}/attributes/boolean`, "attributes.write", createAttribute("boolean", ""));
  router.add("GET", `${base}/attributes`, "attributes.read", listAttributes);
  router.add("GET", `${base}/attributes/:key`, "attributes.read", getAttribute);
  router.add("POST", `${base}/indexes`, "indexes.write", createIndex);
  router.add("GET", `${base}/indexes`, "indexes.read", listIndexes);
  router.add("GET", `${base}/indexes/:key`, "indexes.read", getIndex);
}
