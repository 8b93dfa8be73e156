/**
 * Markdown bodies of content files become HTML with `marked` (GitHub-flavoured), then go through the same
 * sanitizer as any stored HTML.
 */
import { Marked } from "marked";
import { sanitizeHtml } from "./sanitize.ts";

const marked = new Marked({ gfm: true, breaks: false, async: false });

/** Renders Markdown to sanitized HTML. Raw HTML inside the Markdown is sanitized too. */
export function markdownToHtml(markdown: string): string {
  const html = marked.parse(markdown, { async: false });
  return sanitizeHtml(html).trim();
}
