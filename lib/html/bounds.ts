/**
 * Hard bounds on stored HTML, checked before any DOM is built (ARCHITECTURE decision 5, SECURITY C53).
 * DOMPurify on jsdom is synchronous, recursive in places and superlinear on some shapes (3,000 nested
 * `<blockquote>` cost ~1.7 s, 10,000 nested `<div>` overflow the stack, 1,000 sibling `<div>` it must
 * unwrap cost ~1 s), so a body is measured first with htmlparser2's streaming tokenizer: linear time,
 * constant stack, no tree. The bounds are far above real bodies (the posts and ventures of `content/` nest
 * 3 levels and hold at most 60 elements; a long article with tables holds a few hundred) and keep the largest
 * accepted body to a few hundred ms of sanitizing, which runs on the sanitizer thread, never on the event loop,
 * once per distinct body (figures: `npx tsx scripts/bench/stall.ts`); the thread's time budget catches what the
 * tokenizer cannot see (the HTML parser re-opening formatting elements).
 */
import { Parser } from "htmlparser2";
import { LIMITS } from "../../model/limits.ts";
import { ALLOWED_TAGS } from "./sanitize.ts";

/** The bounds a body must keep. All counts are of the HTML as written, before sanitizing. */
export interface HtmlBounds {
  /** Most characters (UTF-16 code units, as `String.length`): the stored field's size, `LIMITS.html`. */
  chars: number;
  /** Deepest nesting of elements (an element inside 24 others is at depth 25). */
  depth: number;
  /** Most elements and comments in all. */
  elements: number;
  /** Most elements outside the sanitizer's allowlist (`div`, `span`, …) and comments, which it must remove. */
  removedElements: number;
  /** Most attributes on one element. */
  attributesPerElement: number;
}

/** The bounds of every stored body (venture case study, post content), the admin's preview and AI drafts. */
export const HTML_BOUNDS: Readonly<HtmlBounds> = Object.freeze({
  chars: LIMITS.html,
  depth: 32,
  elements: 2000,
  removedElements: 200,
  attributesPerElement: 32,
});

/** Which bound a body breaks; `complexity` is a body the sanitizer could not finish in its time budget. */
export type HtmlBoundKind = keyof HtmlBounds | "complexity";

/** One broken bound: which one and its limit. */
export interface HtmlBoundViolation {
  kind: HtmlBoundKind;
  /** The bound's value (for `complexity`, the time budget in milliseconds). */
  max: number;
}

/** English text of a violation, completing "<field> …" (studio, AI drafting, logs). */
export function htmlBoundMessage(violation: HtmlBoundViolation): string {
  const max = violation.max.toLocaleString("en-US");
  switch (violation.kind) {
    case "chars":
      return `is too long: at most ${max} characters`;
    case "depth":
      return `is nested too deeply: at most ${max} levels`;
    case "elements":
      return `has too many elements: at most ${max}`;
    case "removedElements":
      return `has too many elements that are not allowed (such as div or span) or comments: at most ${max}`;
    case "attributesPerElement":
      return `has an element with too many attributes: at most ${max}`;
    case "complexity":
      return "is too complex to process; simplify its structure";
  }
}

/** Thrown by the write paths for a body that breaks a bound (nothing is written). */
export class HtmlBoundsError extends Error {
  override name = "HtmlBoundsError";
  constructor(readonly violation: HtmlBoundViolation) {
    super(`HTML ${htmlBoundMessage(violation)}`);
  }
}

const ALLOWED = new Set<string>(ALLOWED_TAGS);

/**
 * Measures `html` against `bounds` without building a tree: size first (nothing longer is parsed), then one
 * streaming pass of htmlparser2 that stops at the first broken bound. Linear in the input, constant stack;
 * about 5 ms for 200,000 characters.
 * @returns the first bound broken, or null when the body keeps them all. Never throws.
 */
export function checkHtmlBounds(html: string, bounds: Readonly<HtmlBounds> = HTML_BOUNDS): HtmlBoundViolation | null {
  if (html.length > bounds.chars) return { kind: "chars", max: bounds.chars };
  let violation: HtmlBoundViolation | null = null;
  let depth = 0;
  let elements = 0;
  let removed = 0;
  let attributes = 0;
  const fail = (kind: keyof HtmlBounds) => {
    violation ??= { kind, max: bounds[kind] };
    parser.pause();
  };
  const countNode = (allowed: boolean) => {
    elements += 1;
    if (elements > bounds.elements) fail("elements");
    if (!allowed && ++removed > bounds.removedElements) fail("removedElements");
  };
  const parser = new Parser(
    {
      onopentagname(name) {
        attributes = 0;
        depth += 1;
        if (depth > bounds.depth) fail("depth");
        countNode(ALLOWED.has(name));
      },
      onattribute() {
        if (++attributes > bounds.attributesPerElement) fail("attributesPerElement");
      },
      onclosetag() {
        depth = Math.max(0, depth - 1);
      },
      oncomment() {
        countNode(false);
      },
      onprocessinginstruction() {
        countNode(false);
      },
    },
    { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false },
  );
  parser.write(html);
  if (!violation) parser.end();
  return violation;
}

/**
 * Throws when `html` breaks a bound (the write paths: admin, `studio push`, AI drafts).
 * @throws {HtmlBoundsError} naming the first bound broken.
 */
export function assertHtmlBounds(html: string, bounds: Readonly<HtmlBounds> = HTML_BOUNDS): void {
  const violation = checkHtmlBounds(html, bounds);
  if (violation) throw new HtmlBoundsError(violation);
}
