/**
 * Issue #30 item 5: `studio pull`'s HTML → Markdown (turndown set up for the site's tags) keeps Markdown only
 * when it converts back to the same HTML, and otherwise says what Markdown cannot express; issue #30 item 4:
 * the `<img>` sources of a body are found and replaced without touching anything else.
 */
import { describe, expect, it } from "vitest";
import {
  imageSourceKind,
  imageSources,
  referencedImageIds,
  replaceImageSources,
} from "../../lib/content/body-images.ts";
import { markdownToHtml } from "../../lib/html/markdown.ts";
import { canonicalBodyHtml, markdownFor, sameBodyHtml } from "../../lib/html/to-markdown.ts";

/** What the admin's editor writes: lists of paragraphs, no whitespace between blocks. */
const EDITOR_HTML =
  '<h2>Before you hire</h2><p>A <strong>short</strong> <em>text</em> with a <a href="https://x.example">link</a>, ' +
  "5 * 3 &lt;div&gt; &amp; snake_case_name.</p><ul><li><p>one</p></li><li><p>two</p></li></ul>" +
  '<blockquote><p>A quote.</p></blockquote><ol start="3"><li><p>three</p></li></ol>' +
  '<pre><code>const x = 1;\n  y();</code></pre><hr><h3>Pictures</h3><p><img src="../images/a.png" alt="An alt"></p>' +
  "<p># not a heading</p><p>1. not a list</p>";

describe("markdownFor", () => {
  it("writes atx headings, - bullets, fenced code, and Markdown that converts back to the same HTML", () => {
    const result = markdownFor(EDITOR_HTML);
    expect(result).toHaveProperty("markdown");
    const markdown = (result as { markdown: string }).markdown;
    expect(markdown).toContain("## Before you hire\n");
    expect(markdown).toContain("- one\n- two");
    expect(markdown).toContain("```\nconst x = 1;\n  y();\n```");
    expect(markdown).toContain("![An alt](../images/a.png)");
    expect(sameBodyHtml(markdownToHtml(markdown), EDITOR_HTML)).toBe(true);
    // Text that looks like markup stays text.
    expect(markdownToHtml(markdown)).toContain("<p># not a heading</p>");
    expect(markdownToHtml(markdown)).toContain("&lt;div&gt; &amp; snake_case_name.");
  });

  it("says what Markdown cannot express instead of losing it", () => {
    expect(markdownFor("<table><tbody><tr><td>a</td></tr></tbody></table>")).toEqual({
      reason: "the body has a table Markdown can't express",
    });
    expect(markdownFor("<p>x<u>y</u></p>")).toEqual({
      reason: "the body has underlined text (<u>) Markdown can't express",
    });
    expect(markdownFor('<h2 dir="rtl">x</h2>')).toEqual({
      reason: "the body has a dir attribute on <h2> Markdown can't express",
    });
  });

  it("keeps an image with a size, or outside a paragraph, as a tag", () => {
    const html = '<p><img src="/media/a" alt="x" width="10" height="5"></p><img src="/media/b" alt="y">';
    const markdown = (markdownFor(html) as { markdown: string }).markdown;
    expect(markdown).toContain('<p><img src="/media/a" alt="x" width="10" height="5"></p>');
    expect(sameBodyHtml(markdownToHtml(markdown), html)).toBe(true);
  });
});

describe("canonicalBodyHtml", () => {
  it("ignores whitespace between blocks and a list item's lone paragraph, not a changed word", () => {
    expect(canonicalBodyHtml("<ul>\n<li>one</li>\n</ul>\n")).toBe(canonicalBodyHtml("<ul><li><p>one</p></li></ul>"));
    expect(sameBodyHtml("<p>one <b>two</b></p>", "<p>one <strong>two</strong></p>")).toBe(true);
    expect(sameBodyHtml("<p>one two</p>", "<p>one  three</p>")).toBe(false);
    expect(sameBodyHtml("<p><strong>a</strong> <em>b</em></p>", "<p><strong>a</strong><em>b</em></p>")).toBe(false);
  });
});

describe("body image sources", () => {
  it("finds the sources, tells local files from URLs, and replaces only the src", () => {
    const html =
      '<p><img src="../images/my%20pic.jpg" alt="a &quot;b&quot;"> <img src="https://x.example/y.png" alt=""></p>';
    expect(imageSources(html)).toEqual(["../images/my%20pic.jpg", "https://x.example/y.png"]);
    expect(imageSourceKind("../images/my%20pic.jpg")).toEqual({ kind: "local", path: "../images/my pic.jpg" });
    expect(imageSourceKind("http://x.example/y.png")).toEqual({ kind: "insecure" });
    expect(imageSourceKind("/media/img-1")).toEqual({ kind: "site" });
    expect(replaceImageSources(html, (src) => (src.startsWith("..") ? "/media/img-1" : undefined))).toBe(
      '<p><img src="/media/img-1" alt="a &quot;b&quot;"> <img src="https://x.example/y.png" alt=""></p>',
    );
    expect([
      ...referencedImageIds(
        '<img src="/media/img-1"><img src="https://a/v1/storage/buckets/images/files/f2/view?project=p">',
      ),
    ]).toEqual(["img-1", "f2"]);
  });
});
