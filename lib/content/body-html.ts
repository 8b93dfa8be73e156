/**
 * A content item's body as the site stores it: Markdown rendered, HTML sanitized (ARCHITECTURE decision 5).
 * Content-level, so the readers of files (preview, translation hashes) and the writer share it.
 */
import { normalizeBody } from "../html/body.ts";
import { markdownToHtml, renderMarkdown } from "../html/markdown.ts";
import type { ContentItem } from "./item.ts";

/**
 * The body of `item` as sanitized HTML: Markdown is rendered, HTML is sanitized.
 * @throws {HtmlBoundsError} when it breaks a bound of `HTML_BOUNDS` (`readItem` reports that as invalid first).
 */
export function bodyHtml(item: ContentItem): string {
  return item.format === "markdown" ? markdownToHtml(item.body) : normalizeBody(item.body);
}

/**
 * The body of `item` as HTML before sanitizing: Markdown rendered, HTML as written. Only for code that sanitizes
 * it next with the same rules (`studio push`'s sanitizer thread: `push-bulk.ts`); `bodyHtml` is the one to store.
 * @throws {RangeError} when the Markdown nests too deeply for `marked`.
 */
export function unsanitizedBodyHtml(item: ContentItem): string {
  return item.format === "markdown" ? renderMarkdown(item.body) : item.body;
}
