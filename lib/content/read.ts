/**
 * The content codec: reads `content/ventures/*` and `content/posts/*` (Markdown or HTML with YAML front
 * matter), validates them against `model/content.ts`, and checks every referenced local image.
 * Invalid files are reported with the file and the field, never half-accepted.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { CONTENT_KINDS, contentFileFormat, type ContentKind } from "../../model/content.ts";
import { DEFAULT_CONTENT_LOCALE, inputFields } from "../../model/model.ts";
import type { ReadContentOptions } from "./body-digest.ts";
import { OutsideFolderError, pathInside } from "./inside.ts";
import type { ContentIssue, ContentItem, ContentSet } from "./item.ts";
import { readItem } from "./read-item.ts";
import { listFiles, strayFiles } from "./stray-folders.ts";
import { inheritFrom, itemKey, localeOfFile } from "./versions.ts";

export { bodyDigest, type ReadContentOptions } from "./body-digest.ts";
export type { ContentIssue, ContentItem, ContentSet, LocalImage, PostItem, VentureItem } from "./item.ts";
export { readItem } from "./read-item.ts";

/** Content files read at once by `readContent`. */
const FILES_IN_FLIGHT = 32;

/**
 * Reads and validates every content file under `root` (`root/ventures`, `root/posts`; a missing folder is
 * empty). Files with any issue are left out of `items` and described in `issues`; when two files of one
 * kind declare one slug and locale, both are issues and no version of that slug is an item (issue #26 item
 * 10: the file that sorted first used to overwrite the live item; `withoutDuplicates`). `x.ar.md` is the
 * Arabic version of `x.md` (`lib/content/versions.ts`): it takes the fields it leaves out from it. Content
 * files `studio` does not read (in `root` itself, in a subfolder of `ventures/` or `posts/`) and other files
 * in those folders are warnings.
 * @throws only for I/O errors other than a missing folder.
 */
export async function readContent(root: string, options: ReadContentOptions = {}): Promise<ContentSet> {
  // The parsed item is the record kept (`readContentRecords`: one reading of the folders for both).
  return readContentRecords<ContentItem>(root, { ...options, keep: (item) => item });
}

/** What identifies a content file's item among the others: enough to find duplicates and versions. */
export interface ItemIdentity {
  kind: ContentKind;
  slug: string;
  locale: ContentItem["locale"];
  /** Path relative to the content root (`posts/hello.md`). */
  file: string;
}

/** What `readContentRecords` tells `keep` about an item besides the item. */
export interface KeepContext {
  /** The default-locale version's file this version took fields from (`inheritFields`), if any. */
  base: string | null;
  /** The file had warnings (HTML the sanitizer removes). */
  warned: boolean;
  /** SHA-256 hex of the bytes parsed, by file (relative): the item's own, and its base's (`base`). */
  bytes: Record<string, string>;
}

/** The options of `readContentRecords`: what to keep of each item, and files known unchanged. */
export interface ReadRecordsOptions<T extends ItemIdentity> extends ReadContentOptions {
  /** The record kept of a valid item (after its version took its fields from the default locale's). */
  keep: (item: ContentItem, context: KeepContext) => T | Promise<T>;
  /**
   * A file known unchanged (`studio push`: its lock's stat or hash of the file matches): its record, without
   * reading or validating the file; null to read it.
   */
  known?: (kind: ContentKind, file: string, absolutePath: string) => Promise<T | null>;
}

/** What `readContentRecords` returns: a `ContentSet` whose items are the records `keep` made. */
export interface RecordSet<T> {
  items: T[];
  issues: ContentIssue[];
  warnings: ContentIssue[];
}

/**
 * The content folder's items as records `keep` makes of them (`readContent` keeps the parsed item itself; `studio
 * push` a small record, issue #33 item 6: 200,000 files in < 1 GB): the checks, issues, warnings, duplicates
 * and versions `readContent` describes. The files are read `FILES_IN_FLIGHT` at a time; each item is handed to
 * `keep` once its version took its inherited fields, and then let go. The default-locale files of a kind are
 * read before the others, so a version finds its default-locale sibling's fields; of those only the inheritable
 * ones (not `translated`) and the image are held until the kind is read. A file `known` says is unchanged is not read at all; a version
 * whose sibling is such a file reads the sibling for its fields.
 */
