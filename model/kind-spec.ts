/**
 * The shape of a kind's description (ARCHITECTURE decision 4): its fields, indexes and roles. The descriptions
 * themselves are in `model.ts` (what `studio` publishes) and `site-models.ts` (what the site keeps).
 */
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
   * The fields with it, in order, are a kind's draft (`model/ai.ts`).
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
  /**
   * The `date` field that is its publication date (a post's `publishedDate`): its due time unless `publishAt`
   * says otherwise (`dateField`). A kind without one (a venture; an event, whose date is when it happens) is
   * scheduled by "Publish on" (`publishAt`).
   */
  readonly publishedField?: string;
  /** The field lists are sorted by, newest first (`$createdAt` when none). */
  readonly order: string;
  /**
   * The admin's list and form path (`/admin/<path>`), which also names its messages: `admin.<path>.*` (list,
   * form and field labels), `admin.nav.<path>`, `admin.dashboard.<path>`.
   */
  readonly adminPath: string;
  /** Field labels whose message key is not `admin.<adminPath>.<field>` (the form's name for the field). */
  readonly labelKeys?: Readonly<Record<string, string>>;
  /** The rows of its body's source editor in the admin. */
  readonly bodyRows: number;
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
  /**
   * Its own page modules (paths under `web/`), where the generic ones are not enough: `list` and `item` for
   * `/<locale>/<publicPath>[/<slug>]` (default `routes/public/kind-list.tsx`, `routes/public/kind-item.tsx`),
   * `form` for `/admin/<adminPath>/new|edit/:id` (default `routes/admin/kind-form.tsx`). `web/routes.ts`
   * routes each kind from this table.
   */
  readonly views?: { readonly list?: string; readonly item?: string; readonly form?: string };
  /** Whether its list is paged (`?page=2`) with the other languages' items behind a switch (`?all=1`): the blog. */
  readonly pagedList?: boolean;
  /** Whether its items are in each locale's RSS feed (`/<locale>/rss.xml`); every kind is in the sitemap. */
  readonly feed?: boolean;
}
