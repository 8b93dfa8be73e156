/**
 * From a validated content file to the document fields `studio push` manages (spec §3), and the field diff
 * between what a file says and what Appwrite holds.
 */
import { bodyHtml } from "../content/body-html.ts";
import { replaceImageSources } from "../content/body-images.ts";
import type { ContentItem, LocalImage } from "../content/read.ts";
import { CONTENT_MODEL, fieldsOf } from "../../model/model.ts";
import { dueTimeOf, PUBLISH_AT_COLUMN, stateFor, STATUS_COLUMN } from "../../model/lifecycle.ts";
import { toAppwriteDatetime } from "./writer.ts";
import { sha256Hex } from "../content/body-digest.ts";

export { toAppwriteDatetime } from "./writer.ts";

/** Fields `push` writes; `userId` is set on create only, so edits in the admin keep their owner. */
export type ManagedFields = Record<string, string | boolean | null>;

/**
 * The content-addressed file id of an image: `img-` + the first 32 hex digits of its SHA-256 (36 chars,
 * Appwrite's id limit), so the same bytes are uploaded once however many files use them.
 */
export function imageFileId(bytes: Uint8Array): string {
  return `img-${sha256Hex(bytes).slice(0, 32)}`;
}

/** The site's URL of an images-bucket file (`/media/<fileId>`, the route web/routes/resources/media.ts serves). */
export function mediaPath(fileId: string): string {
  return `/media/${encodeURIComponent(fileId)}`;
}

/**
 * The body of `item` as `studio push` stores it (issue #30 item 4): `bodyHtml` (or `html`, the same sanitized
 * elsewhere: the push's sanitizer thread), with the `src` of each local image of the body (`item.bodyImages`)
 * replaced by its media URL: `known.get(sha256 of its bytes)` when the lock recorded a file for those bytes (one
 * pull found in Appwrite), else `/media/<imageFileId(bytes)>` (the content-addressed file push uploads). The file
 * itself is never rewritten.
 * @throws {HtmlBoundsError} as `bodyHtml`.
 */
export function storedBodyHtml(
  item: ContentItem,
  known?: Readonly<Record<string, string>>,
  html: string = bodyHtml(item),
): string {
  if (!item.bodyImages?.length) return html;
  const urls = new Map(
    item.bodyImages.map((b) => [b.src, known?.[sha256Hex(b.image.bytes)] ?? mediaPath(imageFileId(b.image.bytes))]),
  );
  return replaceImageSources(html, (src) => urls.get(src));
}

/** The content-addressed files (`imageFileId`) of the local images of `item`'s body, without repeats. */
export function bodyImageFiles(item: ContentItem | null): Map<string, LocalImage> {
  const files = new Map<string, LocalImage>();
  for (const b of item?.bodyImages ?? []) files.set(imageFileId(b.image.bytes), b.image);
  return files;
}

/**
 * The managed fields of `item`, from its kind's description (`CONTENT_MODEL`): every field but the owner, the
 * slug from the file, the body as sanitized HTML (its local images as media URLs, `storedBodyHtml` with
 * `bodyUrls`; `sanitizedBody`: the body already sanitized, as `bodyHtml` gives it), dates in Appwrite's format,
 * and the image field set to `imageUrl` (the view URL of the uploaded local image, the external URL, or null);
 * the version fields from the file's locale and its `translation:` map (decision 0008); then the lifecycle
 * columns (issue #16): `status` (`draft` for `draft: true`, `scheduled` while the due time is after `now`,
 * else `published`) and `publishAt` (the due time: `publishAt`, else a post's `publishedDate`, else null).
 */
export function managedFields(
  item: ContentItem,
  imageUrl: string | null,
  now = Date.now(),
  bodyUrls?: Readonly<Record<string, string>>,
  sanitizedBody?: string,
): ManagedFields {
  const frontMatter = item.frontMatter as Record<string, unknown>;
  const fields: ManagedFields = {};
  const translation = item.frontMatter.translation;
  const version: Record<string, string | boolean | null> = {
    locale: item.locale,
    sourceLocale: translation?.sourceLocale ?? null,
    sourceHash: translation?.sourceHash ?? null,
    translationModel: translation?.model ?? null,
    translatedAt: translation?.translatedAt ? toAppwriteDatetime(translation.translatedAt) : null,
    reviewed: translation ? translation.reviewed : null,
  };
  for (const [name, field] of fieldsOf(CONTENT_MODEL[item.kind])) {
    if (field.type === "owner") continue;
    if (field.version) {
      fields[name] = version[name] ?? null;
      continue;
    }
    const value = frontMatter[name];
    if (field.type === "slug") fields[name] = item.slug;
    else if (field.type === "html") fields[name] = storedBodyHtml(item, bodyUrls, sanitizedBody);
    else if (field.type === "image") fields[name] = imageUrl;
    else if (field.type === "date") fields[name] = toAppwriteDatetime(value as Date | string);
    // Validation guarantees a value for everything published (only drafts may lack a `draftOptional` one).
    else fields[name] = value === undefined ? (field.optional ? null : "") : String(value);
  }
  return { ...fields, ...lifecycleFields(item, now) };
}

/**
 * The lifecycle columns `managedFields` gives `item` (issue #16), without rendering its body: `status`
 * (`draft`, `scheduled` while the due time is after `now` in ms, else `published`) and `publishAt` (the due
 * time in Appwrite's format, or null). What the push plan names for a new item (issue #33 item 6: planning
 * 200,000 creates renders none of them; each is rendered when it is written).
 */
export function lifecycleFields(item: ContentItem, now = Date.now()): ManagedFields {
  const due = dueTimeOf(item.kind, item.frontMatter as Record<string, unknown>);
  return {
    [STATUS_COLUMN]: stateFor(item.draft, due, now),
    [PUBLISH_AT_COLUMN]: due === null ? null : toAppwriteDatetime(due),
  };
}

/** The local image of an item, when it has one. */
export function localImage(item: ContentItem): LocalImage | null {
  return item.image && "bytes" in item.image ? item.image : null;
}

const DATE_FIELDS = new Set([
  PUBLISH_AT_COLUMN,
  ...Object.values(CONTENT_MODEL).flatMap((spec) =>
    fieldsOf(spec)
      .filter(([, f]) => f.type === "date")
      .map(([name]) => name),
  ),
]);

/**
 * Names of the fields whose remote value differs from `wanted`. Datetimes are compared as instants,
 * missing remote values as null.
 */
export function changedFields(wanted: ManagedFields, remote: Record<string, unknown>): string[] {
  return Object.keys(wanted).filter((key) => {
    const want = wanted[key] ?? null;
    // A document written before the lifecycle has no status: it is published.
    const have = (remote[key] as string | boolean | null | undefined) ?? (key === STATUS_COLUMN ? "published" : null);
    if (typeof want === "string" && typeof have === "string" && DATE_FIELDS.has(key)) {
      return Date.parse(want) !== Date.parse(have);
    }
    return want !== have;
  });
}
