/**
 * The one rule for URLs the product stores and links to (SECURITY C58, ASVS v5 1.2.2): only absolute
 * `http:` and `https:` URLs. A module of its own, without zod, so the site's pages (and the browser) can check
 * a stored URL before making it an `href` without loading the schemas; `model/content.ts` builds the zod
 * rule `httpUrl` on it.
 */

/** What a refused URL is told, after the field's name (`studio`: "<file>: websiteURL: must be…"). */
export const HTTP_URL_MESSAGE = "must be an http:// or https:// URL such as https://example.com";

/** Whitespace, C0/C1 control characters and backslashes: never part of a URL the product accepts. */
function hasForbiddenCharacter(value: string): boolean {
  if (/[\s\\]/u.test(value)) return true;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0x200b && code <= 0x200f)) return true;
  }
  return false;
}

/**
 * Whether `value` is an absolute `http:` or `https:` URL with a host, as the WHATWG URL Standard parses it
 * (`new URL`), written out as `http://` or `https://` (any case) with no whitespace, control character or
 * backslash anywhere. So `javascript://%0aalert(1)`, `JAVASCRIPT://…`, `data:…`, `vbscript:…`, relative and
 * protocol-relative (`//host`) URLs and `https:host` are all refused. Never throws.
 */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string" || !/^https?:\/\//i.test(value) || hasForbiddenCharacter(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * What an editor types in a URL field, completed the way browsers complete an address bar (issue #17 item 7):
 * trimmed, and `https://` put in front when it names no scheme (`example.com/path` → `https://example.com/path`).
 * A value with a scheme or a colon before its first `/` (`http://…`, `javascript:…`, `host:8080`) is returned
 * trimmed and as it is, for `isHttpUrl` to judge. Never throws.
 */
export function withDefaultScheme(value: string): string {
  const trimmed = value.trim();
  if (trimmed === "" || trimmed.startsWith("//") || /^[^/]*:/.test(trimmed)) return trimmed;
  return `https://${trimmed}`;
}

/**
 * `value` when it may become a link's `href` (`isHttpUrl`), else null: what the site does with a stored URL
 * before rendering it, so a document written around the admin and `studio` (straight through the Appwrite
 * API, whose own URL rule accepts any scheme) never becomes a `javascript:` link.
 */
export function safeHttpUrl(value: unknown): string | null {
  return isHttpUrl(value) ? value : null;
}
