/**
 * The content model, described once (ARCHITECTURE decision 4, STYLE habit 11): one description per kind,
 * from which `model/content.ts` derives the document, front matter and form schemas and `model/appwrite.ts`
 * the Appwrite collections (`model/appwrite.json`); `lib/` maps files ↔ documents, lists and images from it.
 * A new field is one line in `fields` plus its labels in `web/i18n` (and its place in the admin form).
 *
 * Plain data without zod, so the browser may read it (the forms' `maxlength`).
 */
import { type ContentKindSpec, type FieldSpec, type FieldType, type IndexSpec, type KindSpec } from "./kind-spec.ts";
import { LIMITS } from "./limits.ts";
import { DEFAULT_CONTENT_LOCALE } from "./locales.ts";

export * from "./kind-spec.ts";
export * from "./locales.ts";
export * from "./site-models.ts";

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
    labelKeys: { websiteURL: "admin.ventures.website" },
    bodyRows: 12,
    publicPath: "ventures",
    imageStem: "{slug}-logo",
    bodyRules: "caseStudy",
    draftNoun: "details",
    imageAspect: "1:1",
    views: {
      list: "routes/public/ventures.tsx",
      item: "routes/public/venture.tsx",
      form: "routes/admin/venture-form.tsx",
    },
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
    publishedField: "publishedDate",
    adminPath: "blog",
    labelKeys: { title: "admin.blog.postTitle" },
    bodyRows: 15,
    publicPath: "blog",
    imageStem: "{slug}",
    bodyRules: "article",
    draftNoun: "content",
    imageAspect: "16:9",
    views: { list: "routes/public/blog.tsx", item: "routes/public/post.tsx", form: "routes/admin/post-form.tsx" },
    feed: true,
    pagedList: true,
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

export type ContentKind = keyof typeof CONTENT_MODEL;
/** The kinds `studio` publishes, in the order it reads and pushes them. */
export const CONTENT_KIND_NAMES = Object.keys(CONTENT_MODEL) as [ContentKind, ...ContentKind[]];

/** The kind whose public pages are `/<locale>/<path>` (`blog` → `post`), or undefined. */
export function kindOfPublicPath(path: string): ContentKind | undefined {
  return CONTENT_KIND_NAMES.find((kind) => CONTENT_MODEL[kind].publicPath === path);
}

/** The kind whose admin pages are `/admin/<path>` (`blog` → `post`), or undefined. */
export function kindOfAdminPath(path: string): ContentKind | undefined {
  return CONTENT_KIND_NAMES.find((kind) => CONTENT_MODEL[kind].adminPath === path);
}

/** Whether `value` names a kind of the table (`venture`, `post`): a posted or parsed kind is checked, never defaulted. */
export function isContentKind(value: unknown): value is ContentKind {
  return typeof value === "string" && Object.hasOwn(CONTENT_MODEL, value);
}

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

/**
 * The kinds' folders for messages, as `ventures/ or posts/` (`word` "or") or `ventures/ and posts/` ("and");
 * `prefix` goes before each (`content/`), `slash` false leaves the trailing slash out.
 */
export function kindFolders(word: "or" | "and", prefix = "", slash = true): string {
  const names = CONTENT_KIND_NAMES.map((kind) => `${prefix}${CONTENT_MODEL[kind].folder}${slash ? "/" : ""}`);
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} ${word} ${names.at(-1)}`;
}

/**
 * The field that describes an item of `kind` in a sentence or two (a card's text, a feed's and a page's
 * description): its first translated summary `text` field besides the title and the author
 * (`shortDescription`, `excerpt`), or undefined when it has none.
 */
export function descriptionField(kind: ContentKind): string | undefined {
  const spec: ContentKindSpec = CONTENT_MODEL[kind];
  return fieldsOf(spec).find(
    ([name, f]) => f.type === "text" && f.summary && f.translated && name !== spec.title && name !== spec.author,
  )?.[0];
}
