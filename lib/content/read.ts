/**
 * The content codec: reads `content/ventures/*` and `content/posts/*` (Markdown or HTML with YAML front
 * matter), validates them against `model/content.ts`, and checks every referenced local image.
 * Invalid files are reported with the file and the field, never half-accepted.
 */
import { readFile as readFileCallback, readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { promisify } from "node:util";
import path from "node:path";
import { parseFrontMatter } from "./front-matter.ts";
import { readImage } from "./local-image.ts";
import { readBodyImages } from "./read-body-images.ts";
import { OutsideFolderError, pathInside } from "./inside.ts";
import { htmlBoundMessage } from "../html/bounds.ts";
import { removedParts } from "../html/sanitize.ts";
import { issueMessage, yamlMessage } from "./messages.ts";
import { bodyBoundViolation } from "../html/markdown.ts";
import {
  CONTENT_KINDS,
  SLUG_PATTERN,
  frontMatterSchema,
  type ContentKind,
  type PostFrontMatter,
  type VentureFrontMatter,
} from "../../model/content.ts";
import { CONTENT_KIND_NAMES, imageInput, inputFields, DEFAULT_CONTENT_LOCALE } from "../../model/model.ts";
import { inheritFrom, itemKey, localeOfFile } from "./versions.ts";
import { strayFolderWarnings } from "./stray-folders.ts";
import type { ContentIssue, ContentItem, ContentSet } from "./item.ts";
import type { z } from "zod";

import { bodyDigest, type ReadContentOptions, sha256Hex } from "./body-digest.ts";

export { bodyDigest, type ReadContentOptions } from "./body-digest.ts";
export type { ContentIssue, ContentItem, ContentSet, LocalImage, PostItem, VentureItem } from "./item.ts";

/**
 * `fs.readFile` with a callback, promisified: one request to libuv per file, where `fs/promises`' `readFile`
 * opens a `FileHandle`, stats and reads in several promise hops (3–4× the CPU for a small content file; issue
 * #33 item 5, a re-push reads every file).
 */
const readFile = promisify(readFileCallback);


/** Content files read at once by `readContent`. */
const FILES_IN_FLIGHT = 32;

const EXTENSIONS: Record<string, ContentItem["format"]> = { ".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html" };
/** The front matter schema of each kind, built once from its description. */
const FRONT_MATTER = Object.fromEntries(CONTENT_KIND_NAMES.map((kind) => [kind, frontMatterSchema(kind)])) as {
  [K in ContentKind]: ReturnType<typeof frontMatterSchema<K>>;
};
/** The same for versions in another locale (`x.ar.md`), which may leave untranslated fields out. */
const VERSION_FRONT_MATTER = Object.fromEntries(
  CONTENT_KIND_NAMES.map((kind) => [kind, frontMatterSchema(kind, true)]),
) as typeof FRONT_MATTER;

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
 * `keep` once its version took its inherited fields, and then let go. The default-locale files of a kind are read before the others, so
 * a version finds its default-locale sibling's fields; of those only the inheritable ones (not `translated`)
 * and the image are held until the kind is read. A file `known` says is unchanged is not read at all; a version
 * whose sibling is such a file reads the sibling for its fields.
 */
export async function readContentRecords<T extends ItemIdentity>(root: string, options: ReadRecordsOptions<T>): Promise<RecordSet<T>> {
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
      { file: string; absolute: string; format: ContentItem["format"]; item?: Pick<ContentItem, "frontMatter" | "image">; bytes?: string }
    >();
    const readOptions = { ...options, digestBytes: true };
    const inheritable = inputFields(kind).filter(([, f]) => !f.translated).map(([name]) => name);
    const baseOf = async (slug: string) => {
      const base = bases.get(slug);
      if (!base) return null;
      if (!base.item) {
        const read = await readItem(kind, base.absolute, base.file, base.format, { ...readOptions, frontMatterOnly: true });
        if ("item" in read) Object.assign(base, { item: { frontMatter: read.item.frontMatter, image: read.item.image }, bytes: read.bytes });
      }
      return base.item ? { file: base.file, item: base.item, bytes: base.bytes ?? "" } : null;
    };
    const read: T[] = [];
    for (let i = 0; i < names.length; ) {
      const end = Math.min(i + FILES_IN_FLIGHT, i < defaults.length ? defaults.length : names.length);
      const chunk = names.slice(i, end);
      i = end;
      const results = await Promise.all(
        chunk.map(async (name) => {
          const format = EXTENSIONS[path.extname(name).toLowerCase()];
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
    items: [...valid.filter((i) => i.locale === DEFAULT_CONTENT_LOCALE), ...valid.filter((i) => i.locale !== DEFAULT_CONTENT_LOCALE)],
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
  for (const entry of entries.filter((e) => e.isSymbolicLink() && EXTENSIONS[path.extname(e.name).toLowerCase()])) {
    const file = `${folder}/${entry.name}`;
    if (await outside(file)) {
      issues.push({ file, field: "file", message: `is a symbolic link that leads outside the content folder (${root}); refused: put the file itself here` });
    } else {
      warnings.push({ file, field: "file", message: "ignored: a symbolic link; only regular files are read: put the file itself here" });
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

/** Content files (.md, .html) `readContent` does not read: in `root` itself, or in subfolders of a kind's folder. */
async function strayFiles(root: string): Promise<ContentIssue[]> {
  const folders = (Object.keys(CONTENT_KINDS) as ContentKind[]).map((k) => CONTENT_KINDS[k].folder);
  const where = `content files live directly in ${folders.map((f) => `${f}/`).join(" or ")}`;
  const warnings: ContentIssue[] = [];
  for (const name of await listFiles(root)) {
    if (EXTENSIONS[path.extname(name).toLowerCase()]) {
      warnings.push({ file: name, field: "file", message: `ignored: ${where}; move it there, or delete it` });
    }
  }
  for (const folder of folders) {
    for (const file of await nestedContentFiles(path.join(root, folder), folder)) {
      warnings.push({ file, field: "file", message: `ignored: subfolders are not read (${where}); move it up, or delete it` });
    }
  }
  warnings.push(...(await strayFolderWarnings(root)));
  return warnings;
}

async function nestedContentFiles(dir: string, relative: string, depth = 0): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = `${relative}/${entry.name}`;
    if (entry.isDirectory() && depth < 4) found.push(...(await nestedContentFiles(path.join(dir, entry.name), rel, depth + 1)));
    else if (depth > 0 && entry.isFile() && EXTENSIONS[path.extname(entry.name).toLowerCase()]) found.push(rel);
  }
  return found;
}

async function listFiles(folder: string): Promise<string[]> {
  try {
    const entries = await readdir(folder, { withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => e.name).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/**
 * Reads and validates one content file of `kind` at `absolutePath` (reported as `file`). Its content folder
 * is the parent of its kind's folder: a local image must be inside it.
 * @returns the item, or every issue found in it; either with `warnings` when there are some (HTML the
 *   sanitizer removes).
 */
export async function readItem(
  kind: ContentKind,
  absolutePath: string,
  file: string,
  format: ContentItem["format"],
  options: ReadContentOptions = {},
): Promise<({ item: ContentItem; bytes?: string } | { issues: ContentIssue[] }) & { warnings?: ContentIssue[] }> {
  const issues: ContentIssue[] = [];
  const warnings: ContentIssue[] = [];
  const raw = options.readSync ? readFileSync(absolutePath) : await readFile(absolutePath);
  const text = textOf(raw);
  if (text === null) {
    const message =
      "is not a text file (it holds binary data, e.g. an image saved with a .md name); content files are UTF-8 " +
      "Markdown or HTML with front matter: move it to images/ if it is an image, or delete it";
    return { issues: [{ file, field: "file", message }] };
  }
  let parsed: ReturnType<typeof parseFrontMatter>;
  try {
    parsed = parseFrontMatter(text);
  } catch (error) {
    return { issues: [{ file, field: "front matter", message: yamlMessage(error) }] };
  }

  const { locale, stem } = localeOfFile(absolutePath);
  const schema = locale === DEFAULT_CONTENT_LOCALE ? FRONT_MATTER[kind] : VERSION_FRONT_MATTER[kind];
  const result = (schema as z.ZodType<VentureFrontMatter | PostFrontMatter>).safeParse(parsed.data);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = issue.code === "unrecognized_keys" ? "front matter" : issue.path.join(".") || "front matter";
      issues.push({ file, field, message: issueMessage(kind, issue, parsed.data) });
    }
  }

  const slug = result.success && result.data.slug ? result.data.slug : stem;
  if (!(result.success && result.data.slug) && !SLUG_PATTERN.test(slug)) {
    issues.push({ file, field: "slug", message: `the file name "${stem}" is not a valid slug; add a slug field (lowercase-words-with-hyphens)` });
  }

  const body = parsed.content.trim();
  if (!body) issues.push({ file, field: "body", message: "is empty; write the text below the front matter" });
  const checked =
    options.frontMatterOnly ||
    options.boundsChecked ||
    (options.checkedBodies?.size ? options.checkedBodies.has(bodyDigest(format, body)) : false);
  const tooComplex = body && !checked ? bodyBoundViolation(body, format) : null;
  if (tooComplex) issues.push({ file, field: "body", message: htmlBoundMessage(tooComplex) });
  else if (body && !options.frontMatterOnly) {
    for (const part of removedParts(body)) {
      warnings.push({
        file,
        field: "body",
        message: `removed ${part} (not allowed): the site never shows or runs it; delete it from the file to silence this warning`,
      });
    }
  }

  let image: ContentItem["image"] = null;
  const imageField = imageInput(kind);
  const ref = result.success ? (result.data as Record<string, unknown>)[imageField] : undefined;
  if (typeof ref === "string") {
    const checked = await readImage(path.dirname(absolutePath), ref, path.dirname(path.dirname(absolutePath)));
    if (typeof checked === "string") issues.push({ file, field: imageField, message: checked });
    else image = checked;
  }

  // The body's own images (issue #30 item 4), once the body is known to be within bounds.
  let bodyImages: ContentItem["bodyImages"];
  if (body && !tooComplex && !options.frontMatterOnly) {
    const found = await readBodyImages(text, body, format, absolutePath, file, path.dirname(path.dirname(absolutePath)));
    issues.push(...found.issues);
    if (found.images.length > 0) bodyImages = found.images;
  }

  const warned = warnings.length > 0 ? { warnings } : {};
  if (issues.length > 0 || !result.success) return { issues, ...warned };
  const common = { file, slug, locale, draft: result.data.draft ?? false, format, body, image, ...(bodyImages ? { bodyImages } : {}) };
  const item = { kind, ...common, frontMatter: result.data } as ContentItem;
  return { item, ...warned, ...(options.digestBytes ? { bytes: sha256Hex(raw) } : {}) };
}

/** The UTF-8 text of a file, or null when it is binary (a NUL byte, or bytes that are not UTF-8). */
function textOf(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Formats issues as `file: field: message` lines, one per issue, for terminals and logs. */
export function formatIssues(issues: readonly ContentIssue[]): string {
  return issues.map((i) => `${i.file}: ${i.field}: ${i.message}`).join("\n");
}
