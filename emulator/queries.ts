import { normaliseDatetime } from "./datetime.ts";
import { AppwriteError } from "./errors.ts";

/** How one queryable attribute is stored: its SQL column (already quoted) and value type. */
export interface FieldSpec {
  column: string;
  type: "string" | "integer" | "boolean" | "datetime";
  array?: boolean;
}

/** The attributes a list endpoint may filter and order on (REFERENCE §2 "Filterable attributes"). */
export interface QuerySchema {
  fields: ReadonlyMap<string, FieldSpec>;
  /** Whether `select` is allowed (documents only). */
  selectable: boolean;
}

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

interface RawQuery {
  method: string;
  attribute: string;
  values: unknown[];
}

/** Default page size (AW `APP_LIMIT_LIST_DEFAULT`, [UDB] `find`). */
export const DEFAULT_LIMIT = 25;
/** Most values one filter may carry (AW `APP_DATABASE_QUERY_MAX_VALUES`). */
export const MAX_QUERY_VALUES = 500;
const INT64_MAX = "9,223,372,036,854,775,807";

const FILTERS = new Set([
  "equal",
  "notEqual",
  "lessThan",
  "lessThanEqual",
  "greaterThan",
  "greaterThanEqual",
  "contains",
  "notContains",
  "startsWith",
  "notStartsWith",
  "endsWith",
  "notEndsWith",
  "isNull",
  "isNotNull",
  "between",
  "notBetween",
]);
const UNSUPPORTED = new Set([
  "containsAny",
  "containsAll",
  "search",
  "notSearch",
  "regex",
  "exists",
  "notExists",
  "elemMatch",
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
const COMPARATORS: Record<string, string> = {
  lessThan: "<",
  lessThanEqual: "<=",
  greaterThan: ">",
  greaterThanEqual: ">=",
};

function invalid(message: string): AppwriteError {
  return new AppwriteError("general_query_invalid", message);
}

function parseOne(raw: unknown): RawQuery {
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
  if (typeof method !== "string") throw invalid("Invalid query: Syntax error");
  if (typeof attribute !== "string" || !Array.isArray(values)) {
    throw invalid("Invalid query: Syntax error");
  }
  const known =
    FILTERS.has(method) ||
    UNSUPPORTED.has(method) ||
    [
      "and",
      "or",
      "select",
      "orderAsc",
      "orderDesc",
      "orderRandom",
      "limit",
      "offset",
      "cursorAfter",
      "cursorBefore",
    ].includes(method);
  if (!known) throw invalid(`Invalid query method: ${method}`);
  return { method, attribute, values };
}

function fieldFor(schema: QuerySchema, attribute: string): FieldSpec {
  const field = schema.fields.get(attribute);
  if (!field) throw invalid(`Invalid query: Attribute not found in schema: ${attribute}`);
  return field;
}

function sqlValue(field: FieldSpec, attribute: string, value: unknown): unknown {
  const bad = () => invalid(`Invalid query: Query value is invalid for attribute "${attribute}"`);
  switch (field.type) {
    case "string":
      if (typeof value !== "string") throw bad();
      return value;
    case "integer":
      if (typeof value !== "number" || !Number.isFinite(value)) throw bad();
      return value;
    case "boolean":
      if (typeof value !== "boolean") throw bad();
      return value ? 1 : 0;
    case "datetime": {
      const normalised = normaliseDatetime(value);
      if (normalised === null) throw bad();
      return normalised;
    }
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function compileFilter(q: RawQuery, schema: QuerySchema, params: unknown[]): string {
  if (q.method === "and" || q.method === "or") {
    if (q.values.length === 0) throw invalid(`Invalid query: ${q.method} queries require at least one query`);
    const parts = q.values.map((v) => {
      const inner = parseOne(v);
      if (!FILTERS.has(inner.method) && inner.method !== "and" && inner.method !== "or") {
        throw invalid(`Invalid query: ${q.method} queries can only contain filter queries`);
      }
      return compileFilter(inner, schema, params);
    });
    return `(${parts.join(q.method === "and" ? " AND " : " OR ")})`;
  }
  const field = fieldFor(schema, q.attribute);
  const col = field.column;
  if (q.values.length > MAX_QUERY_VALUES) {
    throw invalid(`Invalid query: Query on attribute has greater than ${MAX_QUERY_VALUES} values: ${q.attribute}`);
  }
  if (q.method === "isNull") return `${col} IS NULL`;
  if (q.method === "isNotNull") return `${col} IS NOT NULL`;
  if (q.values.length === 0) {
    throw invalid(`Invalid query: ${q.method} queries require at least one value.`);
  }
  if (field.array) {
    if (q.method !== "contains" && q.method !== "notContains") {
      throw invalid(`Invalid query: Cannot query ${q.method} on attribute "${q.attribute}" because it is an array.`);
    }
    const values = q.values.map((v) => sqlValue(field, q.attribute, v));
    params.push(...values);
    const test = `EXISTS (SELECT 1 FROM json_each(${col}) WHERE value IN (${values.map(() => "?").join(", ")}))`;
    return q.method === "contains" ? test : `NOT ${test}`;
  }
  const values = q.values.map((v) => sqlValue(field, q.attribute, v));
  const like = (pattern: (v: string) => string, negate: boolean): string => {
    if (field.type !== "string") {
      throw invalid(
        `Invalid query: Cannot query ${q.method} on attribute "${q.attribute}" because it is not a string.`,
      );
    }
    const terms = values.map((v) => {
      params.push(pattern(escapeLike(String(v))));
      return `${col} ${negate ? "NOT LIKE" : "LIKE"} ? ESCAPE '\\'`;
    });
    return `(${terms.join(negate ? " AND " : " OR ")})`;
  };
  switch (q.method) {
    case "equal":
      params.push(...values);
      return `${col} IN (${values.map(() => "?").join(", ")})`;
    case "notEqual":
      params.push(...values);
      return `(${col} IS NULL OR ${col} NOT IN (${values.map(() => "?").join(", ")}))`;
    case "lessThan":
    case "lessThanEqual":
    case "greaterThan":
    case "greaterThanEqual":
      params.push(values[0]);
      return `${col} ${COMPARATORS[q.method]} ?`;
    case "between":
    case "notBetween":
      if (values.length !== 2) throw invalid(`Invalid query: ${q.method} queries require exactly two values.`);
      params.push(values[0], values[1]);
      return `${col} ${q.method === "between" ? "" : "NOT "}BETWEEN ? AND ?`;
    case "contains":
      return like((v) => `%${v}%`, false);
    case "notContains":
      return like((v) => `%${v}%`, true);
    case "startsWith":
      return like((v) => `${v}%`, false);
    case "notStartsWith":
      return like((v) => `${v}%`, true);
    case "endsWith":
      return like((v) => `%${v}`, false);
    default:
      return like((v) => `%${v}`, true);
  }
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
 * the wrong type give 400 `general_query_invalid` with [UDB]'s messages. Methods the emulator
 * does not evaluate (`search`, spatial, vector…) give 405 `general_not_implemented`.
 */
export function compileQueries(rawQueries: readonly string[], schema: QuerySchema): CompiledQueries {
  const out: CompiledQueries = { where: [], params: [], orders: [], random: false, limit: DEFAULT_LIMIT, offset: 0 };
  for (const raw of rawQueries) {
    const q = parseOne(raw);
    if (UNSUPPORTED.has(q.method)) {
      if (q.method === "search") {
        throw invalid(`Searching by attribute "${q.attribute}" requires a fulltext index.`);
      }
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
        out.where.push(compileFilter(q, schema, out.params));
    }
  }
  return out;
}
