/**
 * `studio format`: content files with normalized front matter and bodies formatted by Prettier (HTML: two
 * spaces per nesting level; Markdown: Prettier's Markdown style). Only valid files are formatted.
 */
import { readFile } from "node:fs/promises";
import writeFileAtomic from "write-file-atomic";
import path from "node:path";
import { formatHtml, formatMarkdown } from "../html/format.ts";
import { AbortError, EXIT } from "../errors.ts";
import { readContent, type ContentIssue, type ContentItem } from "./read.ts";
import { serializeContentFile } from "./write.ts";
import { kindFolders } from "../../model/model.ts";

export interface FormatResult {
  /** Files (relative to the content root) whose text changed, or would change with `check`. */
  changed: string[];
  unchanged: string[];
  /** Invalid files are not formatted. */
  issues: ContentIssue[];
  /** Files not read, and HTML the sanitizer removes (as `push` warns). */
  warnings: ContentIssue[];
}

/** A body as `studio format` writes it. @throws {Error} when Prettier cannot parse it. */
export function formatBody(format: ContentItem["format"], body: string): Promise<string> {
  return format === "html" ? formatHtml(body) : formatMarkdown(body);
}

/**
 * A body as `studio format` writes it, or as it is when Prettier cannot parse it (for writers such as
 * `pull` and `generate`, whose files `format --check` then passes).
 */
export async function formattedOrAsIs(format: ContentItem["format"], body: string): Promise<string> {
  try {
    return await formatBody(format, body);
  } catch {
    return body;
  }
}

/** The formatted text of one valid content item. @throws {Error} when Prettier cannot parse the body. */
export async function formatItem(item: ContentItem): Promise<string> {
  const body = await formatBody(item.format, item.body);
  // Fields a translated version takes from its default-locale version are not in its file: kept out.
  const inherited = new Set(item.inherited ?? []);
  const frontMatter = Object.fromEntries(Object.entries(item.frontMatter).filter(([key]) => !inherited.has(key)));
  return serializeContentFile(item.kind, frontMatter, body);
}

/**
 * `files` as paths relative to `contentDir`: each may be given relative to the current folder
 * (`content/posts/x.md`) or to the content folder (`posts/x.md`).
 */
function relativeToContent(contentDir: string, files: string[]): string[] {
  const root = path.resolve(contentDir);
  return files.map((f) => {
    const inside = path.relative(root, path.resolve(f));
    const relative = !inside.startsWith("..") && !path.isAbsolute(inside) ? inside : path.normalize(f);
    return relative.split(path.sep).join("/");
  });
}

/**
 * Formats every content file under `contentDir` (or only `files`, paths relative to it); with `check`,
 * writes nothing and reports what would change.
 * @throws {AbortError} (exit 2) when one of `files` is not a content file of `contentDir`.
 */
export async function formatContent(
  contentDir: string,
  options: { check?: boolean; files?: string[] } = {},
): Promise<FormatResult> {
  const { items, issues, warnings } = await readContent(contentDir);
  const wanted = options.files && relativeToContent(contentDir, options.files);
  const known = new Set([...items.map((i) => i.file), ...issues.map((i) => i.file)]);
  const unknown = wanted?.filter((f) => !known.has(f)) ?? [];
  if (unknown.length > 0) {
    throw new AbortError(
      `${unknown.join(", ")}: no such content file in ${path.resolve(contentDir)} (format reads .md and .html files in ${kindFolders("and")}).`,
      {
        exitCode: EXIT.usage,
        nextSteps:
          "Give paths relative to the current folder (content/posts/x.md) or to --dir (posts/x.md), or no path to format every file.",
      },
    );
  }
  const only = (list: ContentIssue[]) => (wanted ? list.filter((i) => wanted.includes(i.file)) : list);
  const result: FormatResult = { changed: [], unchanged: [], issues: only(issues), warnings: only(warnings) };
  for (const item of items) {
    if (wanted && !wanted.includes(item.file)) continue;
    const absolute = path.join(contentDir, item.file);
    const before = await readFile(absolute, "utf8");
    let after: string;
    try {
      after = await formatItem(item);
    } catch (error) {
      result.issues.push({
        file: item.file,
        field: "body",
        message: `cannot be formatted: ${(error as Error).message.split("\n")[0]}`,
      });
      continue;
    }
    if (after === before) {
      result.unchanged.push(item.file);
      continue;
    }
    result.changed.push(item.file);
    if (!options.check) await writeFileAtomic(absolute, after); // never a half-formatted file
  }
  return result;
}
