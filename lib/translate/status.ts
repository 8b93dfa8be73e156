/**
 * The translation state of every item × locale (issue #15 item 5, decision 0008), for files and documents
 * alike:
 * - `missing`: the item has no version in that locale;
 * - `stale`: a translated version whose recorded `sourceHash` is absent or differs from the source
 *   version's current hash (`translationHash`): the source changed since it was translated or reviewed;
 * - `unreviewed`: a machine translation (`reviewed: false`) of the current source;
 * - `up-to-date`: an original (no `translation:` map), or a reviewed translation of the current source.
 */
import { CONTENT_LOCALES, DEFAULT_CONTENT_LOCALE, type ContentKind, type ContentLocale } from "../../model/model.ts";

export const TRANSLATION_STATES = ["missing", "unreviewed", "stale", "up-to-date"] as const;
export type TranslationState = (typeof TRANSLATION_STATES)[number];

/** One version as the status reads it (from a file or a document). */
export interface VersionInfo {
  kind: ContentKind;
  slug: string;
  locale: ContentLocale;
  /** A draft (file `draft: true`, or a document guests cannot read): not published. */
  draft: boolean;
  /** `translationHash` of this version's translated fields now. */
  hash: string;
  /** The translation provenance, when this version is a translation. */
  translation: { sourceLocale: ContentLocale; sourceHash: string | null; reviewed: boolean } | null;
  /** Where it lives: a content file, or a document id. */
  where?: string;
}

/** The state of one item in one locale. */
export interface TranslationRow {
  kind: ContentKind;
  slug: string;
  locale: ContentLocale;
  state: TranslationState;
  /** Whether some version of the item is published (not a draft): what `--check` gates on. */
  published: boolean;
  /** The source version's current hash (what `studio review` records), for translated versions. */
  sourceHash?: string;
  where?: string;
}

/** The state of `version` given the other versions of its item, by locale. */
export function versionState(
  version: VersionInfo,
  byLocale: ReadonlyMap<ContentLocale, VersionInfo>,
): TranslationState {
  const { translation } = version;
  if (!translation) return "up-to-date";
  const source = byLocale.get(translation.sourceLocale);
  // A translation whose source is gone has nothing to go stale against.
  if (!source) return translation.reviewed ? "up-to-date" : "unreviewed";
  if (translation.sourceHash !== source.hash) return "stale";
  return translation.reviewed ? "up-to-date" : "unreviewed";
}

/**
 * Every item × locale of `versions` (`CONTENT_LOCALES`), items ordered by kind then slug, locales in the
 * order of `CONTENT_LOCALES`.
 */
export function translationStatus(versions: readonly VersionInfo[]): TranslationRow[] {
  const items = new Map<string, Map<ContentLocale, VersionInfo>>();
  for (const version of versions) {
    const key = `${version.kind}\u0000${version.slug}`;
    const byLocale = items.get(key) ?? new Map<ContentLocale, VersionInfo>();
    byLocale.set(version.locale, version);
    items.set(key, byLocale);
  }
  const rows: TranslationRow[] = [];
  for (const key of [...items.keys()].sort()) {
    const byLocale = items.get(key)!;
    const any = [...byLocale.values()][0]!;
    const published = [...byLocale.values()].some((v) => !v.draft);
    for (const locale of CONTENT_LOCALES) {
      const version = byLocale.get(locale);
      const base = { kind: any.kind, slug: any.slug, locale };
      if (!version) {
        rows.push({ ...base, state: "missing", published });
        continue;
      }
      const sourceLocale = version.translation?.sourceLocale ?? otherLocale(locale);
      const source = byLocale.get(sourceLocale);
      rows.push({
        ...base,
        state: versionState(version, byLocale),
        published,
        ...(version.translation && source ? { sourceHash: source.hash } : {}),
        ...(version.where ? { where: version.where } : {}),
      });
    }
  }
  return rows;
}

/** The locale a version in `locale` is translated from by default: English, or Arabic for English. */
export function otherLocale(locale: ContentLocale): ContentLocale {
  return locale === DEFAULT_CONTENT_LOCALE ? CONTENT_LOCALES.find((l) => l !== locale)! : DEFAULT_CONTENT_LOCALE;
}

/** How many rows are in each state. */
export function countStates(rows: readonly TranslationRow[]): Record<TranslationState, number> {
  const counts = Object.fromEntries(TRANSLATION_STATES.map((s) => [s, 0])) as Record<TranslationState, number>;
  for (const row of rows) counts[row.state]++;
  return counts;
}
