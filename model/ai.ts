/**
 * What the AI returns (spec §3 "AI output shapes": each kind's title, slug, summary and body; all required).
 * Derived from the content model (the fields with `ai`, in order), as zod
 * schemas (to validate) and as Gemini response schemas (the OpenAPI subset `responseSchema` takes, so the model
 * is constrained to the shape).
 */
import { z } from "zod";
import { draftFields, type ContentKind, type DraftName } from "./model.ts";

const text = z.string().trim().min(1);

/** A kind's AI draft: each drafted field as a non-empty trimmed string. */
export type DraftOf<K extends ContentKind> = { [N in DraftName<K>]: string };

/** The zod schema of `kind`'s AI draft. */
function draftSchema<K extends ContentKind>(kind: K): z.ZodType<DraftOf<K>> {
  return z.object(Object.fromEntries(draftFields(kind).map(([name]) => [name, text]))) as never;
}

export const blogDraftSchema = draftSchema("post");
export type BlogDraft = DraftOf<"post">;

export const ventureDraftSchema = draftSchema("venture");
export type VentureDraft = DraftOf<"venture">;
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

export const BLOG_DRAFT_RESPONSE_SCHEMA = objectSchema(Object.fromEntries(draftFields("post")));

export const VENTURE_DRAFT_RESPONSE_SCHEMA = objectSchema(Object.fromEntries(draftFields("venture")));
