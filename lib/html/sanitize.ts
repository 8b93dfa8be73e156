/**
 * Stored HTML is untrusted (ARCHITECTURE decision 5): bodies are sanitized before they are stored and again
 * before they are rendered. DOMPurify on jsdom with an explicit allowlist (SECURITY C16, C17); the output is
 * never modified afterwards. `sanitizeHtml` is the raw, synchronous sanitizer with no bounds: product code
 * calls `body.ts` (bounds first, SECURITY C53) instead.
 */
import createDOMPurify from "dompurify";
import { JSDOM } from "jsdom";
import { ALLOWED_ATTR, ALLOWED_TAGS, ALLOWED_URI_REGEXP } from "./allowlist.ts";

export { ALLOWED_ATTR, ALLOWED_TAGS };

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
    ALLOWED_URI_REGEXP,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    RETURN_TRUSTED_TYPE: false as const,
  };
}

/** Cheap test for what `removedParts` reports, so clean bodies are not sanitized twice. */
const SUSPECT =
  /<\s*(script|style|iframe|frame|object|embed|form|input|button|textarea|select|base|meta|link|svg|math|template)\b|\s(on[a-z]+|style|srcdoc)\s*=|(javascript|vbscript|data)\s*:/i;

/** Elements removed silently: wrappers whose text is kept (README: such as `div`, `span`). */
const QUIET_ELEMENTS = new Set(["div", "span", "section", "article", "header", "footer", "main", "nav", "aside"]);

/**
 * What the sanitizer removes from `html` that the author may not expect: elements that never run or show
 * (`<script>`, `<iframe>`, forms…), event handler and `style` attributes, and unsafe URLs; wrappers such as
 * `div` and `span` (text kept) and comments are not listed. Each entry is a short phrase, deduplicated:
 * `<script>`, `the onclick attribute`, `the href="javascript:…" link`.
 */
export function removedParts(html: string): string[] {
  if (!SUSPECT.test(html)) return [];
  const purify = getPurifier();
  purify.sanitize(html, purifyConfig());
  const parts = new Set<string>();
  for (const removed of purify.removed as { element?: Node; attribute?: Attr | null }[]) {
    if (removed.attribute) {
      const name = removed.attribute.name.toLowerCase();
      if (/^on/.test(name) || name === "style" || name === "srcdoc") parts.add(`the ${name} attribute`);
      else if ((name === "href" || name === "src") && /^\s*[a-z][a-z0-9+.-]*:/i.test(removed.attribute.value)) {
        parts.add(`the ${name}="${removed.attribute.value.split(":")[0]!.trim()}:…" link`);
      }
    } else if (removed.element && removed.element.nodeType === 1) {
      const tag = removed.element.nodeName.toLowerCase();
      if (!QUIET_ELEMENTS.has(tag) && tag !== "body") parts.add(`<${tag}>`);
    }
  }
  return [...parts];
}
