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

  // SECURITY C58: links that leave the site without saying so (protocol-relative, or backslashes browsers read
  // as slashes) and script or data schemes are dropped; the link's text stays.
  it.each([
    "//evil.example",
    "//evil.example/path?x=1",
    "/\\evil.example",
    "\\\\evil.example",
    "\\/evil.example",
    "/%5Cevil.example",
    "/%5cevil.example",
    " //evil.example",
    "/\t/evil.example",
    "&#x2f;&#x2f;evil.example",
    "/&#92;evil.example",
    "javascript://%0aalert(1)",
    "JAVASCRIPT://%0Aalert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
  ])("removes the link %s", (href) => {
    const clean = sanitizeHtml(`<p><a href="${href}">text</a><img src="${href}" alt="i"></p>`);
    expect(clean).toBe('<p><a>text</a><img alt="i"></p>');
  });

  it.each([
    "https://example.com/a",
    "http://example.com",
    "mailto:team@example.com",
    "/en/ventures",
    "#top",
    "../x.png",
    "page.html",
    "?q=1",
    "/a//b",
  ])("keeps the link %s", (href) => {
    expect(sanitizeHtml(`<p><a href="${href}">text</a></p>`)).toBe(`<p><a href="${href}">text</a></p>`);
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
