/**
 * The shapes of what `readContent` reads from `content/` (issue #7, #15): items (one per language version),
 * their images and the issues found. Types only, shared by the reader (`read.ts`) and the version rules
 * (`versions.ts`).
 */
import type { ContentKind, FrontMatterOf } from "../../model/content.ts";
import type { ContentLocale } from "../../model/model.ts";

/** A local image a content file references, already read and checked. */
export interface LocalImage {
  /** Absolute path on disk. */
  path: string;
  /** File name used for the upload (`logo.png`). */
  name: string;
  bytes: Buffer;
  /** MIME type from the file's signature (`image/png`). */
  mimeType: string;
}

interface ContentItemBase {
  /** Path relative to the content root, with forward slashes (`posts/hello.md`). */
  file: string;
  slug: string;
  /** The language of this version: from the file name's suffix (`hello.ar.md`), `en` without one. */
  locale: ContentLocale;
  /** Front matter keys this version takes from its default-locale version (`inheritFields`), not in its file. */
  inherited?: string[];
  draft: boolean;
  format: "markdown" | "html";
  /** The body as written (Markdown or HTML). */
  body: string;
  /** The image field's value: a local image, an external URL, or none. */
  image: LocalImage | { url: string } | null;
}
/** One language version of an item of any kind of the content model, its front matter typed by its kind. */
export type ContentItem = { [K in ContentKind]: ContentItemBase & { kind: K; frontMatter: FrontMatterOf<K> } }[ContentKind];
export type VentureItem = Extract<ContentItem, { kind: "venture" }>;
export type PostItem = Extract<ContentItem, { kind: "post" }>;

/** A problem with one field of one file; `field` is `body`, `file` or a front-matter key. */
export interface ContentIssue {
  file: string;
  field: string;
  message: string;
  /**
   * The version the issue keeps from being written when it is not the one the file's name says (a slug two
   * files declare): its kind and version key (`versionKey(slug, locale)`). Push never prunes it and pull
   * never writes it while the issue stands.
   */
  blocks?: { kind: ContentKind; key: string };
}

export interface ContentSet {
  items: ContentItem[];
  issues: ContentIssue[];
  /** What is read but not as written (HTML the sanitizer removes), and files that are not read at all. */
  warnings: ContentIssue[];
}
