/**
 * The tables the site keeps for itself, described as the content kinds are (`kind-spec.ts`): visitors'
 * submissions, the limits' events, and the history of ventures and posts. `model/appwrite.ts` builds their
 * collections beside the content model's.
 */
import { type FieldSpec, type KindSpec } from "./kind-spec.ts";
import { LIMITS } from "./limits.ts";

/** The fields a visitor fills in on each form (spec §3, §5), in order. */
export const SUBMISSION_FORM_FIELDS = {
  communityApplication: {
    name: { type: "text", max: LIMITS.name },
    email: { type: "email" },
    projectIdea: { type: "text", max: LIMITS.message, input: "interest" },
  },
  contactMessage: {
    name: { type: "text", max: LIMITS.name },
    email: { type: "email" },
    message: { type: "text", max: LIMITS.message },
  },
} as const satisfies Record<string, Record<string, FieldSpec>>;

/**
 * What the inbox keeps with each submission (issue #31), never a form input: the language of the page the
 * visitor used (`locale`, which the team's notice names and the sender's confirmation is written in), its
 * state in the inbox (`state`, one of `INBOX_STATES`; a row without one, from before the inbox, is `new`
 * until `studio setup` fills it in) and when a team member first opened it (`readAt`).
 */
export const INBOX_FIELDS = {
  locale: { type: "locale" },
  state: { type: "text", max: 16, optional: true },
  readAt: { type: "date", optional: true },
} as const satisfies Record<string, FieldSpec>;

/**
 * Visitors' submissions (spec §3, §5; issue #31): written by the site with its key; the collections grant no
 * role anything, and each row carries `read`/`update`/`delete` for the studio team only
 * (`lib/appwrite/submissions.ts`), so its members read them in the inbox and nobody else does.
 */
export const SUBMISSION_MODEL = {
  communityApplication: {
    collectionId: "community_applications",
    label: "Community applications",
    permissions: [],
    fields: { ...SUBMISSION_FORM_FIELDS.communityApplication, ...INBOX_FIELDS },
    indexes: [],
  },
  contactMessage: {
    collectionId: "contact_messages",
    label: "Contact messages",
    permissions: [],
    fields: { ...SUBMISSION_FORM_FIELDS.contactMessage, ...INBOX_FIELDS },
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
 * Only the site writes rows, with its API key (SECURITY C69): the table grants no role anything, so no user
 * can forge a version of someone's item. Each row carries the item's editors' permissions (`read`, `update`,
 * `delete` for every role that may update the item, `lib/publish/history.ts`), never a guest's; a row without
 * exactly those is not the item's history. `data` is the replaced version's fields as JSON;
 * `savedAt`/`savedBy` say when and by whom that version had been saved.
 */
export const HISTORY_MODEL = {
  revision: {
    collectionId: "revisions",
    label: "Revisions",
    permissions: [],
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

/**
 * The media library (issue #30 item 3): one row per image of the images bucket uploaded through the library,
 * its row id the file's id. `alt` is the default alt text per content locale as JSON (`{"en": "…", "ar": "…"}`),
 * `meta` the file's facts as JSON (`MediaMeta`: pixel width and height, bytes, MIME type), `name` the name the
 * file had on the uploader's computer, `uploadedBy` the uploader's user id. Only the site writes rows, with its
 * key after checking the user is on the studio team (`server/admin/media-library.ts`): the table grants no role
 * anything, and each row is readable by the studio team only (the original name may say what an unpublished
 * item is about; issue #26 item 9). The public pages never read it: an inline image carries its `width` and
 * `height` in the body (written when it is inserted or saved), from which they build its `srcset`.
 */
export const MEDIA_MODEL = {
  media: {
    collectionId: "media",
    label: "Media",
    permissions: [],
    fields: {
      name: { type: "text", max: 255 },
      alt: { type: "text", max: 4000 },
      meta: { type: "text", max: 1000 },
      uploadedBy: { type: "text", max: 36, optional: true },
    },
    indexes: [],
  },
} as const satisfies Record<string, KindSpec>;

/** Most characters of one alt text (WCAG does not cap it; a sentence or two is the norm). */
export const MAX_ALT_TEXT = 500;
