/**
 * The zod schemas derived from the content model (`model.ts`): what a venture, a blog post, a community
 * application and a contact message are, both as Appwrite documents (spec §3) and as front matter of files in
 * `content/`.
 *
 * Imported by `lib/`, `web/` and `cli/`; imports nothing of the project outside `model/`.
 */
import { z } from "zod";
import { LIMITS } from "./limits.ts";
import {
  CONTENT_KIND_NAMES,
  CONTENT_LOCALES,
  CONTENT_MODEL,
  DEFAULT_CONTENT_LOCALE,
  SUBMISSION_FORM_FIELDS,
  SUBMISSION_MODEL,
  fieldsOf,
  imageInput,
  inputFields,
  type ContentKind,
  type ContentKindSpec,
  type FieldSpec,
  type KindSpec,
} from "./model.ts";
import { HTTP_URL_MESSAGE, isHttpUrl, withDefaultScheme } from "./url.ts";

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

/** The document fields of a kind as Appwrite stores them (spec §3), without Appwrite's `$` fields. */
export type DocumentOf<S extends KindSpec> = {
  -readonly [N in keyof S["fields"]]: S["fields"][N] extends { type: "boolean" }
    ? boolean | null
    : S["fields"][N] extends { type: "image" | "owner" } | { optional: true }
      ? string | null
      : string;
};

/** The zod rule of one stored field (`FieldSpec`). */
function documentField(field: FieldSpec): z.ZodType {
  let rule: z.ZodType;
  switch (field.type) {
    case "text":
    case "html":
      rule = requiredText(field.max ?? LIMITS.html);
      break;
    case "slug":
      rule = slugSchema;
      break;
    case "url":
      rule = httpUrl;
      break;
    case "email":
      rule = z.email().max(LIMITS.email);
      break;
    case "date":
      rule = z.iso.datetime({ offset: true });
      break;
    case "image":
      return z.string().max(LIMITS.url).nullable();
    case "owner":
      return z.string().max(36).nullable();
    case "locale":
      // Documents stored before locales existed read as English until `studio setup` fills the column in.
      return z
        .enum(CONTENT_LOCALES)
        .nullable()
        .transform((v) => v ?? DEFAULT_CONTENT_LOCALE);
    case "boolean":
      return z.boolean().nullable();
  }
  return field.optional ? rule.nullable() : rule;
}

/** The schema of a kind's documents (every field of its description, in order). */
export function documentSchema<S extends KindSpec>(spec: S): z.ZodType<DocumentOf<S>> {
  return z.object(Object.fromEntries(fieldsOf(spec).map(([name, f]) => [name, documentField(f)]))) as never;
}

/** A venture as stored in collection `ventures` (spec §3), without Appwrite's `$` fields. */
export const ventureSchema = documentSchema(CONTENT_MODEL.venture);
export type Venture = DocumentOf<typeof CONTENT_MODEL.venture>;

/** A blog post as stored in collection `blog_posts` (spec §3), without Appwrite's `$` fields. */
export const blogPostSchema = documentSchema(CONTENT_MODEL.post);
export type BlogPost = DocumentOf<typeof CONTENT_MODEL.post>;

/**
 * A submission kind as its form sees it: the kind with only the fields a visitor fills in
 * (`SUBMISSION_FORM_FIELDS`), without what the inbox keeps (`INBOX_FIELDS`).
 */
export function submissionForm<K extends keyof typeof SUBMISSION_MODEL>(
  kind: K,
): Omit<(typeof SUBMISSION_MODEL)[K], "fields"> & { fields: (typeof SUBMISSION_FORM_FIELDS)[K] } {
  return { ...SUBMISSION_MODEL[kind], fields: SUBMISSION_FORM_FIELDS[kind] };
}

/** A community application (collection `community_applications`, spec §3/§5). */
export const communityApplicationSchema = documentSchema(submissionForm("communityApplication"));
export type CommunityApplication = DocumentOf<ReturnType<typeof submissionForm<"communityApplication">>>;

/** A contact message (collection `contact_messages`, spec §3/§5). */
export const contactMessageSchema = documentSchema(submissionForm("contactMessage"));
export type ContactMessage = DocumentOf<ReturnType<typeof submissionForm<"contactMessage">>>;
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

/**
 * Where a language version came from (issue #15, decision 0008): the `translation:` map of a translated
 * file's front matter. `sourceHash` is the SHA-256 of the source version's translated fields when this
 * version was translated or last reviewed (`translationSourceHash`); `model` is `human` for a person.
 * Marking a version reviewed: `reviewed: true` and `sourceHash` set to the source's current hash
 * (`studio review <file>` does both).
 */
