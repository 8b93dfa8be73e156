import { describe, expect, it } from "vitest";
import { markdownToHtml } from "../../lib/html/markdown.ts";
import { sanitizeHtml } from "../../lib/html/sanitize.ts";
import { XSS_FORBIDDEN, XSS_PAYLOADS } from "../fixtures/xss.ts";

const PAYLOADS = XSS_PAYLOADS;
// Sanitized output also never carries inline styles.
const FORBIDDEN = [...XSS_FORBIDDEN, /style=/i];

describe("sanitizeHtml", () => {
  it.each(PAYLOADS)("removes the active parts of %s", (payload) => {
    const clean = sanitizeHtml(`<p>before</p>${payload}<p>after</p>`);
    for (const pattern of FORBIDDEN) expect(clean).not.toMatch(pattern);
    expect(clean).toContain("<p>before</p>");
  });

  it("keeps the structure a post is written with", () => {
    const html =
      '<h2>Title</h2><p>Text <strong>bold</strong> <a href="https://example.com">link</a></p><ul><li>a</li></ul><blockquote>q</blockquote>';
    expect(sanitizeHtml(html)).toBe(html);
  });
});

describe("markdownToHtml", () => {
  it("renders headings, lists and quotes, and sanitizes raw HTML inside Markdown", () => {
    const html = markdownToHtml("## Heading\n\n- one\n- two\n\n> quoted\n\n<img src=x onerror=alert(1)>");
    expect(html).toContain("<h2>Heading</h2>");
    expect(html).toMatch(/<ul>\s*<li>one<\/li>/);
    expect(html).toContain("<blockquote>");
    expect(html).not.toMatch(/onerror/);
  });
});
