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

/** A local image a body references (issue #30 item 4): its `src` as the rendered body has it, and the file. */
export interface BodyImage {
  /** The `src` attribute as in the body's HTML (entities decoded; Markdown percent-encodes spaces). */
  src: string;
  image: LocalImage;
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
  /** Local images the body references, read and checked as the featured image; absent when none. */
  bodyImages?: BodyImage[];
}
/** One language version of an item of any kind of the content model, its front matter typed by its kind. */
export type ContentItem = {
  [K in ContentKind]: ContentItemBase & { kind: K; frontMatter: FrontMatterOf<K> };
}[ContentKind];
export type VentureItem = Extract<ContentItem, { kind: "venture" }>;
export type PostItem = Extract<ContentItem, { kind: "post" }>;

/** A problem with one field of one file; `field` is `body`, `file` or a front-matter key. */
export interface ContentIssue {
  file: string;
  field: string;
  message: string;
  /** The 1-based line of the file the issue is on, when it is one line (an image of the body). */
  line?: number;
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
