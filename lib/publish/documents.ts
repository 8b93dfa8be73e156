/**
 * From a validated content file to the document fields `studio push` manages (spec §3), and the field diff
 * between what a file says and what Appwrite holds.
 */
import { createHash } from "node:crypto";
import { markdownToHtml } from "../html/markdown.ts";
import { normalizeBody } from "../html/body.ts";
import type { ContentItem, LocalImage } from "../content/read.ts";

/** Fields `push` writes; `userId` is set on create only, so edits in the admin keep their owner. */
export type ManagedFields = Record<string, string | null>;

/**
 * Appwrite's datetime format (REFERENCE §3): UTC with milliseconds and `+00:00`, e.g.
 * `2026-03-14T00:00:00.000+00:00`. Accepts a Date or anything `Date` parses.
 * @throws {RangeError} for an unparsable value.
 */
export function toAppwriteDatetime(value: Date | string): string {
  return new Date(value).toISOString().replace("Z", "+00:00");
}

/**
 * The content-addressed file id of an image: `img-` + the first 32 hex digits of its SHA-256 (36 chars,
 * Appwrite's id limit), so the same bytes are uploaded once however many files use them.
 */
export function imageFileId(bytes: Uint8Array): string {
  return `img-${createHash("sha256").update(bytes).digest("hex").slice(0, 32)}`;
}

/**
 * The body as sanitized HTML: Markdown is rendered, HTML is sanitized (ARCHITECTURE decision 5).
 * @throws {HtmlBoundsError} when it breaks a bound of `HTML_BOUNDS` (`readItem` reports that as invalid first).
 */
export function bodyHtml(item: ContentItem): string {
  return item.format === "markdown" ? markdownToHtml(item.body) : normalizeBody(item.body);
}

/**
 * The managed fields of `item`, with its image field set to `imageUrl` (the view URL of the uploaded
 * local image, the external URL, or null).
 */
export function managedFields(item: ContentItem, imageUrl: string | null): ManagedFields {
  if (item.kind === "venture") {
    const fm = item.frontMatter;
    return {
      name: fm.name,
      slug: item.slug,
      shortDescription: fm.shortDescription,
      logoUrl: imageUrl,
      caseStudy: bodyHtml(item),
      // Validation guarantees a URL for everything that is published (only drafts may lack one).
      websiteURL: fm.websiteURL ?? "",
    };
  }
  const fm = item.frontMatter;
  return {
    title: fm.title,
    slug: item.slug,
    excerpt: fm.excerpt,
    content: bodyHtml(item),
    featuredImageUrl: imageUrl,
    publishedDate: toAppwriteDatetime(fm.publishedDate),
    authorName: fm.authorName,
  };
}

/** The local image of an item, when it has one. */
export function localImage(item: ContentItem): LocalImage | null {
  return item.image && "bytes" in item.image ? item.image : null;
}

/**
 * Names of the fields whose remote value differs from `wanted`. Datetimes are compared as instants,
 * missing remote values as null.
 */
export function changedFields(wanted: ManagedFields, remote: Record<string, unknown>): string[] {
  return Object.keys(wanted).filter((key) => {
    const want = wanted[key] ?? null;
    const have = (remote[key] as string | null | undefined) ?? null;
    if (key === "publishedDate" && want && have) return Date.parse(want) !== Date.parse(have);
    return want !== have;
  });
}