export const translationSchema = z.strictObject({
  sourceLocale: z.enum(CONTENT_LOCALES),
  sourceHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/, "must be the 64 hex digits `studio status --json` prints as sourceHash")
    .optional(),
  model: z.string().trim().min(1).max(64),
  translatedAt: z.union([z.date(), z.iso.datetime({ offset: true }), z.iso.date()]).optional(),
  reviewed: z.boolean(),
});
export type TranslationProvenance = z.infer<typeof translationSchema>;

/** A date in a file: a YAML date (`2026-03-14`) or an ISO date-time. */
const fileDate = z.union([z.date(), z.iso.datetime({ offset: true }), z.iso.date()]);

/**
 * Fields every content file may carry. `draft: true` files are pushed as drafts (only signed-in users read
 * them); `publishAt` (a date or date-time) schedules the item: it is public from then on (issue #16,
 * `model/lifecycle.ts`; a post's `publishedDate` does the same when `publishAt` is absent).
 */
const commonFrontMatter = {
  slug: slugSchema.optional(),
  draft: z.boolean().optional(),
  publishAt: fileDate.optional(),
  generated: provenanceSchema.optional(),
  translation: translationSchema.optional(),
};

type Spec<K extends ContentKind> = (typeof CONTENT_MODEL)[K];
/** The fields of `kind` a file and a form carry: not the slug, the body, the image nor the owner. */
type InputName<S extends ContentKindSpec> = {
  [N in keyof S["fields"]]: S["fields"][N] extends { version: true }
    ? never
    : S["fields"][N]["type"] extends "html" | "image" | "owner" | "slug"
      ? never
      : N;
}[keyof S["fields"]] &
  string;
type ImageKey<S extends ContentKindSpec> = S["fields"][S["image"]] extends { input: infer I extends string }
  ? I
  : S["image"];

/** The front matter of a kind's files, as validated (`frontMatterSchema`). */
export type FrontMatterOf<K extends ContentKind> = {
  slug?: string;
  draft?: boolean;
  publishAt?: Date | string;
  generated?: Provenance;
  translation?: TranslationProvenance;
} & {
  [N in InputName<Spec<K>>]: Spec<K>["fields"][N] extends { type: "date" }
    ? Date | string
    : Spec<K>["fields"][N] extends { draftOptional: true } | { optional: true }
      ? string | undefined
      : string;
} & { [N in ImageKey<Spec<K>>]?: string };

/** The form's fields of a kind (what the admin posts), as validated (`formSchema`); optional ones may be absent. */
export type FormInputOf<K extends ContentKind> = { slug: string } & {
  [N in InputName<Spec<K>> | Spec<K>["body"] as Optional<Spec<K>, N> extends true ? never : N]: string;
} & {
  [N in InputName<Spec<K>> as Optional<Spec<K>, N> extends true ? N : never]?: string;
};
type Optional<S extends ContentKindSpec, N> = N extends keyof S["fields"]
  ? S["fields"][N] extends { optional: true }
    ? true
    : false
  : false;

/**
 * The schema of `content/<folder>/<slug>.(md|html)` front matter for `kind`: the kind's fields (the body is
 * below the front matter), its image as a path relative to the file or an http(s) URL, and `slug` (defaults
 * to the file name), `draft`, `generated`. Unknown keys are refused. A draft may leave out `draftOptional`
 * fields (an AI draft has no website URL); publishing needs them. With `inherits` (the file of a
 * non-default locale, `<name>.ar.md`), the fields that are not `translated` may be left out: they come from
 * the default locale's version (`inheritFields` in `lib/content/read.ts` checks they exist somewhere).
 */
export function frontMatterSchema<K extends ContentKind>(kind: K, inherits = false): z.ZodType<FrontMatterOf<K>> {
  const shape: Record<string, z.ZodType> = { ...commonFrontMatter };
  const draftOptional: string[] = [];
  for (const [name, field] of inputFields(kind)) {
    const rule = field.type === "date" ? fileDate : documentField(field);
    if (field.draftOptional && !(inherits && !field.translated)) draftOptional.push(name);
    shape[name] = field.optional || field.draftOptional || (inherits && !field.translated) ? rule.optional() : rule;
  }
  shape[imageInput(kind)] = imageRef.optional();
  return z.strictObject(shape).superRefine((value, ctx) => {
    if (value.draft === true) return;
    for (const name of draftOptional) {
      if (value[name] === undefined) {
        ctx.addIssue({ code: "custom", path: [name], message: "is required (only a draft may leave it out)" });
      }
    }
  }) as never;
}

/**
 * The schema of the admin's form for `kind` (spec §5): the kind's fields and body, each required unless
 * `optional`; a date is `YYYY-MM-DD` or an ISO date-time. Anything else posted is dropped (SECURITY C40).
 */
