import { describe, expect, it } from "vitest";
import { frontMatterDate, serializeContentFile } from "../../lib/content/write.ts";
import { formatHtml } from "../../lib/html/format.ts";
import { checkHtmlRules, countSentences } from "../../lib/html/rules.ts";
import { htmlToText } from "../../lib/html/text.ts";

const GOOD_CASE_STUDY =
  "<h2>The Problem</h2><p>One. Two.</p><h2>Our Solution</h2><ul><li>a</li></ul><blockquote>q</blockquote><h2>The Market Opportunity</h2><p>Big.</p>";

describe("content rules (spec §5)", () => {
  it("accepts a case study that follows every rule", () => {
    expect(checkHtmlRules(GOOD_CASE_STUDY, { caseStudy: true })).toEqual([]);
  });

  it("names each broken rule with what to change", () => {
    const html = `<h1>Title</h1><p>${"A sentence. ".repeat(6)}</p><h2>The Problem</h2>`;
    const rules = checkHtmlRules(html, { caseStudy: true }).map((v) => v.rule);
    expect(rules).toEqual(["headings", "paragraph-length", "unordered-list", "blockquote", "case-study-sections"]);
    expect(checkHtmlRules(html, { caseStudy: true }).at(-1)?.message).toBe(
      "add the h2 section(s): Our Solution, The Market Opportunity",
    );
  });

  it("counts sentences in English and Arabic, ignoring abbreviation-free runs of punctuation", () => {
    expect(countSentences("One. Two! Three? Four")).toBe(4);
    expect(countSentences("ما هذا؟ هذا نص. ")).toBe(2);
    expect(countSentences("   ")).toBe(0);
  });
});

describe("htmlToText", () => {
  it("renders headings, lists and quotes as readable lines", () => {
    expect(
      htmlToText(
        "<h2>Why</h2><p>Because  it\nworks.</p><ul><li>a</li><li>b</li></ul><ol><li>x</li></ol><blockquote>q</blockquote>",
      ),
    ).toBe("WHY\n\nBecause it works.\n\n• a\n• b\n\n1. x\n\n│ q");
  });
});

describe("writing content files", () => {
  it("orders front matter, writes dates as the day at UTC midnight, and drops empty values", () => {
    const text = serializeContentFile(
      "post",
      {
        featuredImage: undefined,
        excerpt: "E: with colon",
        title: "T",
        publishedDate: new Date("2026-03-14T00:00:00Z"),
        authorName: "A",
      },
      "<p>x</p>",
    );
    expect(text).toBe(
      '---\ntitle: T\nexcerpt: "E: with colon"\nauthorName: A\npublishedDate: 2026-03-14\n---\n\n<p>x</p>\n',
    );
    expect(frontMatterDate("2026-05-02T08:30:00.000+00:00")).toBe("2026-05-02T08:30:00.000Z");
  });

  it("formats HTML with two spaces per nesting level, a block inside a container on its own line", async () => {
    // Issue #17 item 7: `<blockquote><p>…</p></blockquote>` (and a paragraph in a list item) stayed on one line.
    expect(await formatHtml("<ul><li><p>a</p></li></ul>")).toBe("<ul>\n  <li>\n    <p>a</p>\n  </li>\n</ul>");
    expect(await formatHtml("<blockquote><p>Quote.</p></blockquote>")).toBe(
      "<blockquote>\n  <p>Quote.</p>\n</blockquote>",
    );
    // Inline content stays inline, and formatting twice changes nothing.
    const once = await formatHtml("<blockquote>Plain <em>quote</em></blockquote><p>a <strong>b</strong></p>");
    expect(once).toBe("<blockquote>Plain <em>quote</em></blockquote>\n<p>a <strong>b</strong></p>");
    expect(await formatHtml(once)).toBe(once);
  });
});
