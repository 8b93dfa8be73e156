/**
 * `studio translate`: drafts the missing or stale language version of content files with the AI (issue #15
 * item 4). The source file's translated fields, as `push` stores them, are translated (`translateFields`);
 * the version is written beside it as `<name>.<locale>.html` (a version being replaced keeps its own
 * extension) with `draft: true` (never published until a person removes it) and its provenance in
 * `translation:` (source locale, source hash, model, time, `reviewed: false`). The slug is the file name's,
 * never asked of the model. A version written or reviewed by a person is never replaced without `force`
 * (issue #26 item 10: a stale reviewed `.ar.md` was replaced by an `.ar.html` draft, unpublishing the page).
 */
import path from "node:path";
import writeFileAtomic from "write-file-atomic";
import {
  CONTENT_MODEL,
  DEFAULT_CONTENT_LOCALE,
  imageInput,
  kindFolders,
  inputFields,
  translatedFields,
  type ContentLocale,
} from "../../model/model.ts";
import { translateFields } from "./translate.ts";
import type { AiSettings } from "./gemini.ts";
import { formattedOrAsIs } from "../content/format.ts";
import { readContent, type ContentItem } from "../content/read.ts";
import { versionFile } from "../content/versions.ts";
import { serializeContentFile } from "../content/write.ts";
import { AbortError, EXIT } from "../errors.ts";
import { bodyHtml } from "../content/body-html.ts";
import { normalizeBody } from "../html/body.ts";
import { markdownToHtml } from "../html/markdown.ts";
import { readGlossary } from "../translate/glossary.ts";
import { itemTranslationHash } from "../translate/hash.ts";
import type { TranslationViolation } from "../translate/checks.ts";
import { fileVersion } from "../translate/files.ts";
import { versionState, type TranslationState, type VersionInfo } from "../translate/status.ts";

/** A file `studio translate` cannot translate: not a valid content file, or already in the target locale. */
export class TranslateInputError extends AbortError {
  override name = "TranslateInputError";
  constructor(message: string, exitCode: typeof EXIT.usage | typeof EXIT.invalidContent = EXIT.usage) {
    super(message, { exitCode });
  }
}

export interface TranslateFileResult {
  /** The source file, relative to the content folder. */
  source: string;
  /** The version written (or left alone), relative to the content folder. */
  file: string;
  /**
   * `written`, or `skipped` when the version exists and is not stale, or was written or reviewed by a person
   * (`reason` says which; `force` translates it anyway).
   */
  action: "written" | "skipped";
  /** Why a version was skipped, and what replaces it. */
  reason?: string;
  /** True when the version replaced was not a draft: the next push turns the published version into a draft. */
  unpublishes?: boolean;
  /** The version's state before this run. */
  before: TranslationState;
  violations: TranslationViolation[];
  repaired: boolean;
  model?: string;
}

/** The content-folder path of `given` (a path from the current folder, or already relative to `contentDir`). */
function relativeFile(contentDir: string, given: string): string {
  const inDir = path.relative(path.resolve(contentDir), path.resolve(given));
  return (inDir.startsWith("..") || path.isAbsolute(inDir) ? given : inDir).split(path.sep).join("/");
}

/**
 * Translates each of `files` to `to`.
 * @throws {TranslateInputError} for a file that is not a valid content file of `contentDir` (exit 1) or is
 * already in `to` (exit 2); the AI errors of `translateFields` (exit 3), before anything of that file is written.
 */
export async function translateFiles(
  settings: AiSettings,
  options: { contentDir: string; files: readonly string[]; to: ContentLocale; force?: boolean; now?: Date },
): Promise<TranslateFileResult[]> {
  const { items, issues } = await readContent(options.contentDir);
  const glossary = await readGlossary(options.contentDir);
  const results: TranslateFileResult[] = [];
  for (const given of options.files) {
    const relative = relativeFile(options.contentDir, given);
    const problem = issues.find((i) => i.file === relative);
    if (problem) {
      throw new TranslateInputError(
        `${relative}: ${problem.field}: ${problem.message}; fix it, then translate it.`,
        EXIT.invalidContent,
      );
    }
    const source = items.find((i) => i.file === relative);
    if (!source) {
      throw new TranslateInputError(
        `${given} is not a content file of ${options.contentDir}; name a file in ${kindFolders("or")}.`,
      );
    }
    if (source.locale === options.to) {
      throw new TranslateInputError(
        `${relative} is already in ${options.to}; name the file of the other language, or another --to.`,
      );
    }
    results.push(await translateOne(settings, options, source, items, glossary));
  }
  return results;
}

