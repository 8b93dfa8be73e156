/**
 * The source hash of a translation (issue #15, decision 0008): the SHA-256 of the source version's
 * translated fields as stored (the body as sanitized HTML), each with its runs of white space made one
 * space and white space beside tags dropped, so reformatting a file (re-wrapping Markdown, re-indenting HTML) does not make its translations
 * stale while any change to a stored word does. Files and Appwrite documents hash the same way.
 */
import { CONTENT_MODEL, translatedFields, type ContentKind } from "../../model/model.ts";
import type { ContentItem } from "../content/read.ts";
import { bodyHtml } from "../content/body-html.ts";
import { sha256Hex } from "../content/body-digest.ts";

/** A stored value as the hash reads it: white space runs as one space, trimmed; missing as "". */
function normalized(value: unknown): string {
  if (typeof value !== "string") return "";
  // White space next to a tag is layout (an indented list), not words: dropped.
  return value
    .replace(/\s*(<[^>]*>)\s*/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The source hash of a stored version of `kind` (`fields`: a document, or what `push` stores for a file):
 * SHA-256 hex of the JSON of its translated fields (`translatedFields`), in the model's order, normalized.
 */
export function translationHash(kind: ContentKind, fields: Record<string, unknown>): string {
  const values = translatedFields(kind).map((name) => [name, normalized(fields[name])]);
  return sha256Hex(JSON.stringify(values));
}

/** The source hash of a content file's version: its translated fields as `push` would store them. */
export function itemTranslationHash(item: ContentItem): string {
  const frontMatter = item.frontMatter as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  const body = CONTENT_MODEL[item.kind].body;
  for (const name of translatedFields(item.kind)) fields[name] = name === body ? bodyHtml(item) : frontMatter[name];
  return translationHash(item.kind, fields);
}
