/**
 * The one way product code turns an HTML body into what is stored or shown (ARCHITECTURE decision 5,
 * SECURITY C16, C53): bounds first (`bounds.ts`, no DOM built), then DOMPurify, then `trim()`.
 *
 * - Write paths refuse a body that breaks a bound ({@link HtmlBoundsError}): the admin and AI drafting call
 *   {@link normalizeBodyAsync} (sanitizer thread), `studio` calls {@link normalizeBody} (its own process; a
 *   push of many new items also has the sanitizer thread normalize some: {@link normalizeBodiesOffThread}).
 * - The render path calls {@link renderStoredHtml}: bodies written around the product (Appwrite console, REST)
 *   may break the bounds; they are shown as escaped text, never parsed into a DOM. Results are cached by
 *   content hash, so a body is sanitized once, not on every request.
 */
import { createHash } from "node:crypto";
import { Tokenizer } from "htmlparser2";
import { LRUCache } from "lru-cache";
import { assertHtmlBounds, checkHtmlBounds, HtmlBoundsError, HTML_BOUNDS, type HtmlBoundViolation } from "./bounds.ts";
import { sanitizeHtml } from "./sanitize.ts";
import {
  SanitizeTimeoutError,
  sanitizeManyOffThread,
  sanitizeOffThread,
  SANITIZE_TIMEOUT_MS,
} from "./sanitize-thread.ts";

/**
 * A body as it is stored: bounds checked, sanitized, trimmed. Synchronous, on the calling thread: for
 * `studio` (push, pull, preview), whose process serves nobody else.
 * @throws {HtmlBoundsError} when `html` breaks a bound of `HTML_BOUNDS` (nothing is sanitized).
 */
export function normalizeBody(html: string): string {
  assertHtmlBounds(html);
  return sanitizeHtml(html).trim();
}

/**
 * {@link normalizeBody} for the server and AI drafting: the sanitizer runs on its own thread, so the event
 * loop is never blocked.
 * @throws {HtmlBoundsError} when `html` breaks a bound, or (`kind: "complexity"`) when sanitizing it takes
 * longer than `SANITIZE_TIMEOUT_MS`; {SanitizerBusyError} when the sanitizer has too many jobs waiting.
 */
export async function normalizeBodyAsync(html: string): Promise<string> {
  assertHtmlBounds(html);
  return (await sanitizeCached(html)).trim();
}

/**
 * {@link normalizeBody} for several bodies as one job on the sanitizer thread, for `studio push` with many new
 * items (issue #33 item 5: the thread sanitizes these while the push renders others; `push-bulk.ts`). Bounds are
 * checked here first, as `normalizeBody` checks them; a body that breaks one (or `null`, a body the caller could
 * not render) is not sent and comes back `null`, for the caller's `normalizeBody` to refuse with its own error.
 * The job's budget is `SANITIZE_TIMEOUT_MS` a body sent.
 * @returns each body as stored, in the order given; `null` for those not sent.
 * @throws {SanitizeTimeoutError} when the job outlasts its budget, or the thread's error when it fails (the
 * caller then normalizes the bodies itself); {SanitizerBusyError} as `sanitizeOffThread`.
 */
export async function normalizeBodiesOffThread(htmls: readonly (string | null)[]): Promise<(string | null)[]> {
  const within = htmls.map((html) => html !== null && !checkHtmlBounds(html));
  const sent = htmls.filter((html, i): html is string => within[i]!);
  if (sent.length === 0) return htmls.map(() => null);
  const clean = (await sanitizeManyOffThread(sent)).values();
  return within.map((ok) => (ok ? clean.next().value!.trim() : null));
}

/** Sanitized bodies by SHA-256 of the input: at most 500 entries or 32 MB (2 bytes a UTF-16 unit). */
const sanitized = new LRUCache<string, string>({
  maxSize: 32 * 1024 * 1024,
  max: 500,
  sizeCalculation: (v) => Math.max(1, v.length * 2),
});
const inFlight = new Map<string, Promise<string>>();

const keyOf = (html: string) => createHash("sha256").update(html).digest("base64url");

