/**
 * Translation state and review of the language versions in `content/` (issue #15 items 4–5).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseFrontMatter } from "../content/front-matter.ts";
import writeFileAtomic from "write-file-atomic";
import { readContent, type ContentItem, type ContentIssue } from "../content/read.ts";
import { serializeContentFile } from "../content/write.ts";
import { AbortError, EXIT } from "../errors.ts";
import { CONTENT_MODEL, CONTENT_KIND_NAMES, kindFolders, type ContentKind } from "../../model/model.ts";
import { itemTranslationHash } from "./hash.ts";
import { translationStatus, type TranslationRow, type VersionInfo } from "./status.ts";

/** The status input of a content file's version. */
export function fileVersion(item: ContentItem): VersionInfo {
  const t = item.frontMatter.translation;
  return {
    kind: item.kind,
    slug: item.slug,
    locale: item.locale,
    draft: item.draft,
    hash: itemTranslationHash(item),
    translation: t ? { sourceLocale: t.sourceLocale, sourceHash: t.sourceHash ?? null, reviewed: t.reviewed } : null,
    where: item.file,
  };
}

/**
 * The translation state of every item × locale in `contentDir` (`translationStatus`), and the files that
 * could not be read (left out).
 * @throws only for I/O errors other than a missing folder.
 */
export async function contentStatus(contentDir: string): Promise<{ rows: TranslationRow[]; issues: ContentIssue[] }> {
  const { items, issues } = await readContent(contentDir);
  return { rows: translationStatus(items.map(fileVersion)), issues };
}

/** Thrown for a file `studio review` cannot mark: not a translated content file of `contentDir`. */
export class ReviewError extends AbortError {
  override name = "ReviewError";
  constructor(message: string) {
    super(message, { exitCode: EXIT.invalidContent });
  }
}

/** The kind whose folder holds `file` (relative to the content folder), or null. */
function kindOfFile(relative: string): ContentKind | null {
  const folder = relative.split("/")[0];
  return CONTENT_KIND_NAMES.find((k) => CONTENT_MODEL[k].folder === folder) ?? null;
}

/**
 * Marks translated versions reviewed (issue #15 item 5): in each file's `translation:` map sets
 * `reviewed: true` and `sourceHash` to the source version's current hash, so `studio status` reports it
 * `up-to-date`. The same edit can be made by hand. Files are named from the current folder or the content
 * folder.
 * @returns the files changed, relative to `contentDir`.
 * @throws {ReviewError} for a file that is not a valid translated version with its source in `contentDir`.
 */
export async function markReviewed(contentDir: string, files: readonly string[]): Promise<string[]> {
  const { items, issues } = await readContent(contentDir);
  const marked: string[] = [];
  for (const given of files) {
    const absolute = path.resolve(given);
    const inDir = path.relative(path.resolve(contentDir), absolute);
    const relative = (inDir.startsWith("..") ? given : inDir).split(path.sep).join("/");
    const problem = issues.find((i) => i.file === relative);
    if (problem) throw new ReviewError(`${relative}: ${problem.field}: ${problem.message}; fix it, then review it.`);
    const item = items.find((i) => i.file === relative);
    const kind = kindOfFile(relative);
    if (!item || !kind)
      throw new ReviewError(`${given} is not a content file of ${contentDir}; name a file in ${kindFolders("or")}.`);
    const translation = item.frontMatter.translation;
    if (!translation) {
      throw new ReviewError(
        `${relative} has no translation: map (it is an original); only translated versions are reviewed.`,
      );
    }
    const source = items.find((i) => i.kind === kind && i.slug === item.slug && i.locale === translation.sourceLocale);
    if (!source) {
      throw new ReviewError(
        `${relative}: its source (${translation.sourceLocale}) is missing; restore it, or remove translation.sourceLocale.`,
      );
    }
    const absoluteFile = path.join(contentDir, relative);
    const parsed = parseFrontMatter(await readFile(absoluteFile, "utf8"));
    const data = parsed.data as Record<string, unknown>;
    data.translation = { ...(data.translation as object), sourceHash: itemTranslationHash(source), reviewed: true };
    await writeFileAtomic(absoluteFile, serializeContentFile(kind, data, parsed.content));
    marked.push(relative);
  }
  return marked;
}
