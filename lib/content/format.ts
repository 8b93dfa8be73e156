/**
 * `studio format`: content files with normalized front matter and bodies formatted by Prettier (HTML: two
 * spaces per nesting level; Markdown: Prettier's Markdown style). Only valid files are formatted.
 */
import { readFile } from "node:fs/promises";
import writeFileAtomic from "write-file-atomic";
import path from "node:path";
import { formatHtml, formatMarkdown } from "../html/format.ts";
import { readContent, type ContentIssue, type ContentItem } from "./read.ts";
import { serializeContentFile } from "./write.ts";

export interface FormatResult {
  /** Files (relative to the content root) whose text changed, or would change with `check`. */
  changed: string[];
  unchanged: string[];
  /** Invalid files are not formatted. */
  issues: ContentIssue[];
}

/** The formatted text of one valid content item. @throws {Error} when Prettier cannot parse the body. */
export async function formatItem(item: ContentItem): Promise<string> {
  const body = item.format === "html" ? await formatHtml(item.body) : await formatMarkdown(item.body);
  return serializeContentFile(item.kind, item.frontMatter as Record<string, unknown>, body);
}

/**
 * Formats every content file under `contentDir` (or only `files`, paths relative to it); with `check`,
 * writes nothing and reports what would change.
 */
export async function formatContent(
  contentDir: string,
  options: { check?: boolean; files?: string[] } = {},
): Promise<FormatResult> {
  const { items, issues } = await readContent(contentDir);
  const wanted = options.files?.map((f) => path.normalize(f).split(path.sep).join("/"));
  const result: FormatResult = { changed: [], unchanged: [], issues };
  for (const item of items) {
    if (wanted && !wanted.includes(item.file)) continue;
    const absolute = path.join(contentDir, item.file);
    const before = await readFile(absolute, "utf8");
    let after: string;
    try {
      after = await formatItem(item);
    } catch (error) {
      result.issues.push({ file: item.file, field: "body", message: `cannot be formatted: ${(error as Error).message.split("\n")[0]}` });
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
