import { describe, expect, it } from "vitest";
import { markdownToHtml } from "../../lib/html/markdown.ts";
import { sanitizeHtml } from "../../lib/html/sanitize.ts";

// SECURITY.md C16: payloads saved as a body must come out with none of the dangerous constructs.
const PAYLOADS = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt&colon;alert(1)">x</a>',
  "<svg><g/onload=alert(2)//<p>",
  '<iframe srcdoc="&lt;script&gt;alert(3)&lt;/script&gt;"></iframe>',
  '<math><mi//xlink:href="data:x,<script>alert(4)</script>">',
  "<form action=//evil><input></form>",
  "<base href=//evil>",
  '<meta http-equiv=refresh content="0;url=//evil">',
  '<p style="background:url(javascript:alert(5))">x</p>',
];
const FORBIDDEN = [
  /<script/i,
  /\son[a-z]+=/i,
  /javascript:/i,
  /data:text\/html/i,
  /<iframe/i,
  /<object/i,
  /<embed/i,
  /<base/i,
  /<meta/i,
  /<form/i,
  /srcdoc/i,
  /style=/i,
];

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
