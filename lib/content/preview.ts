/**
 * What `studio preview` shows of a draft (issue #7 item 4): its metadata, every validation result (front
 * matter, images, and the HTML content rules of spec §5), and the body as readable text.
 */
import { CONTENT_MODEL } from "../../schemas/model.ts";
import { readFile } from "node:fs/promises";
import path from "node:path";
import matter from "gray-matter";
import { CONTENT_KINDS, type ContentKind } from "../../schemas/content.ts";
import { checkHtmlRules, type RuleViolation } from "../html/rules.ts";
import { htmlToText } from "../html/text.ts";
import { bodyHtml } from "../publish/documents.ts";
import { readItem, type ContentIssue, type ContentItem } from "./read.ts";

export interface Preview {
  file: string;
  kind: ContentKind;
  /** Front matter as written (even when invalid). */
  frontMatter: Record<string, unknown>;
  item: ContentItem | null;
  issues: ContentIssue[];
  rules: RuleViolation[];
  /** The body as plain text (rendered and sanitized first). */
  text: string;
}

/** Thrown when a path is not a content file `studio` knows. */
export class NotContentFileError extends Error {
  override name = "NotContentFileError";
}

const FORMATS: Record<string, ContentItem["format"]> = { ".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html" };

/** The kind of a content file from its folder (`ventures/` or `posts/`). */
export function kindOfFile(file: string): ContentKind | null {
  const folder = path.basename(path.dirname(path.resolve(file)));
  return (Object.keys(CONTENT_KINDS) as ContentKind[]).find((k) => CONTENT_KINDS[k].folder === folder) ?? null;
}

/**
 * Builds the preview of the content file at `file`.
 * @throws {NotContentFileError} when the file is not a .md/.html file in a ventures/ or posts/ folder.
 */
export async function previewFile(file: string): Promise<Preview> {
  const kind = kindOfFile(file);
  const format = FORMATS[path.extname(file).toLowerCase()];
  if (!kind || !format) {
    throw new NotContentFileError(`${file} is not a content file: expected a .md or .html file in a ventures/ or posts/ folder.`);
  }
  const absolute = path.resolve(file);
  const raw = await readFile(absolute, "utf8");
  let frontMatter: Record<string, unknown> = {};
  try {
    frontMatter = matter(raw, { language: "yaml" }).data;
  } catch {
    // readItem reports the YAML error.
  }
  const display = path.relative(process.cwd(), absolute);
  const result = await readItem(kind, absolute, display, format);
  if ("issues" in result) {
    const body = raw.replace(/^---[\s\S]*?---/, "");
    return { file: display, kind, frontMatter, item: null, issues: result.issues, rules: [], text: htmlToText(body) };
  }
  const html = bodyHtml(result.item);
  return {
    file: display,
    kind,
    frontMatter,
    item: result.item,
    issues: [],
    rules: checkHtmlRules(html, { caseStudy: CONTENT_MODEL[kind].bodyRules === "caseStudy" }),
    text: htmlToText(html),
  };
}
