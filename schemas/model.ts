/**
 * The content model, described once (ARCHITECTURE decision 4, STYLE habit 11): one description per kind,
 * from which `schemas/derive.ts` builds the document, front matter and form schemas and `schemas/appwrite.ts`
 * the Appwrite collections (`schemas/appwrite.json`); `lib/` maps files ↔ documents, lists and images from it.
 * A new field is one line in `fields` plus its labels in `web/i18n` (and its place in the admin form).
 *
 * Plain data without zod, so the browser may read it (the forms' `maxlength`).
 */
import { LIMITS } from "./limits.ts";
import { DEFAULT_CONTENT_LOCALE } from "./locales.ts";

export * from "./locales.ts";

/**
 * What a field holds, and so how it is stored, validated and mapped:
 * - `text`: a trimmed string of at most `max` characters (Appwrite `string` of that size);
 * - `slug`: the item's slug (`slugSchema`, Appwrite `string` of 128, unique);
 * - `url`: an http(s) URL (`httpUrl`, Appwrite `string` with format `url`);
 * - `email`: an e-mail address (Appwrite `string` with format `email`);
 * - `html`: the body, stored as sanitized HTML (Markdown or HTML in files, below the front matter);
 * - `date`: a date or date-time, stored as Appwrite's datetime (`…T00:00:00.000+00:00`);
 * - `image`: the view URL of an image (a bucket file or an http(s) URL); in files and forms it is a picture;
 * - `owner`: the id of the user who created the item in the admin (never in files or forms);
 * - `locale`: a content locale, `en` or `ar` (Appwrite `enum`; decision 0008);
 * - `boolean`: true or false (Appwrite `boolean`).
 */
export type FieldType = "text" | "slug" | "url" | "email" | "html" | "date" | "image" | "owner" | "locale" | "boolean";

/** One field of a kind. Fields are required unless `optional`. */
export interface FieldSpec {
  readonly type: FieldType;
  /** Most characters (`text`, `html`); defaults: `LIMITS.url` for urls and images, `LIMITS.email`, 128 for slugs. */
  readonly max?: number;
  readonly optional?: boolean;
  /** Required when published, but a draft file (`draft: true`) may leave it out. */
  readonly draftOptional?: boolean;
  /** Its key in front matter and its form input's name, when not the document's (`logo` for `logoUrl`). */
  readonly input?: string;
  /** Read by lists (cards, sitemap, feeds): lists never fetch the other fields. */
  readonly summary?: boolean;
  /** A column of the admin's list. */
  readonly column?: boolean;
  /** Where a new item of the admin form starts: the signed-in user's name, or today. */
  readonly initial?: "userName" | "today";
  /** A valid value as a user writes it in front matter, for validation messages (`studio`). */
  readonly example?: string;
  /** A text field each language version carries in its own words (issue #15): what translation fills in. */
  readonly translated?: boolean;
  /**
   * Describes the language version rather than the item (its locale, its translation provenance): set from
   * the file name and the `translation:` front matter map, never a plain front matter key or form input.
   */
  readonly version?: boolean;
  /**
   * Drafted by AI (spec §3 "AI output shapes"): what Gemini is told the field holds, in its response schema.
   * The fields with it, in order, are a kind's draft (`schemas/ai.ts`).
   */
  readonly ai?: string;
}

/** An Appwrite index of a kind's collection. */
export interface IndexSpec {
  readonly key: string;
  readonly type: "key" | "unique";
  readonly attributes: readonly string[];
  readonly orders: readonly ("ASC" | "DESC")[];
}

/** One kind: its collection, its fields in order (front matter, form and Appwrite attributes), its roles. */
export interface KindSpec {
  readonly collectionId: string;
  /** The collection's name in Appwrite's console. */
  readonly label: string;
  /** Collection-level permissions (documents carry their own: `documentSecurity`). */
  readonly permissions: readonly string[];
  readonly fields: Readonly<Record<string, FieldSpec>>;
  readonly indexes: readonly IndexSpec[];
}

