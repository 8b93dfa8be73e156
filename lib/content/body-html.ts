/**
 * A content item's body as the site stores it: Markdown rendered, HTML sanitized (ARCHITECTURE decision 5).
 * Content-level, so the readers of files (preview, translation hashes) and the writer share it.
 */
import { normalizeBody } from "../html/body.ts";
import { markdownToHtml } from "../html/markdown.ts";
import type { ContentItem } from "./item.ts";

/**
 * The body of `item` as sanitized HTML: Markdown is rendered, HTML is sanitized.
 * @throws {HtmlBoundsError} when it breaks a bound of `HTML_BOUNDS` (`readItem` reports that as invalid first).
 */
export function bodyHtml(item: ContentItem): string {
  return item.format === "markdown" ? markdownToHtml(item.body) : normalizeBody(item.body);
}
