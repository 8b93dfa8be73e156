import { AppwriteError, invalidParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { uniqueId } from "../ids.ts";
import { ACTIONS, isBulk } from "./document-operations.ts";
import type { Action, Operation } from "./document-operations.ts";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Appwrite's operation `data` for create/update/upsert (`{$permissions?, …attributes}`) as a route body. */
function documentBody(data: Json): Json {
  const { $permissions, ...values } = data;
  return $permissions === undefined ? { data: values } : { data: values, permissions: $permissions };
}

/** Appwrite's operation `data` as the body the matching route reads (see `Operation.body`). */
function bodyOf(action: Action, data: unknown, invalid: (why: string) => AppwriteError): Json {
  if (action === "bulkCreate" || action === "bulkUpsert") {
    if (!Array.isArray(data)) throw invalid(`data of ${action} must be an array of documents`);
    return { documents: data };
  }
  const object = data ?? {};
  if (!isObject(object)) throw invalid(`data of ${action} must be a JSON object`);
  switch (action) {
    case "create":
    case "update":
    case "upsert":
      return documentBody(object);
    case "increment":
    case "decrement":
      return { value: object["value"], min: object["min"], max: object["max"] };
    case "bulkUpdate":
      return { data: object["data"], queries: object["queries"] };
    case "bulkDelete":
      return { queries: object["queries"] };
    case "delete":
      return {};
  }
}

/**
 * The `operations` body parameter of `createOperations` (AW `Validator/Operation.php`): 1–100 objects
 * `{action, databaseId, collectionId|tableId, documentId|rowId, data}`, named as the API (`tablesdb` → table
 * and row) calls them. Throws 400 `general_argument_invalid` for a malformed operation, 400
 * `general_bad_request` for an empty list or a missing document ID (update, upsert, delete,
 * increment, decrement), 401 `user_unauthorized` for a bulk operation staged by a non-key caller.
 */
export function operationsParam(ctx: RequestContext, body: Json, tables: boolean): Operation[] {
  const raw = body["operations"] ?? [];
  const [groupKey, resourceKey] = tables ? ["tableId", "rowId"] : ["collectionId", "documentId"];
  const invalid = (why: string) => invalidParam("operations", `Value must be a valid array of operations: ${why}`);
  if (!Array.isArray(raw)) throw invalid("not an array");
  if (raw.length === 0) throw new AppwriteError("general_bad_request", "Operations array cannot be empty");
  return raw.map((item: unknown): Operation => {
    if (!isObject(item)) throw invalid("each operation must be a JSON object");
    const action = item["action"];
    if (typeof action !== "string" || !(ACTIONS as readonly string[]).includes(action)) {
      throw invalid(`action must be one of ${ACTIONS.join(", ")}`);
    }
    const databaseId = item["databaseId"];
    const collectionId = item[groupKey];
    if (typeof databaseId !== "string" || typeof collectionId !== "string") {
      throw invalid(`databaseId and ${groupKey} are required`);
    }
    const typed = action as Action;
    if (isBulk(typed) && !ctx.caller.isKey) throw new AppwriteError("user_unauthorized");
    const data = item["data"];
    const op: Operation = { action: typed, databaseId, collectionId, body: bodyOf(typed, data, invalid) };
    if (isBulk(typed)) return op;
    const documentId = item[resourceKey];
    if (typeof documentId === "string" && documentId !== "") op.documentId = documentId;
    else if (typed === "create") op.documentId = uniqueId();
    else throw new AppwriteError("general_bad_request", `Document ID is required for ${typed} operations`);
    if (typed === "increment" || typed === "decrement") {
      const key = isObject(data) ? (data["column"] ?? data["attribute"]) : undefined;
      if (typeof key !== "string") throw invalid(`data of ${typed} needs the ${tables ? "column" : "attribute"}`);
      op.key = key;
    }
    return op;
  });
}
