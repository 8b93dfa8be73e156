import { normaliseDatetime } from "./datetime.ts";
import { AppwriteError } from "./errors.ts";
import type { FieldSpec, QuerySchema, RawQuery } from "./query-types.ts";

/** Most values one filter may carry (AW `APP_DATABASE_QUERY_MAX_VALUES`). */
export const MAX_QUERY_VALUES = 500;

/** Filter methods the emulator evaluates (REFERENCE §2 "filters", without spatial ones). */
export const FILTERS = new Set([
  "equal",
  "notEqual",
  "lessThan",
  "lessThanEqual",
  "greaterThan",
  "greaterThanEqual",
  "contains",
  "containsAny",
  "containsAll",
  "notContains",
  "search",
  "notSearch",
  "isNull",
  "isNotNull",
  "between",
  "notBetween",
  "startsWith",
  "notStartsWith",
  "endsWith",
  "notEndsWith",
  "regex",
  "exists",
  "notExists",
]);
const COMPARATORS: Record<string, string> = {
  lessThan: "<",
  lessThanEqual: "<=",
  greaterThan: ">",
  greaterThanEqual: ">=",
};

/** 400 `general_query_invalid` with `message`. */
export function invalid(message: string): AppwriteError {
  return new AppwriteError("general_query_invalid", message);
}

/** The field of `attribute`; 400 `Invalid query: Attribute not found in schema: <attr>` when unknown. */
export function fieldFor(schema: QuerySchema, attribute: string): FieldSpec {
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
    case "double":
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

/**
 * A MariaDB boolean-mode fulltext term as [UDB] `getFulltextValue` builds it, in FTS5 syntax:
 * reserved characters become spaces; a value in double quotes is a phrase, otherwise any word
 * matches and the last one is a prefix (`hi there` → `"hi" OR "there"*`). `null` when empty.
 */
export function fulltextMatch(value: string): string | null {
  const exact = value.length > 1 && value.startsWith('"') && value.endsWith('"');
  const words = value
    .replace(/[@+\-*)(<>~"]/g, " ")
    .split(/\s+/)
    .filter((w) => w !== "");
  if (words.length === 0) return null;
  const quoted = words.map((w) => `"${w.replace(/"/g, '""')}"`);
  if (exact) return `"${words.join(" ").replace(/"/g, '""')}"`;
  return quoted.map((w, i) => (i === quoted.length - 1 ? `${w}*` : w)).join(" OR ");
}

function compileArray(q: RawQuery, field: FieldSpec, params: unknown[]): string {
  const values = q.values.map((v) => sqlValue(field, q.attribute, v));
  const member = (count: number) =>
    `EXISTS (SELECT 1 FROM json_each(${field.column}) WHERE value IN (${Array(count).fill("?").join(", ")}))`;
  switch (q.method) {
    case "contains":
    case "containsAny":
      params.push(...values);
      return member(values.length);
    case "notContains":
      params.push(...values);
      return `NOT ${member(values.length)}`;
    case "containsAll":
      params.push(...values);
      return `(${values.map(() => member(1)).join(" AND ")})`;
    default:
      throw invalid(`Invalid query: Cannot query ${q.method} on attribute "${q.attribute}" because it is an array.`);
  }
}

function compileString(q: RawQuery, field: FieldSpec, values: unknown[], params: unknown[]): string {
  if (field.type !== "string") {
    throw invalid(`Invalid query: Cannot query ${q.method} on attribute "${q.attribute}" because it is not a string.`);
  }
  const col = field.column;
  const like = (pattern: (v: string) => string, negate: boolean, join = negate ? " AND " : " OR "): string => {
    const terms = values.map((v) => {
      params.push(pattern(escapeLike(String(v))));
      return `${col} ${negate ? "NOT LIKE" : "LIKE"} ? ESCAPE '\\'`;
    });
    return `(${terms.join(join)})`;
  };
  switch (q.method) {
    case "contains":
    case "containsAny":
      return like((v) => `%${v}%`, false);
    case "containsAll":
      return like((v) => `%${v}%`, false, " AND ");
    case "notContains":
      return like((v) => `%${v}%`, true);
    case "startsWith":
      return like((v) => `${v}%`, false);
    case "notStartsWith":
      return like((v) => `${v}%`, true);
    case "endsWith":
      return like((v) => `%${v}`, false);
    case "notEndsWith":
      return like((v) => `%${v}`, true);
    case "regex": {
      const pattern = String(values[0]);
      try {
        new RegExp(pattern, "u");
      } catch {
        throw invalid(`Invalid query: Invalid regular expression for attribute "${q.attribute}"`);
      }
      params.push(pattern);
      return `${col} REGEXP ?`;
    }
    default: {
      // search / notSearch
      if (!field.fulltext) throw invalid(`Searching by attribute "${q.attribute}" requires a fulltext index.`);
      const match = fulltextMatch(String(values[0]));
      if (match === null) return q.method === "search" ? "0 = 1" : "1 = 1";
      params.push(match);
      const test = `${field.fulltext.rowid} IN (SELECT rowid FROM ${field.fulltext.table} WHERE ${field.fulltext.table} MATCH ?)`;
      return q.method === "search" ? test : `NOT (${test})`;
    }
  }
}

/**
 * Compile one filter (or `and`/`or` of filters) to SQL, pushing bound values onto `params`.
 * Semantics follow REFERENCE §2: `equal` is IN; `contains`/`containsAny`/`containsAll`/
 * `notContains` are substring tests on strings and element tests on arrays; `search` needs a
 * fulltext index; `exists`/`notExists` take attribute names in `values` (not null / null).
 * Throws 400 `general_query_invalid` with [UDB]'s messages.
 */
export function compileFilter(
  q: RawQuery,
  schema: QuerySchema,
  params: unknown[],
  parse: (v: unknown) => RawQuery,
): string {
  if (q.method === "and" || q.method === "or") {
    const name = q.method === "and" ? "And" : "Or";
    if (q.values.length < 2) throw invalid(`Invalid query: ${name} queries require at least two queries`);
    const parts = q.values.map((v) => {
      const inner = parse(v);
      if (!FILTERS.has(inner.method) && inner.method !== "and" && inner.method !== "or") {
        throw invalid(`Invalid query: ${name} queries can only contain filter queries`);
      }
      return compileFilter(inner, schema, params, parse);
    });
    return `(${parts.join(q.method === "and" ? " AND " : " OR ")})`;
  }
  if (q.method === "elemMatch") {
    throw invalid(`Invalid query: elemMatch is only supported on arrays of objects, which this database does not have`);
  }
  if (q.values.length > MAX_QUERY_VALUES) {
    throw invalid(`Invalid query: Query on attribute has greater than ${MAX_QUERY_VALUES} values: ${q.attribute}`);
  }
  if (q.method === "exists" || q.method === "notExists") {
    if (q.values.length === 0) throw invalid(`Invalid query: ${q.method} queries require at least one value.`);
    const columns = q.values.map((v) => fieldFor(schema, String(v)).column);
    return `(${columns.map((c) => `${c} IS ${q.method === "exists" ? "NOT " : ""}NULL`).join(" AND ")})`;
  }
  const field = fieldFor(schema, q.attribute);
  const col = field.column;
  if (q.method === "isNull") return `${col} IS NULL`;
  if (q.method === "isNotNull") return `${col} IS NOT NULL`;
  if (q.values.length === 0) throw invalid(`Invalid query: ${q.method} queries require at least one value.`);
  if (field.array) return compileArray(q, field, params);
  const values = q.values.map((v) => sqlValue(field, q.attribute, v));
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
    default:
      return compileString(q, field, values, params);
  }
}
