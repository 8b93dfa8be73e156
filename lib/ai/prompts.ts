/**
 * What the AI is told per kind (spec §7 "Text generation", "Image generation"): one entry per kind of the
 * content model, keyed by it, so a kind without prompts does not compile. Kept beside the AI code rather than
 * in `model/model.ts`, which the public pages' JavaScript carries: these texts never reach the browser.
 */
import type { ContentKind } from "../../model/model.ts";

/** A kind's prompts. */
export interface KindPrompts {
  /** Who the model is and what it writes about the topic, before the HTML rules all kinds share. */
  readonly draftBrief: string;
  /** Rules of the kind's own, after the shared ones. */
  readonly draftRules?: readonly string[];
  /** The image generation prompt; `{title}` is replaced by the item's title. */
  readonly imagePrompt: string;
}

/** Each kind's prompts (spec §7: a business strategist for a venture, a content writer for a post). */
export const KIND_PROMPTS: Record<ContentKind, KindPrompts> = {
  venture: {
    draftBrief: [
      "You are a business strategist at a venture studio that builds Micro Service Agencies: small, modular",
      "service businesses linked in a Business Service Network. Describe a venture for the topic you are given,",
      "with a case study of how the studio built it.",
    ].join(" "),
    draftRules: [
      "The case study has the h2 sections The Problem, Our Solution and The Market Opportunity, in that order.",
    ],
    imagePrompt:
      'A minimalist abstract logo mark for a company named "{title}". Dark background with gold accents, ' +
      "simple geometric symbol centred, no text, no letters.",
  },
  post: {
    draftBrief: [
      "You are a content writer for a venture studio and community that helps founders, business owners and",
      "C-level managers build and scale Micro Service Agencies linked in a Business Service Network",
      "(motto: Join, Learn, Build, Earn). Write a practical, specific blog post on the topic you are given.",
    ].join(" "),
    imagePrompt:
      'An abstract, minimalist illustration for a blog post titled "{title}". Dark palette with gold accents, ' +
      "clean geometric shapes, soft light, no text, no letters, no people.",
  },
};
