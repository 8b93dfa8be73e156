/**
 * AI drafts of blog posts and ventures (spec §7 "Text generation", §5 content rules; issue #6). The model
 * answers JSON constrained by a response schema; the HTML is sanitized like any stored HTML and checked
 * against the content rules. When a rule fails, the model is asked once to repair it, naming the violations;
 * if it still fails, the draft is returned with the remaining violations for the user to see.
 */
import {
  CONTENT_KIND_NAMES,
  CONTENT_MODEL,
  DEFAULT_CONTENT_LOCALE,
  localeSpec,
  type ContentKind,
  type ContentLocale,
} from "../../model/model.ts";
import { KIND_PROMPTS } from "./prompts.ts";
import type { GenerateContentConfig } from "@google/genai";
import type { z } from "zod";
import { DRAFT_RESPONSE_SCHEMAS, DRAFT_SCHEMAS, type DraftOf, type GeminiSchema } from "../../model/ai.ts";
import { SLUG_PATTERN } from "../../model/content.ts";
import { slugify } from "../content/slug.ts";
import { checkHtmlRules, MAX_SENTENCES, type RuleViolation } from "../html/rules.ts";
import { normalizeBodyAsync } from "../html/body.ts";
import { HtmlBoundsError, htmlBoundMessage, type HtmlBoundViolation } from "../html/bounds.ts";
import { AiResponseError, askForJson, geminiClient, type AiSettings } from "./gemini.ts";
import { AbortError, EXIT } from "../errors.ts";

/** A kind AI drafting writes: every kind of the content model (its fields with `ai`, `model/ai.ts`). */
export type DraftKind = ContentKind;

const RULES = [
  "Write the HTML with h2 and h3 headings only (never h1), p, ul, li, blockquote, strong and em; no other tags, no attributes.",
  `Keep every paragraph to at most ${MAX_SENTENCES} sentences.`,
  "Include at least one unordered list (ul) and at least one blockquote.",
  "The slug is lowercase ASCII words joined by hyphens.",
];

/**
 * System instructions per kind (spec §7: a content writer for a venture studio (blog); a business strategist
 * (venture)): the kind's `draftBrief` (`KIND_PROMPTS`), the shared HTML rules, then its own `draftRules`.
 */
export const SYSTEM_INSTRUCTIONS = Object.fromEntries(
  CONTENT_KIND_NAMES.map((kind) => {
    const prompts = KIND_PROMPTS[kind];
    return [kind, [prompts.draftBrief, ...RULES, ...(prompts.draftRules ?? [])].join(" ")];
  }),
) as Record<DraftKind, string>;

interface KindSpec<T> {
  schema: z.ZodType<T>;
  responseSchema: GeminiSchema;
  body: keyof T & string;
  title: keyof T & string;
}

/** What drafting `kind` asks for and checks, read off the content model. */
function kindSpec<K extends DraftKind>(kind: K): KindSpec<DraftOf<K>> {
  return {
    schema: DRAFT_SCHEMAS[kind],
    responseSchema: DRAFT_RESPONSE_SCHEMAS[kind],
    body: CONTENT_MODEL[kind].body as keyof DraftOf<K> & string,
    title: CONTENT_MODEL[kind].title as keyof DraftOf<K> & string,
  };
}

export interface DraftResult<T> {
  kind: DraftKind;
  fields: T;
  /** Content rules the draft still breaks after the repair attempt (empty when it follows them). */
  violations: RuleViolation[];
  /** Whether a repair request was made. */
  repaired: boolean;
  model: string;
}

/** Thrown for an empty topic (spec §5: "Please enter a topic to generate …"). */
export class TopicRequiredError extends AbortError {
  override name = "TopicRequiredError";
  constructor(message: string) {
    super(message, { exitCode: EXIT.usage });
  }
}