export async function readContentRecords<T extends ItemIdentity>(
  root: string,
  options: ReadRecordsOptions<T>,
): Promise<RecordSet<T>> {
  const items: T[] = [];
  const issues: ContentIssue[] = [];
  const warnings: ContentIssue[] = await strayFiles(root);
  // A version without a default-locale sibling that lacks a required field: an issue once it is known that the
  // version is not held back by a duplicated slug (as `inheritFields` does for a list of items).
  const pendingMissing = new Map<T, ContentIssue[]>();
  for (const kind of Object.keys(CONTENT_KINDS) as ContentKind[]) {
    const folderName = CONTENT_KINDS[kind].folder;
    const folder = path.join(root, folderName);
    const refused = await linkIssues(root, folderName);
    issues.push(...refused.issues);
    warnings.push(...refused.warnings);
    if (refused.skipFolder) continue;
    const all = await listFiles(folder);
    const isDefault = (name: string) => localeOfFile(name).locale === DEFAULT_CONTENT_LOCALE;
    // The default-locale files first (all of them read before any other): each other version then finds the
    // fields it inherits.
    const defaults = all.filter(isDefault);
    const names = [...defaults, ...all.filter((n) => !isDefault(n))];
    /** Per slug, the default-locale version's inheritable fields and image (or its file, to read when needed). */
    const bases = new Map<
      string,
      {
        file: string;
        absolute: string;
        format: ContentItem["format"];
        item?: Pick<ContentItem, "frontMatter" | "image">;
        bytes?: string;
      }
    >();
    const readOptions = { ...options, digestBytes: true };
    const inheritable = inputFields(kind)
      .filter(([, f]) => !f.translated)
      .map(([name]) => name);
    const baseOf = async (slug: string) => {
      const base = bases.get(slug);
      if (!base) return null;
      if (!base.item) {
        const read = await readItem(kind, base.absolute, base.file, base.format, {
          ...readOptions,
          frontMatterOnly: true,
        });
        if ("item" in read)
          Object.assign(base, {
            item: { frontMatter: read.item.frontMatter, image: read.item.image },
            bytes: read.bytes,
          });
      }
      return base.item ? { file: base.file, item: base.item, bytes: base.bytes ?? "" } : null;
    };
    const read: T[] = [];
    for (let i = 0; i < names.length;) {
      const end = Math.min(i + FILES_IN_FLIGHT, i < defaults.length ? defaults.length : names.length);
      const chunk = names.slice(i, end);
      i = end;
      const results = await Promise.all(
        chunk.map(async (name) => {
          const format = contentFileFormat(name);
          const file = `${folderName}/${name}`;
          if (!format) {
            if (name.startsWith(".")) return null;
            const message = `ignored: only .md and .html files are read here; move it (images go in images/) or delete it`;
            return { issues: [], warnings: [{ file, field: "file", message }] };
          }
          const absolute = path.join(folder, name);
          const known = (await options.known?.(kind, file, absolute)) ?? null;
          if (known) {
            if (known.locale === DEFAULT_CONTENT_LOCALE) bases.set(known.slug, { file, absolute, format });
            return { record: known };
          }
          const result = await readItem(kind, absolute, file, format, readOptions);
          if (!("item" in result)) return result;
          const item = result.item;
          let base: string | null = null;
          let missing: ContentIssue[] = [];
          const bytes: Record<string, string> = { [file]: result.bytes ?? "" };
          if (item.locale === DEFAULT_CONTENT_LOCALE) {
            const fm = item.frontMatter as Record<string, unknown>;
            const kept = Object.fromEntries(inheritable.filter((n) => fm[n] !== undefined).map((n) => [n, fm[n]]));
            const inherit = { frontMatter: kept as ContentItem["frontMatter"], image: item.image };
            bases.set(item.slug, { file, absolute, format, item: inherit, bytes: result.bytes });
          } else {
            const found = await baseOf(item.slug);
            base = found?.file ?? null;
            if (found) bytes[found.file] = found.bytes;
            missing = inheritFrom(item, found?.item ?? null);
          }
          const record = await options.keep(item, { base, warned: (result.warnings?.length ?? 0) > 0, bytes });
          return { record, missing, warnings: result.warnings };
        }),
      );
      for (const result of results) {
        if (!result) continue;
        warnings.push(...(result.warnings ?? []));
        if ("issues" in result) issues.push(...result.issues);
        else {
          read.push(result.record);
          if ("missing" in result && result.missing?.length) pendingMissing.set(result.record, result.missing);
        }
      }
    }
    bases.clear();
    for (const record of withoutDuplicates(read, issues)) items.push(record);
  }
  const valid = items.filter((record) => {
    const missing = pendingMissing.get(record);
    if (missing) issues.push(...missing);
    return !missing;
  });
  // Default-locale versions first, as `readContent` orders them.
  return {
    items: [
      ...valid.filter((i) => i.locale === DEFAULT_CONTENT_LOCALE),
      ...valid.filter((i) => i.locale !== DEFAULT_CONTENT_LOCALE),
    ],
    issues,
    warnings,
  };
}