/** Sanitizes off-thread once per distinct body (cached, concurrent callers share one job). */
function sanitizeCached(html: string, key = keyOf(html)): Promise<string> {
  const hit = sanitized.get(key);
  if (hit !== undefined) return Promise.resolve(hit);
  let job = inFlight.get(key);
  if (!job) {
    job = sanitizeOffThread(html)
      .then((clean) => {
        sanitized.set(key, clean);
        return clean;
      })
      .catch((error: unknown) => {
        if (error instanceof SanitizeTimeoutError) {
          throw new HtmlBoundsError({ kind: "complexity", max: SANITIZE_TIMEOUT_MS });
        }
        throw error;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, job);
  }
  return job;
}

/** Fallbacks of bodies that break the bounds, by hash (they are cheap to compute but need not be redone). */
const fallbacks = new LRUCache<string, string>({
  maxSize: 8 * 1024 * 1024,
  max: 200,
  sizeCalculation: (v) => Math.max(1, v.length * 2),
});

/** How many bodies `renderStoredHtml` measured against the bounds (parsed), for tests and benchmarks. */
export const renderStoredHtmlStats = { boundsChecks: 0 };

/**
 * A stored body as the public pages show it. Never throws and never blocks the event loop for long:
 * - within the bounds: the sanitized HTML (cached by content hash, sanitized off-thread);
 * - breaking a bound, or too complex to sanitize: {@link escapedTextHtml} (its text, escaped, in paragraphs).
 * @returns HTML safe to insert as is.
 */
export async function renderStoredHtml(html: string): Promise<string> {
  const key = keyOf(html);
  // A body sanitized before passed the bounds then: no need to parse it again for them on every request.
  const clean = sanitized.get(key);
  if (clean !== undefined) return clean;
  const known = fallbacks.get(key);
  if (known !== undefined) return known;
  renderStoredHtmlStats.boundsChecks += 1;
  if (!checkHtmlBounds(html)) {
    try {
      return await sanitizeCached(html, key);
    } catch (error) {
      // The sanitizer is busy: text this time, the HTML on a later request.
      if (!(error instanceof HtmlBoundsError)) return escapedTextHtml(html);
      // Too complex: remembered below, so the sanitizer never spends its budget on this body again.
    }
  }
  const text = escapedTextHtml(html);
  fallbacks.set(key, text);
  return text;
}

const BLOCKS = new Set([
  "p",
  "div",
  "br",
  "hr",
  "li",
  "ul",
  "ol",
  "blockquote",
  "pre",
  "table",
  "tr",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "figure",
  "figcaption",
  "section",
  "article",
]);
const SKIP = new Set([
  "script",
  "style",
  "template",
  "noscript",
  "iframe",
  "object",
  "textarea",
  "title",
  "svg",
  "math",
]);

const escapeText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The text of `html` (at most `HTML_BOUNDS.chars` characters of it are read) as `<p>` paragraphs of escaped
 * text, split at block elements; the content of script, style and similar elements is dropped. One pass of
 * htmlparser2's tokenizer alone: linear time, constant stack, no DOM and no element stack (the parser's stack
 * costs quadratic time on 10,000 nested elements, ~180 ms, which is what this fallback exists to avoid).
 */
export function escapedTextHtml(html: string): string {
  const source = html.slice(0, HTML_BOUNDS.chars);
  const paragraphs: string[] = [];
  let current = "";
  let skipping = 0;
  const flush = () => {
    const text = current.replace(/\s+/g, " ").trim();
    if (text) paragraphs.push(`<p>${escapeText(text)}</p>`);
    current = "";
  };
  const tag = (start: number, end: number, closing: boolean) => {
    const name = source.slice(start, end).toLowerCase();
    if (SKIP.has(name)) skipping = closing ? Math.max(0, skipping - 1) : skipping + 1;
    else if (BLOCKS.has(name)) flush();
  };
  const ignore = () => {};
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname: (start, end) => tag(start, end, false),
      onclosetag: (start, end) => tag(start, end, true),
      ontext: (start, end) => {
        if (skipping === 0) current += source.slice(start, end);
      },
      ontextentity: (codepoint) => {
        if (skipping === 0) current += String.fromCodePoint(codepoint);
      },
      onattribdata: ignore,
      onattribentity: ignore,
      onattribend: ignore,
      onattribname: ignore,
      oncdata: ignore,
      oncomment: ignore,
      ondeclaration: ignore,
      onend: ignore,
      onopentagend: ignore,
      onprocessinginstruction: ignore,
      onselfclosingtag: ignore,
    },
  );
  tokenizer.write(source);
  tokenizer.end();
  flush();
  return paragraphs.join("\n");
}

/** What the admin's Preview tab gets: the sanitized HTML, or the bound the body breaks. */
export type PreviewResult = { html: string } | { violation: HtmlBoundViolation };

/**
 * The admin's preview (`POST /admin/preview-html`): bounds checked before anything is parsed into a DOM,
 * then sanitized off-thread (cached).
 * @throws {SanitizerBusyError} when the sanitizer has too many jobs waiting.
 */
export async function previewBody(html: string): Promise<PreviewResult> {
  try {
    return { html: await normalizeBodyAsync(html) };
  } catch (error) {
    if (error instanceof HtmlBoundsError) return { violation: error.violation };
    throw error;
  }
}