export function formSchema<K extends ContentKind>(kind: K): z.ZodType<FormInputOf<K>> {
  const spec: ContentKindSpec = CONTENT_MODEL[kind];
  const fields: [string, FieldSpec][] = [
    ...inputFields(kind),
    ["slug", spec.fields.slug!],
    [spec.body, spec.fields[spec.body]!],
  ];
  const shape = Object.fromEntries(
    fields.map(([name, field]) => [
      name,
      field.type === "date"
        ? z.union([z.iso.date(), z.iso.datetime({ offset: true })], { message: "must be a date" })
        : field.type === "url" && !field.optional
          ? // An editor may leave out the scheme: `example.com` is stored as `https://example.com`.
            z.preprocess((v) => (typeof v === "string" ? withDefaultScheme(v) : v), documentField(field))
          : field.optional
            ? // An optional field left empty in the form posts "": stored as such.
              z
                .string()
                .trim()
                .max(field.max ?? LIMITS.url, `must be at most ${field.max ?? LIMITS.url} characters`)
                .optional()
            : documentField(field),
    ]),
  );
  return z.object(shape) as never;
}

/** Front matter of `content/ventures/<slug>.(md|html)`; the body is the case study (Markdown or HTML). */
export const ventureFrontMatterSchema = frontMatterSchema("venture");
export type VentureFrontMatter = FrontMatterOf<"venture">;

/**
 * Front matter of `content/posts/<slug>.(md|html)`; the body is the post content (Markdown or HTML).
 * Its `date` fields are YAML dates (`2026-03-14`) or ISO date-times.
 */
export const postFrontMatterSchema = frontMatterSchema("post");
export type PostFrontMatter = FrontMatterOf<"post">;

/** Each kind `studio` publishes, with its folder, collection, body and image fields: read off `CONTENT_MODEL`. */
export const CONTENT_KINDS = Object.fromEntries(
  CONTENT_KIND_NAMES.map((kind) => {
    const spec: ContentKindSpec = CONTENT_MODEL[kind];
    return [
      kind,
      { folder: spec.folder, collectionId: spec.collectionId, bodyField: spec.body, imageField: spec.image },
    ];
  }),
) as Record<ContentKind, { folder: string; collectionId: string; bodyField: string; imageField: string }>;
export type { ContentKind };
/**
 * The project id of `model/appwrite.json`, which the embedded server takes for a new data folder when
 * `APPWRITE_PROJECT_ID` is unset, so the official Appwrite CLI reaches it with the committed file as it is
 * (SECURITY C75, README "The official Appwrite CLI").
 */
export const PROJECT_ID = "venture-studio";
/** Database and bucket ids (spec §3: database id is `main_db`). */
export const DATABASE_ID = "main_db";
export const IMAGES_BUCKET_ID = "images";

/**
 * The format of a content file by its name's extension, case-insensitive (README "Content files": Markdown or
 * HTML, with front matter): `post.md` and `post.markdown` are Markdown, `post.html` and `post.htm` HTML.
 * @returns the format, or undefined for any other name (`notes.txt`, `.md`, `posts.md/x`).
 */
export function contentFileFormat(name: string): "markdown" | "html" | undefined {
  const extension = /[^/\\]\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase();
  return extension ? CONTENT_FILE_FORMATS.get(extension) : undefined;
}
const CONTENT_FILE_FORMATS = new Map<string, "markdown" | "html">([
  ["md", "markdown"],
  ["markdown", "markdown"],
  ["html", "html"],
  ["htm", "html"],
]);
/** The extensions of content files, with the dot (`contentFileFormat`), for messages and file lookups. */
export const CONTENT_FILE_EXTENSIONS: readonly string[] = [...CONTENT_FILE_FORMATS.keys()].map((e) => `.${e}`);

/** Image types accepted everywhere (spec §9 output formats; SECURITY C31). */
export const IMAGE_EXTENSIONS = ["jpg", "jpeg", "png", "gif", "webp"] as const;
/** Upper bound on an image's size in bytes (SECURITY C30: 5 MB). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * A kind's name as a request or an argument gives it (`venture`, `post`): an unknown kind is a parse error
 * (issue #27 item 1), never a fallback to another kind.
 */
export const contentKindSchema = z.enum(CONTENT_KIND_NAMES, {
  error: () => `kind must be one of ${CONTENT_KIND_NAMES.join(", ")}`,
});

/** A locale code as a request gives it (`en`, `ar`): an unknown locale is a parse error, never the default. */
export const contentLocaleSchema = z.enum(CONTENT_LOCALES, {
  error: () => `locale must be one of ${CONTENT_LOCALES.join(", ")}`,
});
