/**
 * `studio diff <file>` (issue #34): what a content file would write beside what Appwrite holds for the same
 * version, field by field, so a conflict can be settled by reading both (push --force, or pull --force, or an
 * edit of either side).
 */
import type { Models } from "node-appwrite";
import { IMAGES_BUCKET_ID } from "../../model/content.ts";
import { CONTENT_MODEL, versionKey } from "../../model/model.ts";
import { fileViewUrl, type AdminServices } from "../appwrite/client.ts";
import type { ContentItem } from "../content/read.ts";
import { htmlToText } from "../html/text.ts";
import { wordDiff, type WordChange } from "../text/word-diff.ts";
import { changedFields, imageFileId, localImage, managedFields } from "./documents.ts";
import { listBySlug } from "./remote.ts";

/** One field that differs: its value in the file and in Appwrite (HTML as text), and the word diff. */
export interface FieldDiff {
  field: string;
  file: string;
  appwrite: string;
  changes: WordChange[];
}

/** The version's document in Appwrite and the fields that differ, or `document: null` when it has none. */
export interface ItemDiff {
  kind: ContentItem["kind"];
  slug: string;
  locale: ContentItem["locale"];
  file: string;
  document: Models.DefaultRow | null;
  fields: FieldDiff[];
}

function shown(value: unknown, html: boolean): string {
  if (value === null || value === undefined) return "";
  return html ? htmlToText(String(value)) : String(value);
}

/**
 * Compares `item` (a valid version, inherited fields included) with its document in Appwrite: the fields
 * `studio push` would write (`managedFields`) against the document's, bodies compared as readable text.
 * @throws the errors of reading Appwrite (`SchemaMissingError`, connection errors).
 */
export async function diffItem(services: AdminServices, item: ContentItem): Promise<ItemDiff> {
  const spec = CONTENT_MODEL[item.kind];
  const documents = await listBySlug(services, spec.collectionId);
  const document = documents.get(versionKey(item.slug, item.locale)) ?? null;
  const base = { kind: item.kind, slug: item.slug, locale: item.locale, file: item.file, document };
  const image = localImage(item);
  const imageUrl = image
    ? fileViewUrl(services.target, IMAGES_BUCKET_ID, imageFileId(image.bytes))
    : item.image && "url" in item.image
      ? item.image.url
      : null;
  const wanted = managedFields(item, imageUrl);
  const names = document ? changedFields(wanted, document) : Object.keys(wanted).filter((k) => wanted[k] !== null);
  const fields = names.map((field) => {
    const html = field === spec.body;
    const file = shown(wanted[field], html);
    const appwrite = shown(document?.[field], html);
    return { field, file, appwrite, changes: wordDiff(appwrite, file, item.locale) };
  });
  return { ...base, fields };
}
