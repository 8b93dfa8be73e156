import { AppwriteError } from "./errors.ts";
import { compileFilter, fieldFor, FILTERS, invalid } from "./query-filters.ts";
import type { FieldSpec, QuerySchema, RawQuery } from "./query-types.ts";

export type { FieldSpec, QuerySchema, RawQuery } from "./query-types.ts";

/**
 * The system attributes every non-document list may filter and order on (REFERENCE §2: all of them allow
 * `$id`, `$createdAt`, `$updatedAt`, `$sequence`), stored in the columns of the same names.
 */
export const SYSTEM_QUERY_FIELDS: readonly (readonly [string, FieldSpec])[] = [
  ["$id", { column: "id", type: "string" }],
  ["$createdAt", { column: "created_at", type: "datetime" }],
  ["$updatedAt", { column: "updated_at", type: "datetime" }],
  ["$sequence", { column: "seq", type: "integer" }],
];

/** One `ORDER BY` term. */
export interface OrderTerm {
  attribute: string;
  column: string;
  desc: boolean;
}

/** Queries compiled to SQL fragments; every value is a bound parameter. */
export interface CompiledQueries {
  where: string[];
  params: unknown[];
  orders: OrderTerm[];
  random: boolean;
  limit: number;
  offset: number;
  cursor?: { id: string; after: boolean };
  select?: string[];
}

/** Default page size (AW `APP_LIMIT_LIST_DEFAULT`, [UDB] `find`). */
export const DEFAULT_LIMIT = 25;
const INT64_MAX = "9,223,372,036,854,775,807";

const OTHER_METHODS = new Set([
  "and",
  "or",
  "elemMatch",
  "select",
  "orderAsc",
  "orderDesc",
  "orderRandom",
  "limit",
  "offset",
  "cursorAfter",
  "cursorBefore",
]);
const UNSUPPORTED = new Set([
  "crosses",
  "notCrosses",
  "distanceEqual",
  "distanceNotEqual",
  "distanceGreaterThan",
  "distanceLessThan",
  "intersects",
  "notIntersects",
  "overlaps",
  "notOverlaps",
  "touches",
  "notTouches",
  "vectorDot",
  "vectorCosine",
  "vectorEuclidean",
]);

/**
 * Parse one query (a JSON string, or an object inside `and`/`or`) as [UDB] `Query::parse` does:
 * `attribute` defaults to `""`, `values` to `[]`. Malformed JSON or shape → 400
 * `Invalid query: Syntax error`; an unknown method → 400 `Invalid query method: <m>`.
 */
export function parseQuery(raw: unknown): RawQuery {
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      throw invalid("Invalid query: Syntax error");
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalid("Invalid query: Syntax error");
  }
  const { method, attribute = "", values = [] } = value as Record<string, unknown>;
  if (typeof method !== "string" || typeof attribute !== "string" || !Array.isArray(values)) {
    throw invalid("Invalid query: Syntax error");
  }
  if (!FILTERS.has(method) && !OTHER_METHODS.has(method) && !UNSUPPORTED.has(method)) {
    throw invalid(`Invalid query method: ${method}`);
  }
  return { method, attribute, values };
}

function positiveInt(q: RawQuery, min: number, what: string): number {
  const value = q.values[0];
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw invalid(`Invalid query: Invalid ${what}: Value must be a valid range between ${min} and ${INT64_MAX}`);
  }
  return value;
}

/**
 * Parse and compile Appwrite JSON queries (REFERENCE §2) against `schema`.
 * Filters become SQL with bound parameters; unknown attributes, malformed JSON and values of
 * the wrong type give 400 `general_query_invalid` with [UDB]'s messages. Spatial and vector
 * methods give 405 `general_not_implemented`.
 */
export function compileQueries(rawQueries: readonly string[], schema: QuerySchema): CompiledQueries {
  const out: CompiledQueries = { where: [], params: [], orders: [], random: false, limit: DEFAULT_LIMIT, offset: 0 };
  for (const raw of rawQueries) {
    const q = parseQuery(raw);
    if (UNSUPPORTED.has(q.method)) {
      throw new AppwriteError(
        "general_not_implemented",
        `Query method "${q.method}" is not supported by the emulator.`,
      );
    }
    switch (q.method) {
      case "limit":
        out.limit = positiveInt(q, 1, "limit");
        break;
      case "offset":
        out.offset = positiveInt(q, 0, "offset");
        break;
      case "cursorAfter":
      case "cursorBefore": {
        const id = q.values[0];
        if (typeof id !== "string" || id === "")
          throw invalid("Invalid query: Invalid cursor: Cursor must contain at least one value.");
        out.cursor = { id, after: q.method === "cursorAfter" };
        break;
      }
      case "orderAsc":
      case "orderDesc": {
        const field = fieldFor(schema, q.attribute);
        if (field.array) throw invalid(`Invalid query: Cannot order by array attribute: ${q.attribute}`);
        out.orders.push({ attribute: q.attribute, column: field.column, desc: q.method === "orderDesc" });
        break;
      }
      case "orderRandom":
        out.random = true;
        break;
      case "select": {
        if (!schema.selectable) throw invalid("Invalid query: Query method not valid: select");
        const names = q.values.map(String);
        for (const name of names) {
          if (name !== "*" && !schema.fields.has(name))
            throw invalid(`Invalid query: Attribute not found in schema: ${name}`);
        }
        out.select = [...(out.select ?? []), ...names];
        break;
      }
      default:
        out.where.push(compileFilter(q, schema, out.params, parseQuery));
    }
  }
  if (out.random && out.cursor) throw invalid("Invalid query: Cursor cannot be used with orderRandom");
  return out;
}
