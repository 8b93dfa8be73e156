import qs from "qs";

/**
 * How the emulator parses query strings, PHP-style as Appwrite does (REFERENCE §1): `qs` with these
 * options is the rule; `parseQueryString` only takes a shortcut where its result is provably the same.
 */
const QS_OPTIONS = { arrayLimit: 100, parameterLimit: 1000, depth: 5 } as const;
/** A key the shortcut handles as is: a plain name (`total`), or one element of a list (`queries[3]`). */
const PLAIN_KEY = /^[A-Za-z][A-Za-z0-9_]*$/;
const INDEXED_KEY = /^([A-Za-z][A-Za-z0-9_]*)\[(0|[1-9][0-9]?)\]$/;
/** Longest list the shortcut builds (well under `arrayLimit`, where `qs` turns lists into objects). */
const MAX_SHORTCUT_LIST = 50;
/** Request targets whose path and query `new URL` returns unchanged: no dot segment, nothing it escapes. */
const PLAIN_TARGET = /^\/(?!\/)[A-Za-z0-9_.\-/]*(?:\?[!$%&(-;=?-~]*)?$/;
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|\?|$)/;

/** `qs`'s decoder (utils.decode, UTF-8): `+` is a space, then percent-decoding, or the text as is when malformed. */
function decode(text: string): string {
  const spaced = text.includes("+") ? text.replace(/\+/g, " ") : text;
  if (!spaced.includes("%")) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/**
 * The common shapes (each plain key once, lists as `name[0]`, `name[1]`, … in order) parsed directly;
 * `undefined` for anything else, which `qs` then parses. Mirrors `qs` step by step: encoded brackets
 * first, the `]=`/`=` split point, then decoding of key and value.
 */
function shortcut(search: string): Record<string, unknown> | undefined {
  const clean = search.replace(/%5B/gi, "[").replace(/%5D/gi, "]");
  const parts = clean.split("&");
  if (parts.length > QS_OPTIONS.parameterLimit) return undefined;
  const out: Record<string, unknown> = {};
  for (const part of parts) {
    if (part === "") continue;
    const bracketEquals = part.indexOf("]=");
    const pos = bracketEquals === -1 ? part.indexOf("=") : bracketEquals + 1;
    const key = decode(pos === -1 ? part : part.slice(0, pos));
    const value = pos === -1 ? "" : decode(part.slice(pos + 1));
    const indexed = INDEXED_KEY.exec(key);
    const name = indexed ? (indexed[1] ?? "") : key;
    if (!indexed && !PLAIN_KEY.test(name)) return undefined;
    if (Object.prototype.hasOwnProperty.call(Object.prototype, name)) return undefined;
    const existing = Object.prototype.hasOwnProperty.call(out, name) ? out[name] : undefined;
    if (!indexed) {
      if (existing !== undefined) return undefined;
      out[name] = value;
      continue;
    }
    const list = existing ?? [];
    if (!Array.isArray(list) || Number(indexed[2]) !== list.length || list.length >= MAX_SHORTCUT_LIST)
      return undefined;
    list.push(value);
    out[name] = list;
  }
  return out;
}

/** Most query strings whose shortcut parse is kept (the map is emptied when full). */
const MAX_PARSED = 256;
/** Shortcut parses by query string: a client repeating a list call (the usual load) is parsed once. */
const parsed = new Map<string, Readonly<Record<string, unknown>>>();
const EMPTY: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * Parse a query string (without `?`) PHP-style: `a=1&b[0]=x&b[1]=y` → `{ a: "1", b: ["x", "y"] }`.
 * The result is exactly `qs.parse(search, { arrayLimit: 100, parameterLimit: 1000, depth: 5 })`
 * (REFERENCE §1); the shapes SDKs send are parsed without `qs`'s general machinery, once per query string:
 * those results are frozen and shared between requests (handlers only read `ctx.query`).
 */
export function parseQueryString(search: string): Record<string, unknown> {
  if (search === "") return EMPTY;
  const known = parsed.get(search);
  if (known) return known;
  const simple = shortcut(search);
  if (!simple) return qs.parse(search, QS_OPTIONS) as Record<string, unknown>;
  for (const value of Object.values(simple)) if (Array.isArray(value)) Object.freeze(value);
  if (parsed.size >= MAX_PARSED) parsed.clear();
  parsed.set(search, Object.freeze(simple));
  return simple;
}

/**
 * Split a request target (`req.url`) into the path and the query string (without `?`), exactly as
 * `new URL(target, "http://emulator.invalid")` gives `pathname` and `search.slice(1)`; plain targets
 * (the usual `/v1/…?queries[0]=…`) skip the WHATWG parser.
 */
export function splitTarget(target: string): { pathname: string; search: string } {
  if (PLAIN_TARGET.test(target) && !DOT_SEGMENT.test(target.split("?", 1)[0] ?? "")) {
    const q = target.indexOf("?");
    return q === -1 ? { pathname: target, search: "" } : { pathname: target.slice(0, q), search: target.slice(q + 1) };
  }
  const url = new URL(target, "http://emulator.invalid");
  return { pathname: url.pathname, search: url.search.slice(1) };
}
