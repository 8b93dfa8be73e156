/**
 * Stored HTML is untrusted (ARCHITECTURE decision 5): bodies are sanitized before they are stored and again
 * before they are rendered. DOMPurify on jsdom with an explicit allowlist (SECURITY C16, C17); the output is
 * never modified afterwards. `sanitizeHtml` is the raw, synchronous sanitizer with no bounds: product code
 * calls `body.ts` (bounds first, SECURITY C53) instead.
 */
import createDOMPurify from "dompurify";
import { JSDOM } from "jsdom";

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

let purifier: ReturnType<typeof createDOMPurify> | undefined;

function getPurifier(): ReturnType<typeof createDOMPurify> {
  purifier ??= createDOMPurify(new JSDOM("").window as unknown as Window & typeof globalThis);
  return purifier;
}

/**
 * Returns `html` with everything outside the allowlist removed: script, event handlers, `javascript:`
 * and other non-http(s)/mailto URLs, frames, forms, `<base>`, `<meta>`, styles. Text content is kept.
 * Pure function of its input; never throws on malformed HTML.
 */
export function sanitizeHtml(html: string): string {
  return getPurifier().sanitize(html, purifyConfig());
}

/**
 * DOMPurify's options for stored HTML (plain data, structured-cloneable: the sanitizer thread of
 * `sanitize-thread.ts` receives them as they are).
 */
export function purifyConfig() {
  return {
    ALLOWED_TAGS: [...ALLOWED_TAGS],
    ALLOWED_ATTR: [...ALLOWED_ATTR],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|(?![/\\]{2})(?![\s\S]*(?:\\|%5c))(?:\/|#|\.{0,2}\/?[^:/?#]*(?:[/?#]|$)))/i,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    RETURN_TRUSTED_TYPE: false as const,
  };
}