/**
 * Symbolic links among a kind's content files, and the kind's folder itself as a link (SECURITY C63): a link
 * that leads outside the content folder is refused (an issue; for the folder, none of its files is read), one
 * that stays inside is not read either (a warning): only regular files are content files.
 */
async function linkIssues(
  root: string,
  folder: string,
): Promise<{ issues: ContentIssue[]; warnings: ContentIssue[]; skipFolder: boolean }> {
  const issues: ContentIssue[] = [];
  const warnings: ContentIssue[] = [];
  const outside = async (target: string) => {
    try {
      await pathInside(root, target);
      return false;
    } catch (error) {
      if (error instanceof OutsideFolderError) return true;
      throw error;
    }
  };
  if (await outside(folder)) {
    const message = `is a symbolic link to a folder outside the content folder (${root}); refused, none of its files is read: move the files themselves into ${folder}/`;
    return { issues: [{ file: `${folder}/`, field: "file", message }], warnings, skipFolder: true };
  }
  let entries;
  try {
    entries = await readdir(path.join(root, folder), { withFileTypes: true });
  } catch {
    return { issues, warnings, skipFolder: false };
  }
  for (const entry of entries.filter((e) => e.isSymbolicLink() && contentFileFormat(e.name))) {
    const file = `${folder}/${entry.name}`;
    if (await outside(file)) {
      issues.push({
        file,
        field: "file",
        message: `is a symbolic link that leads outside the content folder (${root}); refused: put the file itself here`,
      });
    } else {
      warnings.push({
        file,
        field: "file",
        message: "ignored: a symbolic link; only regular files are read: put the file itself here",
      });
    }
  }
  return { issues, warnings, skipFolder: false };
}

/**
 * `items` (the valid files of one kind) without any version of a slug that two files declare in one locale:
 * each of those files gets an issue naming the others, and each other version of that slug one saying why
 * it is not written, all with `blocks` set to the version key they hold back. Which file is the real one
 * cannot be told (a copy keeps the slug it was copied with), so neither is written and push prunes nothing
 * of that slug.
 */
function withoutDuplicates<T extends ItemIdentity>(items: T[], issues: ContentIssue[]): T[] {
  // One entry a key, an array only for a key two files declare (issue #33 item 6: 200,000 items, each its own
  // array before).
  const first = new Map<string, T>();
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = itemKey(item);
    const seen = first.get(key);
    if (seen === undefined) first.set(key, item);
    else groups.set(key, [...(groups.get(key) ?? [seen]), item]);
  }
  first.clear();
  // In the order of each key's first file, as the files were read.
  const clashing = [...groups.values()].sort((a, b) => items.indexOf(a[0]!) - items.indexOf(b[0]!));
  if (clashing.length === 0) return items;
  const slugs = new Map(clashing.map((group) => [group[0]!.slug, group]));
  for (const group of clashing) {
    for (const item of group) {
      const others = group.filter((o) => o !== item).map((o) => o.file);
      issues.push({
        file: item.file,
        field: "slug",
        message:
          `"${item.slug}" (${item.locale}) is also the slug of ${others.join(", ")}; nothing is written for ` +
          `this slug until each file has its own: change the slug of the copy, or delete it`,
        blocks: { kind: item.kind, key: itemKey(item) },
      });
    }
  }
  return items.filter((item) => {
    const group = slugs.get(item.slug);
    if (!group) return true;
    if (!group.includes(item)) {
      issues.push({
        file: item.file,
        field: "slug",
        message: `not written: "${item.slug}" (${group[0]!.locale}) is the slug of ${group.map((o) => o.file).join(" and ")}; give each its own slug`,
        blocks: { kind: item.kind, key: itemKey(item) },
      });
    }
    return false;
  });
}

/** Formats issues as `file: field: message` lines, one per issue, for terminals and logs. */
export function formatIssues(issues: readonly ContentIssue[]): string {
  return issues.map((i) => `${i.file}: ${i.field}: ${i.message}`).join("\n");
}
