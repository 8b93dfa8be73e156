import type { AttributeRecord } from "./db/catalog.ts";
import { normaliseDatetime } from "./datetime.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function formatNumber(value: bigint): string {
  const text = (value < 0n ? -value : value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return value < 0n ? `-${text}` : text;
}

function isUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.hostname !== "" && /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol);
  } catch {
    return false;
  }
}

/**
 * Check one scalar value against an attribute and return utopia's validator description when
 * it fails, or `null` when it is valid ([UDB] `Validator/Structure.php` and utopia validators:
 * `Text`, `Integer`, `Range`, `Boolean`, `Email`, `URL`, `Datetime`).
 */
export function checkScalar(attribute: AttributeRecord, value: unknown): string | null {
  switch (attribute.type) {
    case "string": {
      if (typeof value !== "string" || [...value].length > attribute.size) {
        return `Value must be a valid string and no longer than ${attribute.size} chars`;
      }
      if (attribute.format === "email" && !EMAIL.test(value)) return "Value must be a valid email address";
      if (attribute.format === "url" && !isUrl(value)) return "Value must be a valid URL";
      const elements = attribute.elements ?? [];
      if (attribute.format === "enum" && !elements.includes(value)) {
        return `Value must be one of (${elements.join(", ")})`;
      }
      return null;
    }
    case "integer": {
      if (typeof value !== "number" || !Number.isInteger(value)) return "Value must be a valid integer";
      const min = attribute.min ?? -(2n ** 63n);
      const max = attribute.max ?? 2n ** 63n - 1n;
      const big = BigInt(value);
      if (big < min || big > max) {
        return `Value must be a valid range between ${formatNumber(min)} and ${formatNumber(max)}`;
      }
      return null;
    }
    case "double": {
      if (typeof value !== "number" || !Number.isFinite(value)) return "Value must be a valid float";
      const range = attribute.range;
      if (range && (value < range.min || value > range.max)) {
        const show = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 0 });
        return `Value must be a valid range between ${show(range.min)} and ${show(range.max)}`;
      }
      return null;
    }
    case "boolean":
      return typeof value === "boolean" ? null : "Value must be a valid boolean";
    case "datetime":
      return normaliseDatetime(value) === null
        ? "Value must be valid date between 1000-01-01 00:00:00 and 9999-12-31 23:59:59."
        : null;
  }
}

/**
 * Validate a document value for `attribute` and return the full structure message
 * (without the `Invalid document structure: ` prefix), or `null` when valid. Labels follow
 * [UDB]: `format` for attributes with a format (email, url, integer range), else `type`.
 */
export function checkAttributeValue(attribute: AttributeRecord, value: unknown): string | null {
  if (value === null && !attribute.required) return null;
  const label =
    attribute.format !== "" || attribute.type === "integer" || attribute.type === "double" ? "format" : "type";
  if (attribute.array) {
    if (!attribute.required && Array.isArray(value) && value.length === 0) return null;
    if (!Array.isArray(value)) return `Attribute "${attribute.key}" must be an array`;
    for (const [i, child] of value.entries()) {
      if (child === null && !attribute.required) continue;
      const problem = checkScalar(attribute, child);
      if (problem) return `Attribute "${attribute.key}['${i}']" has invalid ${label}. ${problem}`;
    }
    return null;
  }
  const problem = checkScalar(attribute, value);
  return problem ? `Attribute "${attribute.key}" has invalid ${label}. ${problem}` : null;
}

/** Convert a valid value to its SQLite column value (booleans 0/1, datetimes normalised, arrays JSON). */
export function toColumn(attribute: AttributeRecord, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const scalar = (v: unknown): unknown => {
    if (v === null) return null;
    if (attribute.type === "boolean") return v ? 1 : 0;
    if (attribute.type === "datetime") return normaliseDatetime(v);
    return v;
  };
  if (attribute.array) {
    const list = (value as unknown[]).map(scalar);
    return JSON.stringify(attribute.type === "boolean" ? list.map((v) => (v === null ? null : v === 1)) : list);
  }
  return scalar(value);
}

/** Convert a SQLite column value back to the JSON value Appwrite returns. */
export function fromColumn(attribute: AttributeRecord, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  if (attribute.array) return JSON.parse(String(raw)) as unknown[];
  if (attribute.type === "boolean") return raw === 1 || raw === 1n;
  if (attribute.type === "integer") return typeof raw === "bigint" ? Number(raw) : raw;
  return raw;
}
