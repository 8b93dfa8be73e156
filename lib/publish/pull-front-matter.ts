/**
 * The front matter `studio pull` writes for a document (issue #7 item 2, issue #16 lifecycle, decision 0008
 * versions): what the file must hold so that `studio push` reads the same document back.
 */
import type { Models } from "node-appwrite";
import { CONTENT_KINDS, type ContentKind } from "../../model/content.ts";
import { dateField, PUBLISH_AT_COLUMN, stateOf } from "../../model/lifecycle.ts";
import { DEFAULT_CONTENT_LOCALE, imageInput, inputFields, isContentLocale } from "../../model/model.ts";

/**
 * The front matter of a document's file: its slug, the kind's text fields, the image reference, its
 * lifecycle (issue #16): `draft: true` for a draft, `publishAt` when the due time is not the kind's own date
 * (a scheduled venture; a post's due time is its `publishedDate`), and, for a translated version, its
 * `translation:` map. A version in another locale leaves out the untranslated fields (and image) equal to the
 * default locale's document `source`: the file then inherits them.
 */
export function frontMatterOf(
  kind: ContentKind,
  doc: Models.DefaultRow,
  image: string | undefined,
  source: Models.DefaultRow | undefined,
) {
  const frontMatter: Record<string, unknown> = { slug: doc.slug };
  if (stateOf(doc) === "draft") frontMatter.draft = true;
  const inherits = source && doc.locale && doc.locale !== DEFAULT_CONTENT_LOCALE;
  for (const [name, field] of inputFields(kind)) {
    if (inherits && !field.translated && sameValue(doc[name], source[name])) continue;
    frontMatter[name] = doc[name];
  }
  const imageField = CONTENT_KINDS[kind].imageField;
  if (!(inherits && doc[imageField] === source[imageField])) frontMatter[imageInput(kind)] = image;
  const due = doc[PUBLISH_AT_COLUMN] as string | null | undefined;
  const own = dateField(kind);
  if (due && !(own && Date.parse(String(doc[own])) === Date.parse(due))) frontMatter.publishAt = isoInstant(due);
  if (isContentLocale(doc.sourceLocale) && typeof doc.translationModel === "string") {
    frontMatter.translation = {
      sourceLocale: doc.sourceLocale,
      ...(typeof doc.sourceHash === "string" ? { sourceHash: doc.sourceHash } : {}),
      model: doc.translationModel,
      ...(typeof doc.translatedAt === "string" ? { translatedAt: isoInstant(doc.translatedAt) } : {}),
      reviewed: doc.reviewed === true,
    };
  }
  return frontMatter;
}

/**
 * A datetime as files write it: Appwrite returns `2026-03-14T09:00:00.399+00:00`, `studio format` (and every
 * file studio writes) `2026-03-14T09:00:00.399Z`; pull writes the latter, so its files pass `format --check`
 * (issue #34). A string that is not a datetime is returned as it is.
 */
export function isoInstant(value: string): string {
  const at = Date.parse(value);
  return Number.isNaN(at) ? value : new Date(at).toISOString();
}

/**
 * The keys of a local file's front matter that pull keeps although Appwrite does not store them (issue #34:
 * `generated:`, the provenance of an AI draft, was dropped): every key that `frontMatterOf` does not write.
 */
export function keptLocalKeys(kind: ContentKind, local: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!local) return {};
  const managed = new Set<string>([
    "slug",
    "draft",
    PUBLISH_AT_COLUMN,
    "translation",
    imageInput(kind),
    ...inputFields(kind).map(([name]) => name),
  ]);
  return Object.fromEntries(Object.entries(local).filter(([key]) => !managed.has(key)));
}

/** Equal field values; datetimes compared as instants. */
function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === "string" && typeof b === "string" && !Number.isNaN(Date.parse(a)) && /^\d{4}-/.test(a)) {
    return Date.parse(a) === Date.parse(b);
  }
  return a === b;
}
