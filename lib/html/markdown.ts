/**
 * Markdown bodies of content files become HTML with `marked` (GitHub-flavoured), then go through the same
 * sanitizer as any stored HTML.
 */
import { Marked } from "marked";
import { normalizeBody } from "./body.ts";
import { checkHtmlBounds, HTML_BOUNDS, type HtmlBoundViolation } from "./bounds.ts";

const marked = new Marked({ gfm: true, breaks: false, async: false });

/**
 * Renders Markdown to sanitized HTML. Raw HTML inside the Markdown is sanitized too.
 * @throws {HtmlBoundsError} when the HTML it renders to breaks a bound of `HTML_BOUNDS` (SECURITY C53).
 */
export function markdownToHtml(markdown: string): string {
  return normalizeBody(renderMarkdown(markdown));
}

/**
 * Markdown rendered to HTML, not sanitized: what `markdownToHtml` gives `normalizeBody`, and what
 * `bodyBoundViolation` measures. Only for code that sanitizes it next, or only measures it (the push
 * benchmark's raw loop sanitizes inside its clock).
 * @throws {RangeError} when the Markdown nests too deeply for `marked`.
 */
export function renderMarkdown(markdown: string): string {
  return marked.parse(markdown, { async: false });
}

/**
 * The bound of `HTML_BOUNDS` a content file's body breaks, or null: an HTML body as written, a Markdown body
 * as the HTML it renders to (`studio` validation, SECURITY C53). Markdown nested too deeply for `marked`
 * itself counts as too deep.
 */
export function bodyBoundViolation(body: string, format: "markdown" | "html"): HtmlBoundViolation | null {
  if (format === "html") return checkHtmlBounds(body);
  if (body.length > HTML_BOUNDS.chars) return { kind: "chars", max: HTML_BOUNDS.chars };
  try {
    return checkHtmlBounds(renderMarkdown(body));
  } catch (error) {
    if (error instanceof RangeError) return { kind: "depth", max: HTML_BOUNDS.depth };
    throw error;
  }
}