/** The operation's deadline, joined with the caller's signal when there is one. */
function deadline(settings: AiSettings, signal?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/** The model's HTML body breaks a bound of `HTML_BOUNDS` (SECURITY C53): the draft is not used. */
export class AiDraftBoundsError extends AiResponseError {
  override name = "AiDraftBoundsError";
  constructor(readonly violation: HtmlBoundViolation) {
    super(`The model's draft body ${htmlBoundMessage(violation)}.`);
  }
}

async function clean<T>(spec: KindSpec<T>, fields: T): Promise<T> {
  const record = { ...fields } as Record<string, string>;
  try {
    record[spec.body] = await normalizeBodyAsync(record[spec.body] ?? "");
  } catch (error) {
    if (error instanceof HtmlBoundsError) throw new AiDraftBoundsError(error.violation);
    throw error;
  }
  if (!SLUG_PATTERN.test(record.slug ?? "")) record.slug = slugify(record[spec.title] ?? "");
  return record as T;
}

/**
 * What a draft in `locale` is told besides its kind's instructions (issue #29 item 7: AI drafting fills the
 * version being edited): nothing for the default locale; else to write the text fields in that language (its
 * `ai` name and style from the locale table), headings too, with the slug still ASCII.
 */
function languageRule(locale: ContentLocale): string | null {
  if (locale === DEFAULT_CONTENT_LOCALE) return null;
  const { language, style } = localeSpec(locale).ai;
  return (
    `Write every text field, the HTML headings included, in ${language}${style ? ` ${style}` : ""}, ` +
    "whatever the language of the topic; only the slug stays lowercase ASCII words."
  );
}

/**
 * Drafts a post or a venture about `topic`, in `options.locale` (default: the default locale). The case
 * study's English section names (spec §5) are checked for a draft in the default locale only: a draft in
 * another language names them in that language.
 * @returns the draft (sanitized HTML, a valid slug) and any content rule it still breaks.
 * @throws {TopicRequiredError} for an empty topic; {AiNotConfiguredError} without a key;
 * {AiUnavailableError} on 429, 5xx, timeout or no connection; {AiRequestError} on other 4xx;
 * {AiResponseError} when the answer is not the JSON shape asked for ({AiDraftBoundsError}, a subclass, when
 * its HTML body breaks a bound of `HTML_BOUNDS`).
 */
export async function draftContent<K extends DraftKind>(
  settings: AiSettings,
  kind: K,
  topic: string,
  options: { signal?: AbortSignal; locale?: ContentLocale } = {},
): Promise<DraftResult<DraftOf<K>>> {
  const locale = options.locale ?? DEFAULT_CONTENT_LOCALE;
  const language = languageRule(locale);
  const subject = topic.trim();
  if (!subject) throw new TopicRequiredError(`Please enter a topic to generate ${CONTENT_MODEL[kind].draftNoun}.`);
  const spec = kindSpec(kind);
  const ai = geminiClient(settings);
  const signal = deadline(settings, options.signal);
  const config: GenerateContentConfig = {
    systemInstruction: language ? `${SYSTEM_INSTRUCTIONS[kind]} ${language}` : SYSTEM_INSTRUCTIONS[kind],
    responseMimeType: "application/json",
    responseSchema: spec.responseSchema as GenerateContentConfig["responseSchema"],
    abortSignal: signal,
  };

  const ask = async (contents: string) => {
    const parsed = await askForJson(ai, settings.textModel, config, contents, spec.schema);
    return clean(spec, parsed);
  };

  const rules = { caseStudy: CONTENT_MODEL[kind].bodyRules === "caseStudy" && locale === DEFAULT_CONTENT_LOCALE };
  let fields = await ask(subject);
  let violations = checkHtmlRules(String(fields[spec.body as keyof typeof fields]), rules);
  const repaired = violations.length > 0;
  if (repaired) {
    const repairPrompt = [
      `Topic: ${subject}`,
      "Your previous answer broke these rules:",
      ...violations.map((v) => `- ${v.message}`),
      "Return the same JSON, with the HTML fixed so that it follows every rule. Previous answer:",
      JSON.stringify(fields),
    ].join("\n");
    fields = await ask(repairPrompt);
    violations = checkHtmlRules(String(fields[spec.body as keyof typeof fields]), rules);
  }
  return { kind, fields, violations, repaired, model: settings.textModel };
}

/** `draftContent` for a kind known only at run time (a form field, a CLI argument). */
export const draftItem = draftContent as (
  settings: AiSettings,
  kind: DraftKind,
  topic: string,
  options?: { signal?: AbortSignal; locale?: ContentLocale },
) => Promise<DraftResult<Record<string, string>>>;
