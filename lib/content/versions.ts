/**
 * Language versions in files (issue #15 item 1, decision 0008): `posts/<name>.ar.md` is the Arabic version
 * of `posts/<name>.md`; a file without a locale suffix is in the default locale (English). Both share the
 * slug. A version in another locale writes the `translated` fields in its own words and may leave the
 * others (images, dates, URLs) out: they come from the default locale's version.
 */
import path from "node:path";
import {
  CONTENT_LOCALES,
  CONTENT_MODEL,
  DEFAULT_CONTENT_LOCALE,
  inputFields,
  versionKey,
  type ContentLocale,
} from "../../model/model.ts";
import type { ContentIssue, ContentItem } from "./item.ts";

/**
 * The locale and the stem of a content file's name: `x.ar.md` → (`ar`, `x`); `x.md` → (`en`, `x`). Only the
 * locales of `CONTENT_LOCALES` are suffixes (`x.en.md` is English too); any other dotted part stays in the stem.
 */
export function localeOfFile(fileName: string): { locale: ContentLocale; stem: string } {
  const stem = path.basename(fileName, path.extname(fileName));
  const suffix = path.extname(stem).slice(1);
  const locale = CONTENT_LOCALES.find((l) => l === suffix);
  return locale ? { locale, stem: stem.slice(0, -suffix.length - 1) } : { locale: DEFAULT_CONTENT_LOCALE, stem };
}

/**
 * The file of `locale`'s version beside `file` (`posts/x.md`, `ar` → `posts/x.ar.md`; `posts/x.ar.html`,
 * `en` → `posts/x.html`); `extension` (with its dot) replaces the file's when given.
 */
export function versionFile(file: string, locale: ContentLocale, extension?: string): string {
  const { stem } = localeOfFile(file);
  const ext = extension ?? path.extname(file);
  const name = locale === DEFAULT_CONTENT_LOCALE ? `${stem}${ext}` : `${stem}.${locale}${ext}`;
  return path.posix.join(path.posix.dirname(file), name);
}

/** The key of an item among the items of its kind: slug and locale (`versionKey`). */
export function itemKey(item: Pick<ContentItem, "slug" | "locale">): string {
  return versionKey(item.slug, item.locale);
}

/**
 * Completes the versions of non-default locales in `items` (in place): a field that is not `translated` and
 * that the version leaves out takes the default locale's value, the image too. A version without a
 * default-locale sibling must carry every required field itself; one that lacks some is moved from the
 * returned items to `issues`.
 * @returns the items that remain valid.
 */
export function inheritFields(items: ContentItem[], issues: ContentIssue[]): ContentItem[] {
  const defaults = new Map(
    items.filter((i) => i.locale === DEFAULT_CONTENT_LOCALE).map((i) => [`${i.kind}:${i.slug}`, i]),
  );
  return items.filter((item) => {
    if (item.locale === DEFAULT_CONTENT_LOCALE) return true;
    const missing = inheritFrom(item, defaults.get(`${item.kind}:${item.slug}`) ?? null);
    issues.push(...missing);
    return missing.length === 0;
  });
}

/**
 * Completes one version of a non-default locale (in place) from `base`, its default-locale version's front
 * matter and image (null: it has none), as `inheritFields` does.
 * @returns an issue for each required field the version lacks and cannot take (none: the version is valid).
 */
export function inheritFrom(
  item: ContentItem,
  base: Pick<ContentItem, "frontMatter" | "image"> | null,
): ContentIssue[] {
  const frontMatter = item.frontMatter as Record<string, unknown>;
  const missing: string[] = [];
  const taken: Record<string, unknown> = {};
  for (const [name, field] of inputFields(item.kind)) {
    if (field.translated || frontMatter[name] !== undefined) continue;
    const inherited = (base?.frontMatter as Record<string, unknown> | undefined)?.[name];
    if (inherited !== undefined) taken[name] = inherited;
    else if (!field.optional && !(field.draftOptional && item.draft)) missing.push(name);
  }
  const names = Object.keys(taken);
  if (names.length > 0) {
    // A new object rather than fields added one by one (which turns the object into a slow, larger
    // dictionary: ~0.6 kB an item, 200,000 versions held by a push; issue #33 item 6).
    item.frontMatter = { ...frontMatter, ...taken } as typeof item.frontMatter;
    item.inherited = [...(item.inherited ?? []), ...names];
  }
  if (!item.image && base?.image) item.image = base.image;
  const english = `${CONTENT_MODEL[item.kind].folder}/${item.slug}.md`;
  return missing.map((name) => ({
    file: item.file,
    field: name,
    message: `is required: this version has no ${DEFAULT_CONTENT_LOCALE} version (${english}) to take it from; set it here`,
  }));
}
