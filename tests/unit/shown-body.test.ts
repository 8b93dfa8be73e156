/**
 * Issue #33 item 1: a body's per-render work is done once. A post's stored body is measured against the HTML
 * bounds (parsed) only the first time it is rendered, and its shown form (responsive images, isolated Latin
 * names in Arabic) is rewritten once per direction; later renders give the same HTML from the caches.
 */
import { afterAll, describe, expect, it } from "vitest";
import { renderStoredHtml, renderStoredHtmlStats } from "../../lib/html/body.ts";
import { sanitizeHtml } from "../../lib/html/sanitize.ts";
import { stopSanitizerThread } from "../../lib/html/sanitize-thread.ts";
import { isolateLatinNamesInHtml } from "../../lib/html/latin-names.ts";
import { responsiveBodyImages } from "../../web/body-images.ts";
import { shownBody, shownBodyStats } from "../../web/data/content.server.ts";

afterAll(() => stopSanitizerThread());

describe("a body rendered again is not parsed or rewritten again (issue #33 item 1)", () => {
  it("renderStoredHtml measures a body against the bounds once, and gives the same sanitized HTML after", async () => {
    const body = `<h2>Costs</h2><p>Shared services ${Math.random()}</p><script>alert(1)</script>`;
    const before = renderStoredHtmlStats.boundsChecks;
    const first = await renderStoredHtml(body);
    const second = await renderStoredHtml(body);
    expect(first).toBe(sanitizeHtml(body));
    expect(second).toBe(first);
    expect(renderStoredHtmlStats.boundsChecks - before).toBe(1);
  });

  it("a body that breaks the bounds is still shown as escaped text, every time", async () => {
    const deep = `${"<blockquote>".repeat(3000)}x${"</blockquote>".repeat(3000)} ${Math.random()}`;
    const first = await renderStoredHtml(deep);
    expect(first).not.toContain("<blockquote>");
    expect(await renderStoredHtml(deep)).toBe(first);
  });

  it("shownBody rewrites a body once per direction and gives the same HTML as the rewrite", () => {
    const body = `<p>Tender Forge مع Clinic Ledger ${Math.random()}</p><p><img src="/media/abc" alt="x"></p>`;
    const before = shownBodyStats.rewrites;
    const arabic = shownBody("ar", body);
    const english = shownBody("en", body);
    expect(arabic).toBe(isolateLatinNamesInHtml(responsiveBodyImages(body)));
    expect(english).toBe(responsiveBodyImages(body));
    expect(arabic).not.toBe(english);
    expect(shownBody("ar", body)).toBe(arabic);
    expect(shownBody("en", body)).toBe(english);
    expect(shownBodyStats.rewrites - before).toBe(2);
  });
});
