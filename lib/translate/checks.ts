/**
 * What a translation must keep (issue #15 item 4), checked after each answer of the model: the body's
 * structure (the same sequence of block tags: h2, h3, p, ul, ol, li, blockquote) and the glossary (each
 * glossary term of the source is rendered with its pair in the translation).
 */
import { JSDOM } from "jsdom";
import type { ContentLocale } from "../../schemas/model.ts";

/** The block tags whose sequence a translation keeps. */
export const BLOCK_TAGS = ["h2", "h3", "p", "ul", "ol", "li", "blockquote"] as const;

/** One glossary entry: the same term in each locale. */
export type GlossaryEntry = Partial<Record<ContentLocale, string>>;

/** One thing a translation broke, said so the model (and a person) can fix it. */
export interface TranslationViolation {
  rule: "structure" | "glossary";
  message: string;
}

/** The block tags of `html`, in document order (`h2 p ul li li blockquote`). */
export function blockSequence(html: string): string[] {
  const document = new JSDOM(`<body>${html}</body>`).window.document;
  return [...document.body.querySelectorAll(BLOCK_TAGS.join(","))].map((e) => e.tagName.toLowerCase());
}

/** The first place two block sequences differ, as a sentence; null when they are equal. */
export function structureViolation(source: string, translation: string): TranslationViolation | null {
  const want = blockSequence(source);
  const have = blockSequence(translation);
  if (want.join(" ") === have.join(" ")) return null;
  const at = want.findIndex((tag, i) => have[i] !== tag);
  const index = at === -1 ? want.length : at;
  const message =
    `the body's block structure differs from the source: block ${index + 1} should be <${want[index] ?? "nothing"}> ` +
    `but is <${have[index] ?? "missing"}> (the source has ${want.length} blocks: ${want.join(" ")}; the translation ` +
    `has ${have.length}); keep the same sequence of h2, h3, p, ul, ol, li and blockquote`;
  return { rule: "structure", message };
}

/** Text for a whole-word, case-insensitive search. */
function mentions(text: string, term: string): boolean {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, "iu").test(text);
}

/**
 * The glossary entries whose `from` term the source uses but whose `to` term the translation lacks.
 * Arabic terms are compared without diacritics (tashkīl), which writers add or leave out.
 */
export function glossaryViolations(
  glossary: readonly GlossaryEntry[],
  source: string,
  translation: string,
  from: ContentLocale,
  to: ContentLocale,
): TranslationViolation[] {
  const plain = (s: string) => s.replace(/[\u064B-\u0652\u0670]/g, "");
  const translated = plain(translation);
  return glossary
    .filter((e) => e[from] && e[to] && mentions(source, e[from]) && !mentions(translated, plain(e[to])))
    .map((e) => ({ rule: "glossary" as const, message: `render "${e[from]}" as "${e[to]}" (glossary)` }));
}
