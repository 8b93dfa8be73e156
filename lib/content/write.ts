/**
 * Writing content files: YAML front matter in a fixed key order, then the body (issue #7 `format`, `pull`).
 * YAML is written with the `yaml` package (YAML 1.2), read back with gray-matter.
 */
import { stringify } from "yaml";
import { CONTENT_MODEL, fieldsOf, type ContentKind } from "../../model/model.ts";

/**
 * Front-matter keys in the order files are written: the kind's fields in the order of its description (the
 * image under its front-matter name; not the body, the owner nor the version fields), then `draft`,
 * `generated` and `translation`; other keys
 * follow in their own order.
 */
function keyOrder(kind: ContentKind): string[] {
  const keys = fieldsOf(CONTENT_MODEL[kind])
    .filter(([, f]) => f.type !== "html" && f.type !== "owner" && !f.version)
    .map(([name, f]) => f.input ?? name);
  return [...keys, "draft", "generated", "translation"];
}

/** Front-matter keys holding dates, of every kind. */
const DATE_KEYS = new Set(
  Object.values(CONTENT_MODEL).flatMap((spec) =>
    fieldsOf(spec)
      .filter(([, f]) => f.type === "date")
      .map(([name]) => name),
  ),
);

/** A date as front matter shows it: `2026-03-14` at UTC midnight, else the full ISO instant. */
export function frontMatterDate(value: Date | string): string {
  const date = new Date(value);
  const iso = date.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
}

/** The `translation:` map's keys in the order of `translationSchema`, then any others. */
function translationOrder(value: object): Record<string, unknown> {
  const record = value as Record<string, unknown>;
  const keys = ["sourceLocale", "sourceHash", "model", "translatedAt", "reviewed"];
  return Object.fromEntries(
    [...keys.filter((k) => k in record), ...Object.keys(record).filter((k) => !keys.includes(k))].map((k) => [
      k,
      record[k],
    ]),
  );
}

function withIsoDates(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]));
}

/**
 * The front matter block of a content file: `---`, the front matter (keys ordered, dates normalized, undefined
 * values dropped), `---` and a newline. `studio pull` writes it alone before a body it keeps byte for byte.
 */
export function serializeFrontMatter(kind: ContentKind, frontMatter: Record<string, unknown>): string {
  const ordered: Record<string, unknown> = {};
  const order = keyOrder(kind);
  const keys = [...order, ...Object.keys(frontMatter).filter((k) => !order.includes(k))];
  for (const key of keys) {
    const value = frontMatter[key];
    if (value === undefined || value === null) continue;
    if (DATE_KEYS.has(key) && (value instanceof Date || typeof value === "string"))
      ordered[key] = frontMatterDate(value);
    else if (key === "translation" && typeof value === "object") ordered[key] = withIsoDates(translationOrder(value));
    else if (key === "generated" && typeof value === "object")
      ordered[key] = withIsoDates(value as Record<string, unknown>);
    else ordered[key] = value;
  }
  return `---\n${stringify(ordered, { lineWidth: 0 })}---\n`;
}

/**
 * Serializes a content file: the front matter block (`serializeFrontMatter`), a blank line, the body and a
 * final newline.
 */
export function serializeContentFile(kind: ContentKind, frontMatter: Record<string, unknown>, body: string): string {
  return `${serializeFrontMatter(kind, frontMatter)}\n${body.trim()}\n`;
}
