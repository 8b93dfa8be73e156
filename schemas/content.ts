/**
 * The content model: one source for what a venture, a blog post, a community application and a contact
 * message are, both as Appwrite documents (spec §3) and as front matter of files in `content/`.
 *
 * Imported by `lib/`, `web/` and `cli/`; imports nothing of the project outside `schemas/`.
 */
import { z } from "zod";
import { LIMITS } from "./limits.ts";
import { HTTP_URL_MESSAGE, isHttpUrl } from "./url.ts";

// zod compiles object parsers with `new Function` when it can, and probes for it: under the site's CSP
// (no 'unsafe-eval', SECURITY C20) that probe is a violation the browser reports on every form page.
// Without the compiler zod parses the same way, a little slower, which these small forms never notice.
z.config({ jitless: true });

/** Slugs are lowercase ASCII words joined by single hyphens, 1–128 chars (URL-friendly identifier, spec §2). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const slugSchema = z
  .string()
  .max(128, "must be at most 128 characters")
  .regex(SLUG_PATTERN, "must be lowercase letters, digits and single hyphens (e.g. my-venture)");

const requiredText = (max: number) =>
  z.string().trim().min(1, "is required").max(max, `must be at most ${max} characters`);

export { LIMITS };
export { HTTP_URL_MESSAGE, isHttpUrl, safeHttpUrl } from "./url.ts";

/**
 * The rule of every URL the admin and `studio` store (SECURITY C58, ASVS v5 1.2.2): a string, trimmed, at
 * most `LIMITS.url` characters, that is an absolute `http:`/`https:` URL by the WHATWG URL Standard
 * (`isHttpUrl`). Anything else (`javascript:`, `data:`, `vbscript:`, relative or protocol-relative URLs) is an
 * issue with the message `HTTP_URL_MESSAGE`. Stricter than Appwrite's own `url` attribute format, which
 * accepts any scheme.
 */
export const httpUrl = z
  .string()
  .trim()
  .max(LIMITS.url, `must be at most ${LIMITS.url} characters`)
  .refine(isHttpUrl, { message: HTTP_URL_MESSAGE });

/** A venture as stored in collection `ventures` (spec §3), without Appwrite's `$` fields. */
export const ventureSchema = z.object({
  name: requiredText(LIMITS.name),
  slug: slugSchema,
  shortDescription: requiredText(LIMITS.shortDescription),
  logoUrl: z.string().max(LIMITS.url).nullable(),
  caseStudy: requiredText(LIMITS.html),
  websiteURL: httpUrl,
  userId: z.string().max(36).nullable(),
});
export type Venture = z.infer<typeof ventureSchema>;

/** A blog post as stored in collection `blog_posts` (spec §3), without Appwrite's `$` fields. */
export const blogPostSchema = z.object({
  title: requiredText(LIMITS.title),
  slug: slugSchema,
  excerpt: requiredText(LIMITS.excerpt),
  content: requiredText(LIMITS.html),
  featuredImageUrl: z.string().max(LIMITS.url).nullable(),
  publishedDate: z.iso.datetime({ offset: true }),
  authorName: requiredText(LIMITS.authorName),
  userId: z.string().max(36).nullable(),
});
export type BlogPost = z.infer<typeof blogPostSchema>;

/** A community application (collection `community_applications`, spec §3/§5). */
export const communityApplicationSchema = z.object({
  name: requiredText(LIMITS.name),
  email: z.email().max(LIMITS.email),
  projectIdea: requiredText(LIMITS.message),
});
export type CommunityApplication = z.infer<typeof communityApplicationSchema>;

/** A contact message (collection `contact_messages`, spec §3/§5). */
export const contactMessageSchema = z.object({
  name: requiredText(LIMITS.name),
  email: z.email().max(LIMITS.email),
  message: requiredText(LIMITS.message),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;

/**
 * An image reference in front matter: a path relative to the content file (`../images/logo.png`),
 * or an absolute `https://` URL used as is.
 */
const imageRef = z
  .string()
  .trim()
  .min(1, "must be a relative image path or an https:// URL")
  .refine((v) => isHttpUrl(v) || (!/^https?:/i.test(v) && !/^[/\\]/.test(v) && !/^[a-z][a-z0-9+.-]*:/i.test(v)), {
    message: "must be a path relative to the file (../images/x.png) or an http(s) URL",
  });

/** Where an AI draft came from (issue #6: a provenance record in the front matter of generated drafts). */
export const provenanceSchema = z.strictObject({
  model: z.string().min(1),
  imageModel: z.string().min(1).optional(),
  date: z.union([z.date(), z.iso.datetime({ offset: true })]),
  topic: z.string().min(1),
});
export type Provenance = z.infer<typeof provenanceSchema>;

/** Fields every content file may carry. `draft: true` files are never published. */
const commonFrontMatter = {
  slug: slugSchema.optional(),
  draft: z.boolean().optional(),
  generated: provenanceSchema.optional(),
};

/**
 * Front matter of `content/ventures/<slug>.(md|html)`. The body is the case study (Markdown or HTML).
 * `slug` defaults to the file name. A draft may lack `websiteURL` (an AI draft has none); publishing needs it.
 */
export const ventureFrontMatterSchema = z
  .strictObject({
    ...commonFrontMatter,
    name: requiredText(LIMITS.name),
    shortDescription: requiredText(LIMITS.shortDescription),
    websiteURL: ventureSchema.shape.websiteURL.optional(),
    logo: imageRef.optional(),
  })
  .refine((v) => v.draft === true || v.websiteURL !== undefined, {
    path: ["websiteURL"],
    message: "is required (only a draft may leave it out)",
  });
export type VentureFrontMatter = z.infer<typeof ventureFrontMatterSchema>;

/**
 * Front matter of `content/posts/<slug>.(md|html)`. The body is the post content (Markdown or HTML).
 * `publishedDate` is a YAML date (`2026-03-14`) or an ISO date-time; `slug` defaults to the file name.
 */
export const postFrontMatterSchema = z.strictObject({
  ...commonFrontMatter,
  title: requiredText(LIMITS.title),
  excerpt: requiredText(LIMITS.excerpt),
  authorName: requiredText(LIMITS.authorName),
  publishedDate: z.union([z.date(), z.iso.datetime({ offset: true }), z.iso.date()]),
  featuredImage: imageRef.optional(),
});
export type PostFrontMatter = z.infer<typeof postFrontMatterSchema>;

/** The two kinds of content `studio` publishes, with their folder and collection. */
export const CONTENT_KINDS = {
  venture: { folder: "ventures", collectionId: "ventures", bodyField: "caseStudy", imageField: "logoUrl" },
  post: { folder: "posts", collectionId: "blog_posts", bodyField: "content", imageField: "featuredImageUrl" },
} as const;
export type ContentKind = keyof typeof CONTENT_KINDS;

/** Database and bucket ids (spec §3: database id is `main_db`). */
export const DATABASE_ID = "main_db";
export const IMAGES_BUCKET_ID = "images";
export const COLLECTIONS = {
  ventures: "ventures",
  blogPosts: "blog_posts",
  communityApplications: "community_applications",
  contactMessages: "contact_messages",
} as const;

/** Image types accepted everywhere (spec §9 output formats; SECURITY C31). */
export const IMAGE_EXTENSIONS = ["jpg", "jpeg", "png", "gif", "webp"] as const;
/** Upper bound on an image's size in bytes (SECURITY C30: 5 MB). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
