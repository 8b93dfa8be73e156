/**
 * The content rules of spec §5 for HTML bodies (required of AI output, checked by `studio preview` for any
 * draft): headings h2 and h3 only (no h1), paragraphs of at most 5 sentences, at least one unordered list and
 * one blockquote, and for a venture case study the sections The Problem, Our Solution and The Market
 * Opportunity.
 */
import { JSDOM } from "jsdom";

/** Most sentences a paragraph may have (spec §5, §9: "at most 4-5 sentences"). */
export const MAX_SENTENCES = 5;
export const CASE_STUDY_SECTIONS = ["The Problem", "Our Solution", "The Market Opportunity"] as const;

/** Which rule a violation breaks: also its message key in the admin (`admin.ai.rules.<rule>`, issue #29 item 7). */
export type RuleCode = "headings" | "paragraph-length" | "unordered-list" | "blockquote" | "case-study-sections";

/**
 * One broken rule, with a message that says what to change (English: what `studio` prints and the repair
 * request names) and the values the admin's translation of it fills in (`admin.ai.rules.<rule>`): `tags`
 * (headings), `paragraph`, `sentences`, `max` (paragraph length), `sections` (case study); none for the rest.
 */
export interface RuleViolation {
  rule: RuleCode;
  message: string;
  values: Record<string, string | number>;
}

/** Counts sentences: runs of text ended by `.`, `!`, `?` or the Arabic question mark, then space or the end. */
export function countSentences(text: string): number {
  const normalized = text.replace(/\s+/g, " ").trim();
  if (!normalized) return 0;
  return normalized.split(/(?<=[.!?؟])\s+(?=\S)/).filter((s) => /[\p{L}\p{N}]/u.test(s)).length;
}

/**
 * Checks `html` against the rules; `caseStudy` adds the venture case study sections.
 * @returns every violation found (empty when the body follows the rules).
 */
export function checkHtmlRules(html: string, options: { caseStudy?: boolean } = {}): RuleViolation[] {
  const document = new JSDOM(`<body>${html}</body>`).window.document;
  const violations: RuleViolation[] = [];
  const badHeadings = [...document.querySelectorAll("h1, h4, h5, h6")].map((h) => h.tagName.toLowerCase());
  if (badHeadings.length > 0) {
    const tags = [...new Set(badHeadings)].join(", ");
    violations.push({ rule: "headings", message: `uses ${tags}; use only h2 and h3`, values: { tags } });
  }
  document.querySelectorAll("p").forEach((p, index) => {
    const sentences = countSentences(p.textContent ?? "");
    if (sentences > MAX_SENTENCES) {
      violations.push({
        rule: "paragraph-length",
        message: `paragraph ${index + 1} has ${sentences} sentences; split it (at most ${MAX_SENTENCES})`,
        values: { paragraph: index + 1, sentences, max: MAX_SENTENCES },
      });
    }
  });
  if (!document.querySelector("ul"))
    violations.push({ rule: "unordered-list", message: "add at least one bulleted list (ul)", values: {} });
  if (!document.querySelector("blockquote"))
    violations.push({ rule: "blockquote", message: "add at least one blockquote", values: {} });
  if (options.caseStudy) {
    const headings = [...document.querySelectorAll("h2")].map((h) => (h.textContent ?? "").trim().toLowerCase());
    const missing = CASE_STUDY_SECTIONS.filter((s) => !headings.includes(s.toLowerCase()));
    if (missing.length > 0) {
      const sections = missing.join(", ");
      violations.push({
        rule: "case-study-sections",
        message: `add the h2 section(s): ${sections}`,
        values: { sections },
      });
    }
  }
  return violations;
}
