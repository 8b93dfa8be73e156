/**
 * The language versions of the admin's forms (issue #15 item 6, decision 0008; issue #27 item 2: built for the
 * N locales of the table). An item's form edits every version of the item: the route's document (its fields
 * posted under their own names) and one version per other locale of the table (its translated fields posted
 * as `<locale>.<field>`, e.g. `ar.title`, its document id and `$updatedAt` as `<locale>.id`,
 * `<locale>.version`); the shared fields (slug, images, dates, URLs) are posted once and written to every
 * document, so each stays complete. Each version's translation provenance is posted as
 * `<locale>.sourceLocale`, `<locale>.model`, `<locale>.reviewed`, `<locale>.drafted` (an AI draft made in this
 * form); saving a translation reviewed, or a fresh AI draft, records the source version's hash
 * (`translationHash`), so staleness works for admin edits as for files.
 */
import { Query, type Models } from "node-appwrite";
import path from "node:path";
import type { SessionServices } from "../../lib/appwrite/client.ts";
import { normalizeBodyAsync } from "../../lib/html/body.ts";
import { translationHash } from "../../lib/translate/hash.ts";
import { versionState, type TranslationState, type VersionInfo } from "../../lib/translate/status.ts";
import { readGlossary } from "../../lib/translate/glossary.ts";
import type { GlossaryEntry } from "../../lib/translate/checks.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { stateOf } from "../../model/lifecycle.ts";
import { sameEditors } from "../../lib/publish/item-permissions.ts";
import {
  CONTENT_MODEL,
  DEFAULT_CONTENT_LOCALE,
  isContentLocale,
  otherLocales,
  translatedFields,
  type ContentKind,
  type ContentLocale,
} from "../../model/model.ts";

/** The locale of a document: `en` when it has none (written before locales). */
export function documentLocale(doc: Models.DefaultRow | null): ContentLocale {
  return isContentLocale(doc?.locale) ? doc.locale : DEFAULT_CONTENT_LOCALE;
}

/** The form key of field `name` of the version in `locale` when it is not the route's document. */
export function versionKeyOf(locale: ContentLocale, name: string): string {
  return `${locale}.${name}`;
}

/** What a form knows of one other language version of its item. */
export interface OtherVersion {
  locale: ContentLocale;
  /** Its document id, or null when the item has no version in that locale yet. */
  id: string | null;
  /** Its `$updatedAt` when the form was opened (the edit-conflict check), or null. */
  version: string | null;
  /** Its translation state now (missing, unreviewed, stale, up-to-date). */
  state: TranslationState;
}

/**
 * The form values of a version's provenance (`<locale>.sourceLocale|model|reviewed|wasReviewed|drafted`). A
 * stale version's "Reviewed" box starts unchecked: checking it is reviewing it against the source as it is now.
 */
function provenanceValues(
  doc: Models.DefaultRow | null,
  locale: ContentLocale,
  state: TranslationState | null,
): Record<string, string> {
  const reviewed = doc?.reviewed === true && state !== "stale" ? "on" : "";
  return {
    [versionKeyOf(locale, "sourceLocale")]: isContentLocale(doc?.sourceLocale) ? doc.sourceLocale : "",
    [versionKeyOf(locale, "model")]: typeof doc?.translationModel === "string" ? doc.translationModel : "",
    [versionKeyOf(locale, "reviewed")]: reviewed,
    [versionKeyOf(locale, "wasReviewed")]: reviewed,
    [versionKeyOf(locale, "drafted")]: "",
  };
}

/** A version's row as `translationStatus` reads it (its id as `where`). */
export function versionInfoOf(kind: ContentKind, doc: Models.DefaultRow): VersionInfo {
  const sourceLocale = isContentLocale(doc.sourceLocale) ? doc.sourceLocale : null;
  return {
    kind,
    slug: String(doc.slug),
    locale: documentLocale(doc),
    draft: stateOf(doc) !== "published",
    hash: translationHash(kind, doc),
    translation: sourceLocale
      ? {
          sourceLocale,
          sourceHash: typeof doc.sourceHash === "string" ? doc.sourceHash : null,
          reviewed: doc.reviewed === true,
        }
      : null,
    where: doc.$id,
  };
}

