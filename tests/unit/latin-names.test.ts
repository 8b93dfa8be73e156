/**
 * Latin names inside Arabic text (issue #35): found as two to four capitalized Latin words, isolated in
 * `<bdi>` in sanitized bodies, never inside a tag, an attribute or code.
 */
import { describe, expect, it } from "vitest";
import { isolateLatinNamesInHtml, splitLatinNames } from "../../lib/html/latin-names.ts";

describe("splitLatinNames", () => {
  it("finds a venture's name inside an Arabic sentence, and keeps the text whole", () => {
    const text = "تُقفل Clinic Ledger الدفاتر كل شهر.";
    const parts = splitLatinNames(text);
    expect(parts).toEqual([
      { text: "تُقفل ", name: false },
      { text: "Clinic Ledger", name: true },
      { text: " الدفاتر كل شهر.", name: false },
    ]);
    expect(parts.map((p) => p.text).join("")).toBe(text);
  });

  it("leaves one word, lower-case English and a name's closing full stop outside", () => {
    expect(splitLatinNames("منصة Stripe للدفع").filter((p) => p.name)).toEqual([]);
    expect(splitLatinNames("قال: the quick brown fox").filter((p) => p.name)).toEqual([]);
    expect(
      splitLatinNames("جرّب Qalam Bridge.")
        .filter((p) => p.name)
        .map((p) => p.text),
    ).toEqual(["Qalam Bridge"]);
  });
});

describe("isolateLatinNamesInHtml", () => {
  it("wraps names in text, not in attributes or code", () => {
    const html =
      '<p>تعمل <a href="https://x.example/Clinic Ledger" title="Signal Roster">Signal Roster</a> مع Clinic Ledger.</p><pre><code>Tender Forge</code></pre>';
    expect(isolateLatinNamesInHtml(html)).toBe(
      '<p>تعمل <a href="https://x.example/Clinic Ledger" title="Signal Roster"><bdi>Signal Roster</bdi></a> مع <bdi>Clinic Ledger</bdi>.</p><pre><code>Tender Forge</code></pre>',
    );
  });

  it("never cuts an entity", () => {
    expect(isolateLatinNamesInHtml("<p>شركة Foo Bar&amp;Co</p>")).toBe("<p>شركة <bdi>Foo Bar</bdi>&amp;Co</p>");
  });
});
