import { AppwriteError, invalidParam, missingParam } from "../errors.ts";
import type { RequestContext } from "./context.ts";
import { uniqueId } from "../ids.ts";

type Body = Record<string, unknown>;

const UID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,35}$/;
const UID_DESCRIPTION =
  "Parameter must contain at most 36 chars. Valid chars are a-z, A-Z, 0-9, period, hyphen, and underscore. Can't start with a special char";

/** Most entries an array parameter may hold (AW `APP_LIMIT_ARRAY_PARAMS_SIZE`). */
export const MAX_ARRAY_PARAMS = 100;

/**
 * Read the custom-ID parameter `name` (e.g. `documentId`): `"unique()"` gives a generated ID.
 * Throws 400 `general_argument_invalid` when missing or not a valid UID ([UDB] `Validator/Key.php`).
 */
export function customIdParam(body: Body, name: string): string {
  const value = body[name];
  if (value === undefined || value === null) throw missingParam(name);
  if (value === "unique()") return uniqueId();
  if (typeof value !== "string" || !UID_PATTERN.test(value)) {
    throw invalidParam(name, UID_DESCRIPTION);
  }
  return value;
}

/** True when `value` is a valid Appwrite UID (at most 36 of `[A-Za-z0-9._-]`, no leading symbol). */
export function isUid(value: string): boolean {
  return UID_PATTERN.test(value);
}

/**
 * Read a string parameter. Missing → 400 `Param "<name>" is not optional.` when `required`,
 * else `undefined`. Wrong type or length → 400 with utopia's `Text` validator wording.
 */
export function stringParam(body: Body, name: string, options: { required: true; min?: number; max: number }): string;
export function stringParam(
  body: Body,
  name: string,
  options: { required?: false; min?: number; max: number },
): string | undefined;
export function stringParam(
  body: Body,
  name: string,
  options: { required?: boolean; min?: number; max: number },
): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) {
    if (options.required) throw missingParam(name);
    return undefined;
  }
  const min = options.min ?? 0;
  if (typeof value !== "string" || [...value].length < min || [...value].length > options.max) {
    const atLeast = min > 0 ? ` and at least ${min} chars` : "";
    throw invalidParam(name, `Value must be a valid string${atLeast} and no longer than ${options.max} chars`);
  }
  return value;
}

/** Read an optional boolean parameter (JSON boolean or `"true"`/`"false"`), else `fallback`. */
export function boolParam(body: Body, name: string, fallback: boolean): boolean {
  const value = body[name];
  if (value === undefined || value === null) return fallback;
  if (value === true || value === "true" || value === "1" || value === 1) return true;
  if (value === false || value === "false" || value === "0" || value === 0) return false;
  throw invalidParam(name, "Value must be a valid boolean");
}

/** Read an optional integer parameter within `[min, max]`, else `fallback`. */
export function intParam(
  body: Body,
  name: string,
  fallback: number | undefined,
  range?: { min: number; max: number },
): number | undefined {
  const raw = body[name];
  if (raw === undefined || raw === null) return fallback;
  const value = typeof raw === "string" && /^-?\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw invalidParam(name, "Value must be a valid integer");
  }
  if (range && (value < range.min || value > range.max)) {
    throw invalidParam(
      name,
      `Value must be a valid range between ${range.min.toLocaleString("en-US")} and ${range.max.toLocaleString("en-US")}`,
    );
  }
  return value;
}

/**
 * Read an optional array of strings (each at most `maxLength` chars, at most
 * `MAX_ARRAY_PARAMS` entries). Multipart bodies may send a single string for a
 * one-element array. Returns `undefined` when absent.
 */
export function stringArrayParam(body: Body, name: string, maxLength = 4096): string[] | undefined {
  let value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") value = [value];
  if (
    !Array.isArray(value) ||
    value.length > MAX_ARRAY_PARAMS ||
    value.some((item) => typeof item !== "string" || item.length > maxLength)
  ) {
    throw invalidParam(
      name,
      `Value must a valid array no longer than ${MAX_ARRAY_PARAMS} items and Value must be a valid string and no longer than ${maxLength} chars`,
    );
  }
  return value as string[];
}

/**
 * The `queries` GET parameter as a list of JSON strings. Accepts `queries[0]=…` and
 * `queries[]=…` (REFERENCE §1); `qs` turns indexes above its array limit into object keys,
 * which are read back in index order.
 */
export function queriesParam(ctx: RequestContext): string[] {
  let raw = ctx.query["queries"];
  if (raw === undefined) return [];
  if (raw !== null && typeof raw === "object" && !Array.isArray(raw)) {
    raw = Object.entries(raw as Record<string, unknown>)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([, v]) => v);
  }
  return stringArrayParam({ queries: raw }, "queries") ?? [];
}

/** The `total` GET parameter (default true); `total=false` makes lists report `total: 0`. */
export function totalParam(ctx: RequestContext): boolean {
  return boolParam(ctx.query, "total", true);
}

/** The optional `search` GET parameter (at most 256 chars). */
export function searchParam(ctx: RequestContext): string | undefined {
  const value = stringParam(ctx.query, "search", { max: 256 });
  return value === undefined || value === "" ? undefined : value;
}

/** Path parameter `name` (always present once the router matched). */
export function pathParam(ctx: RequestContext, name: string): string {
  const value = ctx.params[name];
  if (value === undefined) throw new AppwriteError("general_server_error");
  return value;
}