/**
 * The other language versions of the item `doc` belongs to (same slug, each other locale of the table, in its
 * order), read as the user, and the form values they add: each one's translated fields (`<locale>.<field>`)
 * and every version's provenance. For a new item (`doc` null) the route's version is `newLocale` (the admin's
 * language, issue #29 item 8: an item may start in either language; default: the default locale) and every
 * other is missing. A missing version is to be written as a translation of `doc`'s.
 */
export async function loadOtherVersions(
  session: SessionServices,
  kind: ContentKind,
  doc: Models.DefaultRow | null,
  newLocale: ContentLocale = DEFAULT_CONTENT_LOCALE,
): Promise<{ locale: ContentLocale; others: OtherVersion[]; values: Record<string, string> }> {
  const locale = doc ? documentLocale(doc) : newLocale;
  const found = new Map<ContentLocale, Models.DefaultRow>();
  if (doc) {
    const page = await session.tablesDB.listRows({
      databaseId: DATABASE_ID,
      tableId: CONTENT_MODEL[kind].collectionId,
      queries: [Query.equal("slug", String(doc.slug)), Query.limit(10)],
    });
    // Only a row edited by the item's editors is its version (issue #28 item 5), never one written around it.
    for (const d of page.rows)
      if (d.$id !== doc.$id && !found.has(documentLocale(d)) && sameEditors(d.$permissions, doc.$permissions))
        found.set(documentLocale(d), d);
  }
  const byLocale = new Map<ContentLocale, VersionInfo>();
  if (doc) byLocale.set(locale, versionInfoOf(kind, doc));
  for (const [l, d] of found) byLocale.set(l, versionInfoOf(kind, d));
  const stateOfVersion = (l: ContentLocale) => (byLocale.has(l) ? versionState(byLocale.get(l)!, byLocale) : null);
  const values: Record<string, string> = provenanceValues(doc, locale, stateOfVersion(locale));
  const others = otherLocales(locale).map((otherLoc): OtherVersion => {
    const other = found.get(otherLoc) ?? null;
    Object.assign(values, provenanceValues(other, otherLoc, stateOfVersion(otherLoc)));
    for (const name of translatedFields(kind)) values[versionKeyOf(otherLoc, name)] = String(other?.[name] ?? "");
    // A version written in this form is a translation of the route's version (unreviewed until marked).
    if (!other) values[versionKeyOf(otherLoc, "sourceLocale")] = locale;
    return {
      locale: otherLoc,
      id: other?.$id ?? null,
      version: other?.$updatedAt ?? null,
      state: stateOfVersion(otherLoc) ?? "missing",
    };
  });
  return { locale, values, others };
}

/** One other version as a form posts it. */
export interface PostedOtherVersion {
  locale: ContentLocale;
  id: string | null;
  version: string | null;
  /** Its translated fields as typed (`<locale>.<field>`, by plain field name). */
  fields: Record<string, string>;
  /** Whether every translated field is empty (nothing to save for a version that does not exist). */
  empty: boolean;
}

/**
 * The other versions' part of a posted form, one per locale of the table besides `locale` (the route's):
 * `<locale>.id`, `<locale>.version` and `<locale>.<field>` of each.
 */
export function postedOtherVersions(kind: ContentKind, form: FormData, locale: ContentLocale): PostedOtherVersion[] {
  return otherLocales(locale).map((other) => {
    const fields = Object.fromEntries(
      translatedFields(kind).map((name) => [name, String(form.get(versionKeyOf(other, name)) ?? "")]),
    );
    return {
      locale: other,
      id: String(form.get(versionKeyOf(other, "id")) ?? "") || null,
      version: String(form.get(versionKeyOf(other, "version")) ?? "") || null,
      fields,
      empty: Object.values(fields).every((v) => v.trim() === ""),
    };
  });
}