async function translateOne(
  settings: AiSettings,
  options: { contentDir: string; to: ContentLocale; force?: boolean; now?: Date },
  source: ContentItem,
  items: readonly ContentItem[],
  glossary: Awaited<ReturnType<typeof readGlossary>>,
): Promise<TranslateFileResult> {
  const existing = items.find((i) => i.kind === source.kind && i.slug === source.slug && i.locale === options.to);
  const byLocale = new Map<ContentLocale, VersionInfo>(
    items.filter((i) => i.kind === source.kind && i.slug === source.slug).map((i) => [i.locale, fileVersion(i)]),
  );
  const before: TranslationState = existing ? versionState(fileVersion(existing), byLocale) : "missing";
  // A version being replaced keeps its file (and so its format): `x.ar.md` stays `x.ar.md`.
  const target = existing?.file ?? versionFile(source.file, options.to, ".html");
  const kept = existing && !options.force ? keepReason(existing, before) : null;
  if (existing && kept !== null) {
    const skipped = { source: source.file, file: existing.file, action: "skipped" as const, before };
    return { ...skipped, ...(kept ? { reason: kept } : {}), violations: [], repaired: false };
  }

  const body = CONTENT_MODEL[source.kind].body;
  const frontMatter = source.frontMatter as Record<string, unknown>;
  const sourceFields = Object.fromEntries(
    translatedFields(source.kind).map((n) => [n, n === body ? bodyHtml(source) : String(frontMatter[n] ?? "")]),
  );
  const translation = await translateFields(settings, {
    kind: source.kind,
    from: source.locale,
    to: options.to,
    source: sourceFields,
    glossary,
  });

  const written: Record<string, unknown> = {};
  if (frontMatter.slug) written.slug = source.slug;
  for (const [name, field] of inputFields(source.kind)) {
    if (field.translated) written[name] = translation.fields[name];
    // A default-locale version inherits nothing: it carries the other fields itself.
    else if (options.to === DEFAULT_CONTENT_LOCALE) written[name] = frontMatter[name];
  }
  const imageKey = imageInput(source.kind);
  if (options.to === DEFAULT_CONTENT_LOCALE) written[imageKey] = frontMatter[imageKey];
  written.draft = true;
  written.translation = {
    sourceLocale: source.locale,
    sourceHash: itemTranslationHash(source),
    model: translation.model,
    translatedAt: (options.now ?? new Date()).toISOString(),
    reviewed: false,
  };
  const html = await formattedOrAsIs("html", translation.fields[body]!);
  const text = serializeContentFile(source.kind, written, existing?.format === "markdown" ? markdownBody(html) : html);
  await writeFileAtomic(path.join(options.contentDir, target), text);
  return {
    source: source.file,
    file: target,
    action: "written",
    ...(existing && !existing.draft ? { unpublishes: true } : {}),
    before,
    violations: translation.violations,
    repaired: translation.repaired,
    model: translation.model,
  };
}

/**
 * Why `existing` is left alone without `force`: "" when it is not stale (nothing to do), a sentence when a
 * person wrote it (no `translation:` map) or reviewed it, null when it is a stale machine draft to replace.
 */
function keepReason(existing: ContentItem, state: TranslationState): string | null {
  const translation = existing.frontMatter.translation;
  const replace = "--force replaces it with a new AI draft (draft: true)";
  if (!translation) return `written by a person (no translation: map), left as is; ${replace}`;
  if (translation.reviewed) {
    const stale = state === "stale" ? "its source changed since: update it by hand and `studio review` it, or " : "";
    return `reviewed by a person, left as is; ${stale}${replace}`;
  }
  return state === "stale" ? null : "";
}

/**
 * The translated HTML body as the body of a Markdown file (a `.md` version keeps its extension): raw HTML is
 * Markdown, read as one HTML block as long as no line is blank, so blank lines are dropped (whitespace
 * between block tags means nothing in HTML). Checked: it must render to the same HTML.
 * @throws {TranslateInputError} (exit 1) when it would not (e.g. a `<pre>` with blank lines), before anything is written.
 */
function markdownBody(html: string): string {
  const markdown = html
    .split("\n")
    .filter((line) => line.trim() !== "")
    .join("\n");
  if (markdownToHtml(markdown) !== normalizeBody(html)) {
    throw new TranslateInputError(
      "the translation cannot be kept as Markdown without changing it; rename the version to .html, then translate it again.",
      EXIT.invalidContent,
    );
  }
  return markdown;
}