/** A kind `studio` publishes and the admin edits: files in `content/<folder>/`, a title, a body, an image. */
export interface ContentKindSpec extends KindSpec {
  readonly folder: string;
  /** The field naming the item in lists and titles. */
  readonly title: string;
  /** The `html` field: the file's body. */
  readonly body: string;
  /** The `image` field. */
  readonly image: string;
  /** The field naming the author, when the kind has one (RSS `dc:creator`, JSON-LD `author`). */
  readonly author?: string;
  /** The field lists are sorted by, newest first (`$createdAt` when none). */
  readonly order: string;
  /** The admin's list and form path (`/admin/<path>`). */
  readonly adminPath: string;
  /** The public pages' path (`/<locale>/<path>/<slug>`). */
  readonly publicPath: string;
  /** The HTML rules of its body (`checkHtmlRules`): a case study's sections, or an article's. */
  readonly bodyRules: "caseStudy" | "article";
  /** What AI drafting fills in for it, in messages ("generate details"). */
  readonly draftNoun: "details" | "content";
  /** The aspect ratio of its generated image. */
  readonly imageAspect: "1:1" | "16:9";
  /** The stem of its image's file name in `content/images/` (`{slug}-logo`). */
  readonly imageStem: string;
}

/** One document per slug and locale: each language version is its own document (decision 0008). */
const slugLocaleUnique: IndexSpec = {
  key: "slug_locale_unique",
  type: "unique",
  attributes: ["slug", "locale"],
  orders: ["ASC", "ASC"],
};

/**
 * Indexes an older schema had and `studio setup` removes once their replacement exists: `slug_unique`
 * (one document per slug) became `slug_locale_unique` (decision 0008).
 */
export const RETIRED_INDEXES: readonly string[] = ["slug_unique"];

/**
 * The fields of a language version (decision 0008): its locale, and where a translation came from: the
 * source locale, the SHA-256 of the source version's translated fields when it was translated or reviewed
 * (`translationHash`), the model (`human` for a person), when, and whether a person reviewed it.
 */
const VERSION_FIELDS = {
  locale: { type: "locale", summary: true, version: true },
  sourceLocale: { type: "locale", optional: true, version: true },
  sourceHash: { type: "text", max: 64, optional: true, version: true },
  translationModel: { type: "text", max: 64, optional: true, version: true },
  translatedAt: { type: "date", optional: true, version: true },
  reviewed: { type: "boolean", optional: true, version: true },
} as const satisfies Record<string, FieldSpec>;
const SLUG_AI = "URL-friendly identifier: lowercase ASCII words joined by hyphens.";
const users = ['create("users")'];

/** Ventures and blog posts (spec §3): what `studio` publishes and the admin edits. */
export const CONTENT_MODEL = {
  venture: {
    collectionId: "ventures",
    label: "Ventures",
    permissions: users,
    folder: "ventures",
    title: "name",
    body: "caseStudy",
    image: "logoUrl",
    order: "$createdAt",
    adminPath: "ventures",
    publicPath: "ventures",
    imageStem: "{slug}-logo",
    bodyRules: "caseStudy",
    draftNoun: "details",
    imageAspect: "1:1",
    fields: {
      name: {
        type: "text",
        max: LIMITS.name,
        summary: true,
        column: true,
        translated: true,
        example: "Clinic Ledger",
        ai: "The venture name, plain text.",
      },
      slug: { type: "slug", summary: true, column: true, example: "my-first-post", ai: SLUG_AI },
      shortDescription: {
        type: "text",
        max: LIMITS.shortDescription,
        summary: true,
        translated: true,
        example: "Bookkeeping for small clinics, closed by the tenth of each month.",
        ai: "One or two sentences describing the venture, plain text.",
      },
      websiteURL: { type: "url", draftOptional: true, example: "https://clinicledger.example" },
      logoUrl: {
        type: "image",
        input: "logo",
        optional: true,
        summary: true,
        column: true,
        example: "../images/clinic-ledger-logo.png",
      },
      caseStudy: {
        type: "html",
        max: LIMITS.html,
        translated: true,
        ai: "The case study as HTML with the h2 sections The Problem, Our Solution, The Market Opportunity.",
      },
      userId: { type: "owner", optional: true },
      ...VERSION_FIELDS,
    },
    indexes: [slugLocaleUnique],
  },
  post: {
    collectionId: "blog_posts",
    label: "Blog posts",
    permissions: users,
    folder: "posts",
    title: "title",
    body: "content",
    image: "featuredImageUrl",
    author: "authorName",
    order: "publishedDate",
    adminPath: "blog",
    publicPath: "blog",
    imageStem: "{slug}",
    bodyRules: "article",
    draftNoun: "content",
    imageAspect: "16:9",
    fields: {
      title: {
        type: "text",
        max: LIMITS.title,
        summary: true,
        column: true,
        translated: true,
        example: "What Is a Micro Service Agency?",
        ai: "The post title, plain text.",
      },
      slug: { type: "slug", summary: true, example: "my-first-post", ai: SLUG_AI },
      excerpt: {
        type: "text",
        max: LIMITS.excerpt,
        summary: true,
        translated: true,
        example: "One or two sentences that say what the post is about.",
        ai: "One or two sentences for the post card, plain text.",
      },
      authorName: {
        type: "text",
        max: LIMITS.name,
        summary: true,
        column: true,
        initial: "userName",
        translated: true,
        example: "Studio Editorial Team",
      },
      publishedDate: { type: "date", summary: true, column: true, initial: "today", example: "2026-03-14" },
      featuredImageUrl: {
        type: "image",
        input: "featuredImage",
        optional: true,
        summary: true,
        example: "../images/what-is-a-micro-service-agency.jpg",
      },
      content: {
        type: "html",
        max: LIMITS.html,
        translated: true,
        ai: "The post body as HTML (h2, h3, p, ul, li, blockquote, strong, em).",
      },
      userId: { type: "owner", optional: true },
      ...VERSION_FIELDS,
    },
    indexes: [
      slugLocaleUnique,
      { key: "published_date", type: "key", attributes: ["publishedDate"], orders: ["DESC"] },
    ],
  },
} as const satisfies Record<string, ContentKindSpec>;

