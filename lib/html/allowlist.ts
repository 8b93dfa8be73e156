/**
 * The allowlist of stored bodies (SECURITY C16, C17): the tags, attributes and URLs the sanitizer keeps. One
 * definition shared by the sanitizer (`sanitize.ts`, DOMPurify's options) and the admin's visual editor (its
 * link dialog refuses the URLs the sanitizer would drop, its HTML keeps only these attributes; issue #30
 * item 1). No DOM, no Node API: the browser imports it.
 */

/** Tags a venture case study or a post body may contain. No scripts, frames, forms, styles or embeds. */
export const ALLOWED_TAGS = [
  "h1",
  "h2",
  "h3",
  "h4",
  "p",
  "br",
  "hr",
  "ul",
  "ol",
  "li",
  "blockquote",
  "strong",
  "em",
  "b",
  "i",
  "u",
  "s",
  "code",
  "pre",
  "a",
  "img",
  "figure",
  "figcaption",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "sub",
  "sup",
] as const;

/** Attributes allowed on those tags (no `style`, no event handlers, no `srcdoc`, no `target`). */
export const ALLOWED_ATTR = [
  "href",
  "title",
  "alt",
  "src",
  "width",
  "height",
  "colspan",
  "rowspan",
  "lang",
  "dir",
  "start",
] as const;

/**
 * Allowed: `https:`, `http:`, `mailto:`, and relative URLs (`/path`, `#anchor`, `page`, `../page`) that are not
 * protocol-relative (`//host`) and hold no backslash (`\`, `%5c`, which some browsers read as `/`).
 */
export const ALLOWED_URI_REGEXP =
  /^(?:https?:|mailto:|(?![/\\]{2})(?![\s\S]*(?:\\|%5c))(?:\/|#|\.{0,2}\/?[^:/?#]*(?:[/?#]|$)))/i;

/**
 * Whether the sanitizer keeps `url` as a link or image address. DOMPurify removes ASCII whitespace and
 * control characters before it tests an attribute value, so this does too; an empty value is refused.
 * @param url what an author typed, e.g. `https://example.com`, `/en/blog`, `mailto:a@b.c`
 * @returns true when `url` passes {@link ALLOWED_URI_REGEXP}
 */
export function isAllowedUrl(url: string): boolean {
  // eslint-disable-next-line no-control-regex -- DOMPurify's ATTR_WHITESPACE: control characters and spaces.
  const value = url.replace(/[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]/g, "");
  return value.length > 0 && ALLOWED_URI_REGEXP.test(value);
}
