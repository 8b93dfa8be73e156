/**
 * SECURITY C53: the bound checker measures bodies without building a DOM (htmlparser2's tokenizer), so a body
 * that would stall DOMPurify on jsdom is refused (write paths) or shown as escaped text (render path). Its
 * speed (refusing before parsing, linear time) is asserted in tests/timing/html-bounds.test.ts.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readItem } from "../../lib/content/read.ts";
import {
  escapedTextHtml,
  normalizeBody,
  normalizeBodyAsync,
  previewBody,
  renderStoredHtml,
} from "../../lib/html/body.ts";
import { checkHtmlBounds, HtmlBoundsError, HTML_BOUNDS, htmlBoundMessage } from "../../lib/html/bounds.ts";
import { bodyBoundViolation } from "../../lib/html/markdown.ts";
import { sanitizeHtml } from "../../lib/html/sanitize.ts";
import { stopSanitizerThread } from "../../lib/html/sanitize-thread.ts";

const nest = (tag: string, n: number, inner = "x") => `<${tag}>`.repeat(n) + inner + `</${tag}>`.repeat(n);

afterAll(() => stopSanitizerThread());

describe("checkHtmlBounds", () => {
  it("accepts ordinary bodies, nesting up to the bound, and void elements at any count under it", () => {
    expect(checkHtmlBounds("<h2>Title</h2><p>Text <strong>bold</strong></p><ul><li>a</li></ul>")).toBeNull();
    expect(checkHtmlBounds(nest("blockquote", HTML_BOUNDS.depth))).toBeNull();
    expect(checkHtmlBounds("<p>a<br>b<br>c</p>".repeat(100))).toBeNull();
    expect(checkHtmlBounds("<p>one<p>two<p>three".repeat(100))).toBeNull(); // implied </p>: depth stays 1
    expect(checkHtmlBounds("")).toBeNull();
  });

  it("refuses nesting one level past the bound, and 3,000 nested blockquotes", () => {
    expect(checkHtmlBounds(nest("blockquote", HTML_BOUNDS.depth + 1))).toEqual({
      kind: "depth",
      max: HTML_BOUNDS.depth,
    });
    expect(checkHtmlBounds(nest("blockquote", 3000))?.kind).toBe("depth");
    expect(checkHtmlBounds("<div>".repeat(20_000))?.kind).toBe("depth"); // never closed
  });

  it("counts elements, removed elements and comments, and attributes per element", () => {
    expect(checkHtmlBounds("<p>a</p>".repeat(HTML_BOUNDS.elements))).toBeNull();
    expect(checkHtmlBounds("<p>a</p>".repeat(HTML_BOUNDS.elements + 1))?.kind).toBe("elements");
    expect(checkHtmlBounds("<div>a</div>".repeat(HTML_BOUNDS.removedElements))).toBeNull();
    expect(checkHtmlBounds("<div>a</div>".repeat(HTML_BOUNDS.removedElements + 1))?.kind).toBe("removedElements");
    expect(checkHtmlBounds("<!--c-->".repeat(HTML_BOUNDS.removedElements + 1))?.kind).toBe("removedElements");
    const attrs = (n: number) => `<p ${Array.from({ length: n }, (_, i) => `a${i}=1`).join(" ")}>x</p>`;
    expect(checkHtmlBounds(attrs(HTML_BOUNDS.attributesPerElement))).toBeNull();
    expect(checkHtmlBounds(attrs(HTML_BOUNDS.attributesPerElement + 1))?.kind).toBe("attributesPerElement");
  });

  it("says which bound is broken, with its limit", () => {
    expect(htmlBoundMessage({ kind: "depth", max: 24 })).toBe("is nested too deeply: at most 24 levels");
    expect(new HtmlBoundsError({ kind: "chars", max: 200_000 }).message).toBe(
      "HTML is too long: at most 200,000 characters",
    );
  });

  it("bounds Markdown bodies by the HTML they render to", () => {
    expect(bodyBoundViolation("> quote\n\n- item", "markdown")).toBeNull();
    expect(bodyBoundViolation(`${">".repeat(100)} deep`, "markdown")?.kind).toBe("depth");
    expect(bodyBoundViolation(nest("blockquote", 100), "html")?.kind).toBe("depth");
  });
});

describe("the body functions (lib/html/body.ts)", () => {
  it("sanitize and trim like the sanitizer, on and off the calling thread", async () => {
    const html = ' <p onclick="x()">hi <script>alert(1)</script><a href="javascript:alert(1)">l</a></p> ';
    const expected = sanitizeHtml(html).trim();
    expect(normalizeBody(html)).toBe(expected);
    expect(await normalizeBodyAsync(html)).toBe(expected);
    expect(await previewBody(html)).toEqual({ html: expected });
    expect(await renderStoredHtml(html)).toBe(sanitizeHtml(html));
  });

  it("refuse an over-bound body on write paths and preview, and render it as escaped text", async () => {
    const deep = nest("blockquote", 3000, "<script>alert(1)</script>deep &amp; <b>bold</b>");
    expect(() => normalizeBody(deep)).toThrow(HtmlBoundsError);
    await expect(normalizeBodyAsync(deep)).rejects.toThrow(/nested too deeply/);
    expect(await previewBody(deep)).toEqual({ violation: { kind: "depth", max: HTML_BOUNDS.depth } });
    const shown = await renderStoredHtml(deep);
    expect(shown).toBe("<p>deep &amp; bold</p>");
    expect(escapedTextHtml("<p>a &lt;img src=x onerror=1&gt;</p><div>b</div>")).toBe(
      "<p>a &lt;img src=x onerror=1&gt;</p>\n<p>b</p>",
    );
  });
});

describe("studio's validation (readItem)", () => {
  it.each([
    ["deep.html", "html", nest("blockquote", 3000, "x")],
    ["deep.md", "markdown", `${">".repeat(200)} deep`],
  ] as const)("reports %s as invalid, field body, naming the bound", async (name, format, body) => {
    const dir = await mkdtemp(path.join(tmpdir(), "bounds-"));
    try {
      const file = path.join(dir, name);
      const front = "---\ntitle: Deep\nexcerpt: E.\nauthorName: A\npublishedDate: 2026-01-01\n---\n";
      await writeFile(file, front + body);
      const result = await readItem("post", file, `posts/${name}`, format);
      expect(result).toEqual({
        issues: [
          {
            file: `posts/${name}`,
            field: "body",
            message: `is nested too deeply: at most ${HTML_BOUNDS.depth} levels`,
          },
        ],
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
