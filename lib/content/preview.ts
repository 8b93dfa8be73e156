/**
 * What `studio preview` shows of a draft (issue #7 item 4): its metadata, every validation result (front
 * matter, images, and for AI drafts the HTML content rules of spec §5), and the body as readable text.
 */
import { readFile, stat } from "node:fs/promises";
import { CONTENT_MODEL, kindFolders } from "../../model/model.ts";
import path from "node:path";
import { parseFrontMatter } from "./front-matter.ts";
import { CONTENT_KINDS, contentFileFormat, type ContentKind } from "../../model/content.ts";
import { checkHtmlRules, type RuleViolation } from "../html/rules.ts";
import { htmlToText } from "../html/text.ts";
import { bodyHtml } from "./body-html.ts";
import { readItem, type ContentIssue, type ContentItem } from "./read.ts";
import { AbortError, EXIT } from "../errors.ts";

export interface Preview {
  file: string;
  kind: ContentKind;
  /** Front matter as written (even when invalid). */
  frontMatter: Record<string, unknown>;
  item: ContentItem | null;
  issues: ContentIssue[];
  /** What is read but not as written (HTML the sanitizer removes). */
  warnings: ContentIssue[];
  /**
   * The content rules of spec §5 the body breaks; checked only for AI drafts (front matter `generated:`), as
   * `studio generate` applies them: a human post is never refused for them (issue #34).
   */
  rules: RuleViolation[];
  /** The body as plain text (rendered and sanitized first). */
  text: string;
}

/** Thrown when a path is not a content file `studio` knows. */
export class NotContentFileError extends AbortError {
  override name = "NotContentFileError";
  constructor(message: string, nextSteps?: string) {
    super(message, { exitCode: EXIT.usage, nextSteps });
  }
}

/** The kind of a content file from its folder (`ventures/` or `posts/`). */
export function kindOfFile(file: string): ContentKind | null {
  const folder = path.basename(path.dirname(path.resolve(file)));
  return (Object.keys(CONTENT_KINDS) as ContentKind[]).find((k) => CONTENT_KINDS[k].folder === folder) ?? null;
}

/**
 * Builds the preview of the content file at `file`.
 * @throws {NotContentFileError} when the file does not exist, is a folder, or is not a .md/.html file in a
 *   ventures/ or posts/ folder.
 */
export async function previewFile(file: string): Promise<Preview> {
  const kind = kindOfFile(file);
  const format = contentFileFormat(file);
  const expected = `a .md or .html file in a ${kindFolders("or")} folder, e.g. content/posts/my-post.md`;
  if (!kind || !format) {
    throw new NotContentFileError(`${file} is not a content file: expected ${expected}.`);
  }
  const absolute = path.resolve(file);
  const found = await stat(absolute).catch(() => null);
  if (!found?.isFile()) {
    throw new NotContentFileError(
      `${file} ${found ? "is a folder, not a file" : "does not exist"} (looked at ${absolute}).`,
      `Check the path (relative to the current folder); preview takes ${expected}.`,
    );
  }
  const raw = await readFile(absolute, "utf8");
  let frontMatter: Record<string, unknown> = {};
  try {
    frontMatter = parseFrontMatter(raw).data;
  } catch {
    // readItem reports the YAML error.
  }
  const display = path.relative(process.cwd(), absolute);
  const result = await readItem(kind, absolute, display, format);
  if ("issues" in result) {
    const body = raw.replace(/^---[\s\S]*?---/, "");
    const { issues, warnings = [] } = result;
    return { file: display, kind, frontMatter, item: null, issues, warnings, rules: [], text: htmlToText(body) };
  }
  const html = bodyHtml(result.item);
  return {
    file: display,
    kind,
    frontMatter,
    item: result.item,
    issues: [],
    warnings: result.warnings ?? [],
    rules: result.item.frontMatter.generated
      ? checkHtmlRules(html, { caseStudy: CONTENT_MODEL[kind].bodyRules === "caseStudy" })
      : [],
    text: htmlToText(html),
  };
}

/** A value of the front matter as one line: dates as `2026-03-14`, records as `key value, …`. */
export function displayValue(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (Array.isArray(value)) return value.map(displayValue).join(", ");
  if (value !== null && typeof value === "object") {
    return Object.entries(value)
      .map(([k, v]) =>
        k === "model" ? displayValue(v) : `${k} ${k === "topic" ? JSON.stringify(v) : displayValue(v)}`,
      )
      .join(", ");
  }
  return String(value);
}

/**
 * The preview as JSON data: a local image is described by its path, size and type (not its bytes).
 */
export function previewJson(preview: Preview): Record<string, unknown> {
  const image = preview.item?.image;
  const described =
    image && "bytes" in image
      ? { path: image.path, name: image.name, size: image.bytes.length, type: image.mimeType }
      : image;
  return { ...preview, item: preview.item ? { ...preview.item, image: described ?? null } : null };
}
