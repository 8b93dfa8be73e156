/**
 * SECURITY C53, in time: the bound checker refuses an over-long body before parsing it, and measures the
 * largest body it accepts and a deep one it refuses in milliseconds (linear, no DOM). What it accepts and
 * refuses is in tests/unit/html-bounds.test.ts.
 */
import { describe, expect, it } from "vitest";
import { checkHtmlBounds, HTML_BOUNDS } from "../../lib/html/bounds.ts";
import { LIMITS } from "../../model/limits.ts";

describe("checkHtmlBounds", () => {
  it("refuses more characters than the stored field holds, before parsing", () => {
    expect(checkHtmlBounds("a".repeat(LIMITS.html))).toBeNull();
    expect(checkHtmlBounds("a".repeat(LIMITS.html + 1))).toEqual({ kind: "chars", max: LIMITS.html });
    const started = performance.now();
    expect(checkHtmlBounds("<div>".repeat(1_200_000))?.kind).toBe("chars"); // 6 MB
    expect(performance.now() - started).toBeLessThan(50);
  });

  it("is linear: the largest body it accepts and a deep one it refuses are measured in milliseconds", () => {
    const flat = "<p>ab</p>".repeat(HTML_BOUNDS.elements) + "x".repeat(LIMITS.html - 9 * HTML_BOUNDS.elements);
    let started = performance.now();
    expect(checkHtmlBounds(flat)).toBeNull();
    expect(performance.now() - started).toBeLessThan(250);
    started = performance.now();
    expect(checkHtmlBounds("<div>".repeat(40_000))?.kind).toBe("depth");
    expect(performance.now() - started).toBeLessThan(250);
  });
});