/** The typed values of the version fields the form posts (to give back with a refused save). */
export function postedVersionValues(kind: ContentKind, form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form) {
    if (typeof value !== "string") continue;
    const [locale, name] = key.split(".", 2) as [string, string | undefined];
    if (!isContentLocale(locale) || !name) continue;
    if (
      translatedFields(kind).includes(name) ||
      ["sourceLocale", "model", "reviewed", "wasReviewed", "drafted"].includes(name)
    ) {
      out[key] = value;
    }
  }
  return out;
}

/** The translated fields of a version as they will be stored (the body sanitized), for its hash. */
async function storedTranslated(kind: ContentKind, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const body = CONTENT_MODEL[kind].body;
  const value = fields[body];
  return { ...fields, [body]: typeof value === "string" ? await normalizeBodyAsync(value) : value };
}

/**
 * The provenance columns to write on the version in `locale`, given the translated fields of its source
 * version (`<locale>.sourceLocale`) as saved with it (`source`; null when that version is not in the save): an original (no `<locale>.sourceLocale`) gets `sourceLocale: null`;
 * a translation keeps its recorded hash unless it is newly marked reviewed (the box was unchecked when the form
 * opened: `<locale>.wasReviewed`), was drafted by the AI in this form, or is
 * written for the first time (`created`), which record the source's hash as it is saved now
 * (`translationHash`). A translation saved without being
 * reviewed is `reviewed: false`.
 */
export async function provenanceColumns(
  kind: ContentKind,
  form: FormData,
  locale: ContentLocale,
  source: Record<string, unknown> | null,
  created = false,
): Promise<Record<string, unknown>> {
  const get = (name: string) => String(form.get(versionKeyOf(locale, name)) ?? "");
  const sourceLocale = get("sourceLocale");
  if (!isContentLocale(sourceLocale) || sourceLocale === locale || !source) {
    return { locale, sourceLocale: null };
  }
  const reviewed = get("reviewed") === "on";
  // Checked when the form opened (and not stale then): left checked, it is not a new review of the source.
  const newlyReviewed = reviewed && get("wasReviewed") !== "on";
  const drafted = get("drafted") === "on";
  const model = get("model") || (reviewed ? "human" : "");
  const columns: Record<string, unknown> = {
    locale,
    sourceLocale,
    reviewed,
    translationModel: model.slice(0, 64) || null,
  };
  if (newlyReviewed || drafted || created)
    columns.sourceHash = translationHash(kind, await storedTranslated(kind, source));
  if (drafted) columns.translatedAt = new Date().toISOString();
  return columns;
}

/** The glossary the admin's AI translation follows: `content/glossary.yaml` of the site's folder. */
export function siteGlossary(): Promise<GlossaryEntry[]> {
  return readGlossary(path.join(process.cwd(), "content"));
}

/** The ids of the other language versions of the item document `id` belongs to (none when it is gone). */
export async function otherVersionIds(session: SessionServices, kind: ContentKind, id: string): Promise<string[]> {
  const tableId = CONTENT_MODEL[kind].collectionId;
  let doc: Models.DefaultRow;
  try {
    doc = await session.tablesDB.getRow({ databaseId: DATABASE_ID, tableId, rowId: id });
  } catch (error) {
    if ((error as { code?: number }).code === 404) return [];
    throw error;
  }
  const page = await session.tablesDB.listRows({
    databaseId: DATABASE_ID,
    tableId,
    queries: [Query.equal("slug", String(doc.slug)), Query.limit(10), Query.select(["slug"])],
  });
  // Its versions only: a row of another's with the same slug is not deleted with it (issue #28 item 5).
  return page.rows.filter((d) => d.$id !== id && sameEditors(d.$permissions, doc.$permissions)).map((d) => d.$id);
}