/** Visitors' submissions (spec §3, §5): written by the site with its key, readable by no role. */
export const SUBMISSION_MODEL = {
  communityApplication: {
    collectionId: "community_applications",
    label: "Community applications",
    permissions: [],
    fields: {
      name: { type: "text", max: LIMITS.name },
      email: { type: "email" },
      projectIdea: { type: "text", max: LIMITS.message, input: "interest" },
    },
    indexes: [],
  },
  contactMessage: {
    collectionId: "contact_messages",
    label: "Contact messages",
    permissions: [],
    fields: {
      name: { type: "text", max: LIMITS.name },
      email: { type: "email" },
      message: { type: "text", max: LIMITS.message },
    },
    indexes: [],
  },
} as const satisfies Record<string, KindSpec>;

/**
 * What the site keeps for itself (issue #18 item 4): the events its limits count (failed logins, sign-ups, form
 * submissions, AI calls; `server/limits/event-log.ts`), shared by every site process on one Appwrite. Written and
 * read with the site's API key only: the table grants no permission to any role. `key` is a SHA-256 hex digest.
 */
export const SERVICE_MODEL = {
  limitEvent: {
    collectionId: "limit_events",
    label: "Limit events",
    permissions: [],
    fields: {
      key: { type: "text", max: 64 },
      at: { type: "date" },
      expiresAt: { type: "date" },
    },
    indexes: [
      { key: "key_at", type: "key", attributes: ["key", "at"], orders: ["ASC", "ASC"] },
      { key: "expires_at", type: "key", attributes: ["expiresAt"], orders: ["ASC"] },
    ],
  },
} as const satisfies Record<string, KindSpec>;

/**
 * The history of ventures and posts (issue #16 item 4, decision 0009): each save keeps the version it replaces
 * as one row, the last `REVISIONS_KEPT` per item (each language version is its own item, decision 0008).
 * Signed-in users may create rows; each row carries the item's editors' permissions (`read`, `update`,
 * `delete` for every role that may update the item, `lib/publish/history.ts`), never a guest's. `data` is the
 * replaced version's fields as JSON; `savedAt`/`savedBy` say when and by whom that version had been saved.
 */
export const HISTORY_MODEL = {
  revision: {
    collectionId: "revisions",
    label: "Revisions",
    permissions: ['create("users")'],
    fields: {
      kind: { type: "text", max: 16 },
      itemId: { type: "text", max: 36 },
      savedAt: { type: "date" },
      savedBy: { type: "text", max: 128, optional: true },
      data: { type: "text", max: 1_000_000 },
    },
    indexes: [{ key: "item_saved_at", type: "key", attributes: ["itemId", "savedAt"], orders: ["ASC", "DESC"] }],
  },
} as const satisfies Record<string, KindSpec>;

/** How many revisions are kept per item (issue #16 item 4: "the last 20"). */
export const REVISIONS_KEPT = 20;

export type ContentKind = keyof typeof CONTENT_MODEL;
/** The kinds `studio` publishes, in the order it reads and pushes them. */
export const CONTENT_KIND_NAMES = Object.keys(CONTENT_MODEL) as ContentKind[];

/** The document fields of `kind`, in order. */
export type FieldName<K extends ContentKind> = keyof (typeof CONTENT_MODEL)[K]["fields"] & string;

/** The summary fields of `kind` (`summary: true`): what lists read. */
export type SummaryName<K extends ContentKind> = {
  [N in FieldName<K>]: (typeof CONTENT_MODEL)[K]["fields"][N] extends { summary: true } ? N : never;
}[FieldName<K>];

