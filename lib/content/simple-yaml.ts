/**
 * A fast path for the front matter nearly every content file has (issue #33 item 6: a push of 200,000 files
 * parsed each with the `yaml` package, ~100 µs a block): lines of `key: value` where every value is either a
 * date (`2026-02-01`) or a plain scalar that YAML 1.2's core schema can only read as that very string. Anything
 * else (quotes, comments, lists, numbers, booleans, `:` or `#` in a value, a repeated key, a blank value, CR
 * line ends) returns null, and `parseYamlBlock` parses the block with `yaml` as before: the fast path never
 * decides what a block means when it is not certain, and its result is the one `yaml` gives (checked in
 * tests/unit/simple-yaml.test.ts against `yaml` itself).
 */

/** A key: a letter, then letters, digits or underscores. */
const KEY = /^[A-Za-z][A-Za-z0-9_]*$/;
/**
 * A value read as its own text: a letter first (no indicator, sign, digit or quote), then letters, marks,
 * digits, spaces and common punctuation, never `:`, `#`, quotes, brackets or other indicators; no space last.
 */
const PLAIN = /^\p{L}[\p{L}\p{M}\p{N} .,'’()!?؟،–—…\-/&+]*(?<! )$/u;
/** Words the core schema reads as null or a boolean, not as text. */
const NOT_TEXT = new Set(["null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE"]);
/** A date alone, which the timestamp tag reads as midnight UTC of that day. */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The fields of `source` (a front-matter block without its fences) when it is made only of simple
 * `key: value` lines, else null (the caller parses it in full).
 * @returns a record of strings and `Date`s (dates alone, as YAML's timestamp tag gives them: UTC midnight).
 */
export function parseSimpleYaml(source: string): Record<string, unknown> | null {
  if (source.includes("\r")) return null;
  const data: Record<string, unknown> = {};
  for (const line of source.split("\n")) {
    if (line === "") continue;
    const colon = line.indexOf(": ");
    if (colon < 1) return null;
    const key = line.slice(0, colon);
    const value = line.slice(colon + 2);
    if (!KEY.test(key) || NOT_TEXT.has(key) || Object.hasOwn(data, key)) return null;
    const date = DATE.exec(value);
    if (date) {
      const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
      if (month < 1 || month > 12 || day < 1 || day > 31) return null;
      data[key] = new Date(Date.UTC(year, month - 1, day));
    } else if (PLAIN.test(value) && !NOT_TEXT.has(value)) data[key] = value;
    else return null;
  }
  return data;
}
