// @vitest-environment jsdom
/**
 * Issue #30 items 1 and 2: the visual editor writes the HTML the site stores. A sanitized body opened in the
 * editor (a real Tiptap editor on jsdom) and written back is the same HTML, for every construct it keeps;
 * what it cannot keep is named before it is opened; a Word fragment pasted is cleaned to the allowed tags.
 */
import { Editor } from "@tiptap/core";
import { afterEach, describe, expect, it } from "vitest";
import { sanitizeHtml } from "../../lib/html/sanitize.ts";
import { editorExtensions } from "../../web/components/admin/visual-editor/extensions.ts";
import { finishHtml, lostParts, roundTrip } from "../../web/components/admin/visual-editor/html.ts";
import { cleanPastedHtml } from "../../web/components/admin/visual-editor/paste.ts";

const editors: Editor[] = [];
afterEach(() => editors.splice(0).forEach((editor) => editor.destroy()));

/** A Tiptap editor on `html`, as the admin's visual editor opens a body. */
function open(html: string): Editor {
  const editor = new Editor({
    element: document.createElement("div"),
    extensions: editorExtensions(),
    content: html,
    editorProps: { transformPastedHTML: cleanPastedHtml },
  });
  editors.push(editor);
  return editor;
}

/** Pastes `html` as a browser does (jsdom has no ClipboardEvent: ProseMirror reads only its `clipboardData`). */
function paste(editor: Editor, html: string): void {
  editor.view.pasteHTML(html, new Event("paste") as ClipboardEvent);
}

const saved = (editor: Editor, base: "ltr" | "rtl" = "ltr") => finishHtml(editor.getHTML(), base);

describe("the visual editor's HTML round trip", () => {
  it.each([
    [
      "headings and paragraphs",
      "<h2>The Problem</h2><p>Books lag.</p><h3>Why</h3><p>Late, <strong>very</strong> <em>late</em>.</p>",
    ],
    [
      "a link with a title",
      '<p>See <a href="https://example.com/a?b=1" title="Example">the site</a> or <a href="/en/blog">the blog</a>.</p>',
    ],
    ["a mailto link and an anchor", '<p><a href="mailto:hello@example.com">Write</a> or <a href="#top">go up</a>.</p>'],
    ["tight lists with a nested list", "<ul><li>Late books<ul><li>Missed claims</li></ul></li><li>Two</li></ul>"],
    ["loose list items", "<ul><li><p>Late books</p><ul><li>Missed claims</li></ul></li></ul>"],
    ["a numbered list from 3", '<ol start="3"><li>Three</li><li>Four</li></ol>'],
    ["a blockquote of paragraphs", "<blockquote><p>Quoted.</p><p>Twice.</p></blockquote>"],
    ["a bare blockquote", "<blockquote>Just said.</blockquote>"],
    [
      "inline code and a code block",
      "<p>Run <code>npm start</code>.</p><pre><code>const a = 1;\nconst b = 2;</code></pre>",
    ],
    ["a line break and a rule", "<p>One<br>Two</p><hr><p>Three</p>"],
    ["an image with alt, width and height", '<p><img src="/media/abc123" alt="A ledger" width="640" height="480"></p>'],
    [
      "a table with a header row",
      '<table><thead><tr><th>Plan</th><th>Price</th></tr></thead><tbody><tr><td>Basic</td><td>$10</td></tr><tr><td colspan="2">Call us</td></tr></tbody></table>',
    ],
  ])("gives back %s as it came", (_what, html) => {
    // Given a body as the site stores it
    expect(sanitizeHtml(html)).toBe(html);
    // When it is opened in the editor and written back, then it is the same HTML, and nothing is reported lost
    expect(saved(open(html))).toBe(html);
    expect(lostParts(html, "ltr")).toEqual([]);
  });

  it("keeps an Arabic body's blocks right-to-left and marks an English quote in it left-to-right", () => {
    // Given an Arabic body, written in the visual editor: Arabic paragraphs and an English quote
    const editor = open("<h2>المشكلة</h2><p>تتأخر الدفاتر.</p><blockquote><p>Books lag behind.</p></blockquote>");
    // When it is saved, then the English quote says its own direction and the Arabic blocks follow the page's
    const html = saved(editor, "rtl");
    expect(html).toBe(
      '<h2>المشكلة</h2><p>تتأخر الدفاتر.</p><blockquote dir="auto"><p>Books lag behind.</p></blockquote>',
    );
    // And that HTML is kept by the sanitizer and comes back the same from the editor
    expect(sanitizeHtml(html)).toBe(html);
    expect(saved(open(html), "rtl")).toBe(html);
    // And an Arabic paragraph in an English body is marked, the English ones are not
    expect(roundTrip("<p>Hello.</p><p>مرحبا.</p>", "ltr")).toBe('<p>Hello.</p><p dir="auto">مرحبا.</p>');
  });

  it("names what it cannot keep before a body is opened, and keeps the rest", () => {
    const html =
      '<h1>Title</h1><h4>Small</h4><p><u>Under</u> and <s>struck</s> H<sub>2</sub>O</p><figure><img src="/a.png" alt="A"><figcaption>Cap</figcaption></figure>';
    expect(lostParts(html, "ltr")).toEqual(["<h1>", "<h4>", "<u>", "<s>", "<sub>", "<figure>", "<figcaption>"]);
    // b and i are the editor's strong and em: nothing lost
    expect(lostParts("<p><b>Bold</b> <i>it</i></p>", "ltr")).toEqual([]);
    // Prettier's indentation is not content
    expect(lostParts("<ul>\n  <li>\n    <p>One</p>\n  </li>\n</ul>\n", "ltr")).toEqual([]);
  });

  it("writes typed lists as tight lists and new quotes with paragraphs", () => {
    const editor = open("");
    editor.chain().toggleBulletList().insertContent("First").splitListItem("listItem").insertContent("Second").run();
    expect(saved(editor)).toBe("<ul><li>First</li><li>Second</li></ul>");
    editor.commands.setContent("<p>Quoted</p>");
    editor.chain().selectAll().toggleBlockquote().run();
    expect(saved(editor)).toBe("<blockquote><p>Quoted</p></blockquote>");
  });

  it("writes nothing for an empty document", () => {
    expect(saved(open(""))).toBe("");
  });
});

