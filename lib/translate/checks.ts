/**
 * What a translation must keep (issue #15 item 4), checked after each answer of the model: the body's
 * structure (the same sequence of block tags: h2, h3, p, ul, ol, li, blockquote), the glossary (each
 * glossary term of the source is rendered with its pair in the translation), and the body's link and image
 * targets (the same `href` and `src` values: SECURITY C74, the model's output is checked, not trusted).
 */
import { Parser } from "htmlparser2";
import { JSDOM } from "jsdom";
import type { ContentLocale } from "../../model/model.ts";

/** The block tags whose sequence a translation keeps. */
export const BLOCK_TAGS = ["h2", "h3", "p", "ul", "ol", "li", "blockquote"] as const;

/** One glossary entry: the same term in each locale. */
export type GlossaryEntry = Partial<Record<ContentLocale, string>>;

/**
 * What a violation is, as a message key of the admin (`admin.languages.violations.<code>`): the block
 * structure, a glossary term, a link target (`href`) or an image source (`src`) added or dropped.
 */
export type ViolationCode = "structure" | "glossary" | "hrefAdded" | "hrefRemoved" | "srcAdded" | "srcRemoved";

/** One thing a translation broke, said so the model (and a person) can fix it. */
export interface TranslationViolation {
  rule: "structure" | "glossary" | "links";
  /** In English: what `studio translate` prints and the repair request names. */
  message: string;
  /** The admin's message key (`admin.languages.violations.<code>`) and its values, for the editor's language. */
  code: ViolationCode;
  values: Record<string, string | number>;
  /** The field it is about (a glossary term's), when not the body. */
  field?: string;
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
  const values = { block: index + 1, want: want[index] ?? "—", have: have[index] ?? "—" };
  return { rule: "structure", message, code: "structure", values };
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
    .map((e) => ({
      rule: "glossary" as const,
      message: `render "${e[from]}" as "${e[to]}" (glossary)`,
      code: "glossary" as const,
      values: { from: e[from]!, to: e[to]! },
    }));
}

/** The targets of `html`'s links and images: every `href` and every `src` value (entities decoded, trimmed). */
export function linkTargets(html: string): { href: Set<string>; src: Set<string> } {
  const targets = { href: new Set<string>(), src: new Set<string>() };
  // htmlparser2's streaming parser: linear, no DOM (the bodies are bounded and sanitized before this).
  const parser = new Parser({
    onopentag(_name, attributes) {
      if (attributes.href !== undefined) targets.href.add(attributes.href.trim());
      if (attributes.src !== undefined) targets.src.add(attributes.src.trim());
    },
  });
  parser.write(html);
  parser.end();
  return targets;
}

const LINK_MESSAGES: Record<Exclude<ViolationCode, "structure" | "glossary">, (url: string) => string> = {
  hrefAdded: (url) =>
    `the translation links to "${url}", which the source does not; keep every href exactly as in the source`,
  hrefRemoved: (url) =>
    `the translation drops or changes the source's link to "${url}"; keep every href exactly as in the source`,
  srcAdded: (url) =>
    `the translation adds the image "${url}", which the source does not have; keep only the source's images`,
  srcRemoved: (url) =>
    `the translation drops or changes the source's image "${url}"; keep every src exactly as in the source`,
};

/**
 * Every difference between the link targets (`href`) and image sources (`src`) of a source body and its
 * translation (SECURITY C74; OWASP LLM01/LLM05: a prompt injection in the source can make the model add a
 * tracking image or point a link elsewhere). A changed target is one dropped and one added. Both bodies are
 * compared as stored (sanitized), each value once however often it occurs.
 * @returns one violation per target added or dropped, links first; empty when both sets are equal.
 */
export function linkViolations(source: string, translation: string): TranslationViolation[] {
  const want = linkTargets(source);
  const have = linkTargets(translation);
  const differences = (attribute: "href" | "src") => [
    ...[...have[attribute]]
      .filter((url) => !want[attribute].has(url))
      .map((url) => [`${attribute}Added`, url] as const),
    ...[...want[attribute]]
      .filter((url) => !have[attribute].has(url))
      .map((url) => [`${attribute}Removed`, url] as const),
  ];
  return [...differences("href"), ...differences("src")].map(([code, url]) => ({
    rule: "links" as const,
    message: LINK_MESSAGES[code](url),
    code,
    values: { url },
  }));
}
