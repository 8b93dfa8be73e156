/**
 * One content file read and validated (`readItem`): its text, front matter against its kind's schema
 * (`model/content.ts`), slug, body bounds and what the sanitizer would remove, and its local images. The
 * folder-level reads (`read.ts`) call it for each file.
 */
import { readFile as readFileCallback, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { z } from "zod";
import {
  SLUG_PATTERN,
  frontMatterSchema,
  type ContentKind,
  type PostFrontMatter,
  type VentureFrontMatter,
} from "../../model/content.ts";
import { CONTENT_KIND_NAMES, DEFAULT_CONTENT_LOCALE, imageInput } from "../../model/model.ts";
import { htmlBoundMessage } from "../html/bounds.ts";
import { bodyBoundViolation } from "../html/markdown.ts";
import { removedParts } from "../html/sanitize.ts";
import { bodyDigest, sha256Hex, type ReadContentOptions } from "./body-digest.ts";
import { parseFrontMatter } from "./front-matter.ts";
import type { ContentIssue, ContentItem } from "./item.ts";
import { readImage } from "./local-image.ts";
import { issueMessage, yamlMessage } from "./messages.ts";
import { readBodyImages } from "./read-body-images.ts";
import { localeOfFile } from "./versions.ts";

/**
 * `fs.readFile` with a callback, promisified: one request to libuv per file, where `fs/promises`' `readFile`
 * opens a `FileHandle`, stats and reads in several promise hops (3–4× the CPU for a small content file; issue
 * #33 item 5, a re-push reads every file).
 */
const readFile = promisify(readFileCallback);

/** The front matter schema of each kind, built once from its description. */
const FRONT_MATTER = Object.fromEntries(CONTENT_KIND_NAMES.map((kind) => [kind, frontMatterSchema(kind)])) as {
  [K in ContentKind]: ReturnType<typeof frontMatterSchema<K>>;
};
/** The same for versions in another locale (`x.ar.md`), which may leave untranslated fields out. */
const VERSION_FRONT_MATTER = Object.fromEntries(
  CONTENT_KIND_NAMES.map((kind) => [kind, frontMatterSchema(kind, true)]),
) as typeof FRONT_MATTER;

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
    issues.push({
      file,
      field: "slug",
      message: `the file name "${stem}" is not a valid slug; add a slug field (lowercase-words-with-hyphens)`,
    });
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
    const found = await readBodyImages(
      text,
      body,
      format,
      absolutePath,
      file,
      path.dirname(path.dirname(absolutePath)),
    );
    issues.push(...found.issues);
    if (found.images.length > 0) bodyImages = found.images;
  }

  const warned = warnings.length > 0 ? { warnings } : {};
  if (issues.length > 0 || !result.success) return { issues, ...warned };
  const common = {
    file,
    slug,
    locale,
    draft: result.data.draft ?? false,
    format,
    body,
    image,
    ...(bodyImages ? { bodyImages } : {}),
  };
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
