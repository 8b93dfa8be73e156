import { findDocument, updateDocument } from "../db/documents.ts";
import type { DocumentRecord } from "../db/documents.ts";
import { nowDatetime } from "../datetime.ts";
import { AppwriteError, invalidParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { pathParam } from "../http/params.ts";
import type { Reply, Router } from "../http/router.ts";
import { publishDocument } from "../realtime/events.ts";
import { canAccess, collectionFor, documentModel } from "./document-input.ts";

function numberParam(body: Record<string, unknown>, name: string, fallback: number | null): number | null {
  const raw = body[name];
  if (raw === undefined || raw === null) return fallback;
  const value = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
  if (typeof value !== "number" || !Number.isFinite(value)) throw invalidParam(name, "Value must be a valid number");
  return value;
}

/**
 * `PATCH …/documents/{documentId}/{attribute}/increment|decrement` (AW 1.8 `Documents/Attribute/
 * Increment.php`, `Decrement.php`; utopia `increaseDocumentAttribute`): adds or subtracts `value`
 * (default 1, > 0) on an integer or float attribute (a null value counts as 0). Going above `max`
 * (increment) or below `min` (decrement) → 400 `attribute_limit_exceeded`; a non-numeric or array
 * attribute → 400 `attribute_type_invalid`; needs collection or (documentSecurity) document
 * `update` (401). Answers 200 with the Document and publishes an update event.
 */
function counter(direction: 1 | -1) {
  return async (ctx: RequestContext): Promise<Reply> => {
    const collection = collectionFor(ctx);
    const id = pathParam(ctx, "documentId");
    const key = pathParam(ctx, "attribute");
    const body = await ctx.body();
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
  };
}

/** Increment and decrement of a numeric document attribute (any caller, permission-checked). */
export function register(router: Router): void {
  const base = "/databases/:databaseId/collections/:collectionId/documents/:documentId/:attribute";
  router.add("PATCH", `${base}/increment`, "documents.write", counter(1));
  router.add("PATCH", `${base}/decrement`, "documents.write", counter(-1));
}
