/**
 * What the AI returns (spec §3 "AI output shapes"): blog = title, slug, excerpt, content; venture = name, slug,
 * shortDescription, caseStudy; all required. As zod schemas (to validate) and as Gemini response schemas
 * (the OpenAPI subset `responseSchema` takes, so the model is constrained to the shape).
 */
import { z } from "zod";

const text = z.string().trim().min(1);

export const blogDraftSchema = z.object({ title: text, slug: text, excerpt: text, content: text });
export type BlogDraft = z.infer<typeof blogDraftSchema>;

export const ventureDraftSchema = z.object({ name: text, slug: text, shortDescription: text, caseStudy: text });
export type VentureDraft = z.infer<typeof ventureDraftSchema>;

/** A Gemini `responseSchema` (OpenAPI 3 subset; types in capitals as the API names them). */
export interface GeminiSchema {
  type: "OBJECT" | "STRING";
  description?: string;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  propertyOrdering?: string[];
}

function objectSchema(fields: Record<string, string>): GeminiSchema {
  const names = Object.keys(fields);
  return {
    type: "OBJECT",
    properties: Object.fromEntries(names.map((name) => [name, { type: "STRING", description: fields[name] }])),
    required: names,
    propertyOrdering: names,
  };
}

export const BLOG_DRAFT_RESPONSE_SCHEMA = objectSchema({
  title: "The post title, plain text.",
  slug: "URL-friendly identifier: lowercase ASCII words joined by hyphens.",
  excerpt: "One or two sentences for the post card, plain text.",
  content: "The post body as HTML (h2, h3, p, ul, li, blockquote, strong, em).",
});

export const VENTURE_DRAFT_RESPONSE_SCHEMA = objectSchema({
  name: "The venture name, plain text.",
  slug: "URL-friendly identifier: lowercase ASCII words joined by hyphens.",
  shortDescription: "One or two sentences describing the venture, plain text.",
  caseStudy: "The case study as HTML with the h2 sections The Problem, Our Solution, The Market Opportunity.",
});
