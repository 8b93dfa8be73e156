/**
 * Issue #29 item 7: every word in the admin's language. The content rules a draft breaks (`checkHtmlRules`,
 * spec §5) carry a code and values; the admin translates them (`ruleText`, `admin.ai.rules.<rule>`) while
 * `studio` keeps the English message. Values put into a sentence (a glossary term, a tag, a field name) are
 * bidi isolates (FSI … PDI), so a Latin term in an Arabic sentence cannot reorder it.
 */
import { describe, expect, it } from "vitest";
import { checkHtmlRules } from "../../lib/html/rules.ts";
import { glossaryViolations } from "../../lib/translate/checks.ts";
import { ruleText, violationText } from "../../web/data/admin-errors.server.ts";
import { FSI, PDI, isolate } from "../../web/i18n/isolate.ts";

const BROKEN = `<h1>Title</h1><p>${"جملة. ".repeat(8)}</p><h2>The Problem</h2>`;

describe("content-rule violations in the admin's language", () => {
  const violations = checkHtmlRules(BROKEN, { caseStudy: true });

  it("carry a code and values beside studio's English message", () => {
    expect(violations.map((v) => [v.rule, v.values])).toEqual([
      ["headings", { tags: "h1" }],
      ["paragraph-length", { paragraph: 1, sentences: 8, max: 5 }],
      ["unordered-list", {}],
      ["blockquote", {}],
      ["case-study-sections", { sections: "Our Solution, The Market Opportunity" }],
    ]);
    expect(violations[1]!.message).toBe("paragraph 1 has 8 sentences; split it (at most 5)");
  });

  it("read in English and in Arabic, no English left in the Arabic ones but the isolated values", () => {
    expect(violations.map((v) => ruleText("en", v))).toEqual([
      `Uses ${isolate("h1")}; use only h2 and h3 headings.`,
      "Paragraph 1 has 8 sentences; split it (at most 5).",
      "Add at least one bulleted list.",
      "Add at least one quote (blockquote).",
      `Add the h2 section(s): ${isolate("Our Solution, The Market Opportunity")}.`,
    ]);
    const arabic = violations.map((v) => ruleText("ar", v));
    expect(arabic[1]).toBe("في الفقرة 1 عدد 8 جمل؛ قسّمها (الحد الأقصى 5).");
    expect(arabic[0]).toBe(`يستخدم ${FSI}h1${PDI}؛ استخدم عناوين h2 وh3 فقط.`);
    for (const text of arabic) {
      // Outside the isolates and the tag names the rule is about, every letter is Arabic.
      const outside = text.replace(/\u2068[^\u2069]*\u2069/g, "").replace(/\b(h2|h3|blockquote)\b/g, "");
      expect(outside).not.toMatch(/[A-Za-z]/);
    }
  });
});

describe("translation violations keep the sentence's order (bidi)", () => {
  it("isolates the glossary's terms and the field's name in the Arabic admin", () => {
    const [violation] = glossaryViolations(
      [{ en: "back office", ar: "مكتب خلفي" }],
      "A back office for clinics.",
      "مكتب للعيادات.",
      "en",
      "ar",
    );
    const text = violationText("ar", "post", { ...violation!, field: "title" });
    expect(text).toBe(`${FSI}العنوان${PDI}: اكتب «${FSI}back office${PDI}» بصيغة «${FSI}مكتب خلفي${PDI}» (المسرد).`);
  });
});