describe("pasting into the visual editor", () => {
  it("cleans a Word fragment to the allowed tags: lists, bold and italic kept, styles, fonts and classes gone", () => {
    // Given a fragment as Word puts it on the clipboard
    const word = [
      '<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta charset="utf-8"><style>p.MsoNormal{margin:0}</style>',
      "<!--[if gte mso 9]><xml><o:OfficeDocumentSettings></o:OfficeDocumentSettings></xml><![endif]--></head><body>",
      '<h1 class="MsoTitle">Quarterly <span style="mso-bidi-font-size:12pt">report</span></h1>',
      '<p class="MsoNormal" style="margin-bottom:0cm;line-height:normal" lang="EN-US"><b style="mso-bidi-font-weight:normal">',
      '<span style="font-size:14.0pt;font-family:Calibri">Revenue</span></b> grew <i><font color="red">fast</font></i>.<o:p></o:p></p>',
      '<p class="MsoNormal"><o:p>&nbsp;</o:p></p>',
      '<p class="MsoListParagraphCxSpFirst" style="text-indent:-18.0pt;mso-list:l0 level1 lfo1"><![if !supportLists]>',
      '<span style="font-family:Symbol">·<span style="font:7.0pt Times New Roman">&nbsp;&nbsp; </span></span><![endif]>Clinics<o:p></o:p></p>',
      '<p class="MsoListParagraphCxSpLast" style="text-indent:-18.0pt;mso-list:l0 level1 lfo1"><![if !supportLists]>',
      '<span style="font-family:Symbol">·<span>&nbsp;&nbsp; </span></span><![endif]>Harbours<o:p></o:p></p>',
      '<p class="MsoListParagraphCxSpFirst" style="mso-list:l1 level1 lfo2"><![if !supportLists]><span>1.<span>&nbsp; </span></span><![endif]>First<o:p></o:p></p>',
      '<p class="MsoNormal" style="mso-margin-top-alt:auto"><a href="https://example.com" target="_blank" style="color:blue">Source</a>',
      ' and <a href="javascript:alert(1)">bad</a><o:p></o:p></p>',
      "</body></html>",
    ].join("");
    const editor = open("");
    // When it is pasted (no inline style reaches a parser: the site's CSP refuses them)
    expect(cleanPastedHtml(word)).not.toMatch(/style=/);
    paste(editor, word);
    // Then only the allowed structure remains
    expect(saved(editor)).toBe(
      "<h2>Quarterly report</h2><p><strong>Revenue</strong> grew <em>fast</em>.</p>" +
        "<ul><li>Clinics</li><li>Harbours</li></ul><ol><li>First</li></ol>" +
        '<p><a href="https://example.com">Source</a> and bad</p>',
    );
  });

  it("reads Google Docs' bold and italic spans and drops its normal-weight wrapper", () => {
    const docs =
      '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1"><p dir="ltr" style="line-height:1.38">' +
      '<span style="font-size:11pt;font-weight:700">Bold</span><span style="font-size:11pt"> and </span>' +
      '<span style="font-style:italic">italic</span></p></b>';
    expect(cleanPastedHtml(docs)).not.toMatch(/style=/);
    const editor = open("");
    paste(editor, docs);
    expect(saved(editor)).toBe("<p><strong>Bold</strong> and <em>italic</em></p>");
  });
});
