/**
 * What the AI returns (spec §3 "AI output shapes": each kind's title, slug, summary and body; all required).
 * Derived from the content model (the fields with `ai`, in order), as zod
 * schemas (to validate) and as Gemini response schemas (the OpenAPI subset `responseSchema` takes, so the model
 * is constrained to the shape).
 */
import { z } from "zod";
import { CONTENT_KIND_NAMES, draftFields, type ContentKind, type DraftName } from "./model.ts";

const text = z.string().trim().min(1);

/** A kind's AI draft: each drafted field as a non-empty trimmed string. */
export type DraftOf<K extends ContentKind> = { [N in DraftName<K>]: string };

/** The zod schema of `kind`'s AI draft. */
function draftSchema<K extends ContentKind>(kind: K): z.ZodType<DraftOf<K>> {
  return z.object(Object.fromEntries(draftFields(kind).map(([name]) => [name, text]))) as never;
}

/** Each kind's AI draft schema (zod), by kind. */
export const DRAFT_SCHEMAS = Object.fromEntries(CONTENT_KIND_NAMES.map((kind) => [kind, draftSchema(kind)])) as {
  [K in ContentKind]: z.ZodType<DraftOf<K>>;
};
/** A Gemini `responseSchema` (OpenAPI 3 subset; types in capitals as the API names them). */
export interface GeminiSchema {
  type: "OBJECT" | "STRING";
  description?: string;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  propertyOrdering?: string[];
}

/** A Gemini response schema of an object whose properties are all required strings, in order; `fields` maps each name to what the model is told it holds. */
export function objectSchema(fields: Record<string, string>): GeminiSchema {
  const names = Object.keys(fields);
  return {
    type: "OBJECT",
    properties: Object.fromEntries(names.map((name) => [name, { type: "STRING", description: fields[name] }])),
    required: names,
    propertyOrdering: names,
  };
}

/** Each kind's Gemini response schema (its drafted fields, all required, in order), by kind. */
export const DRAFT_RESPONSE_SCHEMAS = Object.fromEntries(
  CONTENT_KIND_NAMES.map((kind) => [kind, objectSchema(Object.fromEntries(draftFields(kind)))]),
) as Record<ContentKind, GeminiSchema>;