/** `[name, spec]` of every field of a kind, in order. */
export function fieldsOf(kind: KindSpec): [string, FieldSpec][] {
  return Object.entries(kind.fields);
}

/**
 * The fields a file's front matter and the admin's form carry as text, in order: not the slug (optional in
 * files), the body (below the front matter), the image (a picture) nor the owner.
 */
export function inputFields(kind: ContentKind): [string, FieldSpec][] {
  const skipped: readonly FieldType[] = ["slug", "html", "image", "owner"];
  return fieldsOf(CONTENT_MODEL[kind]).filter(([, f]) => !skipped.includes(f.type) && !f.version);
}

/** The fields each language version writes in its own words (`translated: true`), in order. */
export function translatedFields(kind: ContentKind): string[] {
  return fieldsOf(CONTENT_MODEL[kind])
    .filter(([, f]) => f.translated)
    .map(([name]) => name);
}

/** The version fields (`version: true`): the locale and the translation provenance, in order. */
export function versionFields(kind: ContentKind): string[] {
  return fieldsOf(CONTENT_MODEL[kind])
    .filter(([, f]) => f.version)
    .map(([name]) => name);
}

/** The names the admin's form posts for `kind` (besides its image): the slug, the text fields and the body. */
export function formFieldNames(kind: ContentKind): string[] {
  return ["slug", ...inputFields(kind).map(([name]) => name), CONTENT_MODEL[kind].body];
}

/** The image field's front matter key and form input name (`logo`, `featuredImage`). */
export function imageInput(kind: ContentKind): string {
  const spec: ContentKindSpec = CONTENT_MODEL[kind];
  return spec.fields[spec.image]?.input ?? spec.image;
}

/** The fields lists read (`Query.select`), in order. */
export function summaryFields(kind: ContentKind): string[] {
  return fieldsOf(CONTENT_MODEL[kind])
    .filter(([, f]) => f.summary)
    .map(([name]) => name);
}

/** The fields of the admin's list, in order. */
export function columnFields(kind: ContentKind): string[] {
  return fieldsOf(CONTENT_MODEL[kind])
    .filter(([, f]) => f.column)
    .map(([name]) => name);
}

/** The name of an image file for `slug` in `content/images/`, without its extension. */
export function imageStem(kind: ContentKind, slug: string): string {
  return CONTENT_MODEL[kind].imageStem.replace("{slug}", slug);
}

/**
 * A valid document of `kind` with placeholder values (`text`: "A", `url`: https://example.com, `date`:
 * 2026-01-01, `slug`: "placeholder"; optional fields, images and the owner null), then `values` over it: for
 * benches and fixtures that write documents straight through the API.
 */
export function placeholderDocument(kind: ContentKind, values: Record<string, unknown> = {}): Record<string, unknown> {
  const placeholder: Record<FieldType, unknown> = {
    text: "A",
    html: "<p>A</p>",
    slug: "placeholder",
    url: "https://example.com",
    email: "a@example.com",
    date: "2026-01-01T00:00:00.000+00:00",
    image: null,
    owner: null,
    locale: DEFAULT_CONTENT_LOCALE,
    boolean: null,
  };
  const document = Object.fromEntries(
    fieldsOf(CONTENT_MODEL[kind]).map(([name, f]) => [name, f.optional ? null : placeholder[f.type]]),
  );
  return { ...document, ...values };
}

/**
 * What a new item's form starts with: each field with an `initial` set to the signed-in user's name or to
 * `today` (`YYYY-MM-DD`, in the caller's time zone).
 */
export function initialValues(kind: ContentKind, context: { userName: string; today: string }): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, field] of inputFields(kind)) {
    if (field.initial === "userName") values[name] = context.userName;
    else if (field.initial === "today") values[name] = context.today;
  }
  return values;
}

/** The fields AI drafting fills in for `kind` (those with `ai`), in order (spec §3 "AI output shapes"). */
export type DraftName<K extends ContentKind> = {
  [N in FieldName<K>]: (typeof CONTENT_MODEL)[K]["fields"][N] extends { ai: string } ? N : never;
}[FieldName<K>];

/** `[name, what Gemini is told it holds]` of each field AI drafting fills in for `kind`, in order. */
export function draftFields(kind: ContentKind): [string, string][] {
  return fieldsOf(CONTENT_MODEL[kind]).flatMap(([name, f]) => (f.ai ? [[name, f.ai] as [string, string]] : []));
}
