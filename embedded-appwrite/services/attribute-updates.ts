import { attributeColumn, documentTable } from "../db/catalog.ts";
import type { AttributeRecord, AttributeType, CollectionRecord } from "../db/catalog.ts";
import { dropAttribute, dropIndex, updateAttribute } from "../db/ddl.ts";
import { nowDatetime } from "../datetime.ts";
import { AppwriteError, invalidParam, missingParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { boolParam, intParam, pathParam } from "../http/params.ts";
import type { Reply, Router } from "../http/router.ts";
import { checkScalar, toColumn } from "../values.ts";
import { elementsParam, rangeParams } from "./attributes.ts";
import { attributeModel, loadCollection } from "./models.ts";

const KEY = /^[A-Za-z0-9][A-Za-z0-9_]{0,35}$/;

function collectionFor(ctx: RequestContext): CollectionRecord {
  return loadCollection(ctx, pathParam(ctx, "databaseId"), pathParam(ctx, "collectionId"));
}

function findAttribute(collection: CollectionRecord, key: string): AttributeRecord {
  const attribute = collection.attributes.find((a) => a.key === key);
  if (!attribute) throw new AppwriteError("attribute_not_found", undefined, [key]);
  return attribute;
}

function assertNoIndex(collection: CollectionRecord, key: string): void {
  if (collection.indexes.some((i) => i.attributes.includes(key))) {
    throw new AppwriteError(
      "index_dependency",
      `Attribute '${key}' cannot be renamed or deleted. Please remove the associated index first.`,
    );
  }
}

function bound(body: Record<string, unknown>, name: string, fallback: bigint | null): bigint | null {
  const value = body[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value)) throw invalidParam(name, "Value must be a valid integer");
  return BigInt(value);
}

/**
 * `PATCH …/attributes/{type}/{key}` (AW `Attributes/Action.php updateAttribute`): `required` and
 * `default` are required params (`default` may be null); strings may change `size` (shrinking
 * below stored data → 400 `attribute_invalid_resize`), integers `min`/`max`; `newKey` renames
 * (409 `attribute_already_exists` if taken, 409 `index_dependency` if indexed). A type or format
 * other than the path's → 400 `attribute_type_invalid`. Answers 200 with the attribute model.
 */
function update(type: AttributeType, format: "" | "email" | "url" | "enum") {
  return async (ctx: RequestContext): Promise<Reply> => {
    const collection = collectionFor(ctx);
    const key = pathParam(ctx, "key");
    const current = findAttribute(collection, key);
    if (current.type !== type || current.format !== format) {
      throw new AppwriteError("attribute_type_invalid", undefined, [key]);
    }
    const body = await ctx.body();
    if (body["required"] === undefined) throw missingParam("required");
    if (!("default" in body)) throw missingParam("default");
    const next: AttributeRecord = {
      ...current,
      required: boolParam(body, "required", current.required),
      default: null,
      updatedAt: nowDatetime(),
    };
    if (type === "string" && format === "") {
      next.size = intParam(body, "size", current.size, { min: 1, max: 1073741824 }) ?? current.size;
    }
    if (type === "integer") {
      next.min = bound(body, "min", current.min);
      next.max = bound(body, "max", current.max);
      if (next.min !== null && next.max !== null && next.min > next.max) {
        throw new AppwriteError("attribute_value_invalid", "Minimum value must be lesser than maximum value");
      }
    }
    if (type === "double") {
      next.range = rangeParams(body, current.range ?? { min: -Number.MAX_VALUE, max: Number.MAX_VALUE });
    }
    if (format === "enum") next.elements = elementsParam(body);
    const fallback = body["default"];
    if (fallback !== undefined && fallback !== null) {
      if (next.required)
        throw new AppwriteError("attribute_default_unsupported", "Cannot set default value for required attribute");
      if (next.array)
        throw new AppwriteError("attribute_default_unsupported", "Cannot set default value for array attributes");
      const problem = checkScalar(next, fallback);
      if (problem) throw new AppwriteError("attribute_value_invalid", `Invalid \`default\` param: ${problem}`);
      next.default = type === "datetime" ? toColumn(next, fallback) : fallback;
    }
    const newKey = body["newKey"];
    if (newKey !== undefined && newKey !== null && newKey !== key) {
      if (typeof newKey !== "string" || !KEY.test(newKey)) {
        throw invalidParam(
          "newKey",
          "Parameter must contain at most 36 chars. Valid chars are a-z, A-Z, 0-9, and underscore. Can't start with a special char",
        );
      }
      if (collection.attributes.some((a) => a.key.toLowerCase() === newKey.toLowerCase())) {
        throw new AppwriteError("attribute_already_exists", undefined, [newKey]);
      }
      assertNoIndex(collection, key);
      next.key = newKey;
    }
    if (next.size < current.size && !next.array) {
      const longest = ctx.app.store
        .stmt(`SELECT MAX(LENGTH(${attributeColumn(key)})) AS n FROM ${documentTable(collection.seq)}`)
        .get() as { n: number | null };
      if ((longest.n ?? 0) > next.size) throw new AppwriteError("attribute_invalid_resize");
    }
    updateAttribute(ctx.app.store, collection, key, next);
    return { status: 200, json: attributeModel(next) };
  };
}

/** `DELETE …/attributes/{key}`: 204; 404 `attribute_not_found`; 409 `index_dependency` when indexed. */
function remove(ctx: RequestContext): Reply {
  const collection = collectionFor(ctx);
  const key = pathParam(ctx, "key");
  findAttribute(collection, key);
  assertNoIndex(collection, key);
  dropAttribute(ctx.app.store, collection, key);
  return { status: 204, empty: true };
}

/** `DELETE …/indexes/{key}`: 204; 404 `index_not_found`. */
function removeIndex(ctx: RequestContext): Reply {
  const collection = collectionFor(ctx);
  const key = pathParam(ctx, "key");
  const index = collection.indexes.find((i) => i.key === key);
  if (!index) throw new AppwriteError("index_not_found", undefined, [key]);
  dropIndex(ctx.app.store, collection, index);
  return { status: 204, empty: true };
}

/** Attribute updates and deletes, index deletes (REFERENCE §4 "Databases"). API key only. */
export function register(router: Router): void {
  const base = "/databases/:databaseId/collections/:collectionId";
  router.add("PATCH", `${base}/attributes/string/:key`, "attributes.write", update("string", ""));
  router.add("PATCH", `${base}/attributes/email/:key`, "attributes.write", update("string", "email"));
  router.add("PATCH", `${base}/attributes/url/:key`, "attributes.write", update("string", "url"));
  router.add("PATCH", `${base}/attributes/datetime/:key`, "attributes.write", update("datetime", ""));
  router.add("PATCH", `${base}/attributes/integer/:key`, "attributes.write", update("integer", ""));
  router.add("PATCH", `${base}/attributes/float/:key`, "attributes.write", update("double", ""));
  router.add("PATCH", `${base}/attributes/enum/:key`, "attributes.write", update("string", "enum"));
  router.add("PATCH", `${base}/attributes/boolean/:key`, "attributes.write", update("boolean", ""));
  router.add("DELETE", `${base}/attributes/:key`, "attributes.write", remove);
  router.add("DELETE", `${base}/indexes/:key`, "indexes.write", removeIndex);
}
