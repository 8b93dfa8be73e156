/**
 * `studio translate`: drafts the missing or stale language version of content files with the AI (issue #15
 * item 4). The source file's translated fields, as `push` stores them, are translated (`translateFields`);
 * the version is written beside it as `<name>.<locale>.html` with `draft: true` (never published until a
 * person removes it) and its provenance in `translation:` (source locale, source hash, model, time,
 * `reviewed: false`). The slug is the file name's, never asked of the model.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import writeFileAtomic from "write-file-atomic";
import {
  CONTENT_MODEL,
  DEFAULT_CONTENT_LOCALE,
  imageInput,
  inputFields,
  translatedFields,
  type ContentLocale,
} from "../../schemas/model.ts";
import { translateFields } from "../ai/translate.ts";
import type { AiSettings } from "../ai/gemini.ts";
import { formattedOrAsIs } from "../content/format.ts";
import { readContent, type ContentItem } from "../content/read.ts";
import { versionFile } from "../content/versions.ts";
import { serializeContentFile } from "../content/write.ts";
import { AbortError, EXIT } from "../errors.ts";
import { bodyHtml } from "../publish/documents.ts";
import { readGlossary } from "./glossary.ts";
import { itemTranslationHash } from "./hash.ts";
import type { TranslationViolation } from "./checks.ts";
import { fileVersion } from "./files.ts";
import { versionState, type TranslationState, type VersionInfo } from "./status.ts";

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
  /** `written`, or `skipped` when the version exists and is not stale (`force` translates it anyway). */
  action: "written" | "skipped";
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
        `${given} is not a content file of ${options.contentDir}; name a file in ventures/ or posts/.`,
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
  const target = versionFile(source.file, options.to, ".html");
  if (existing && before !== "stale" && !options.force) {
    return { source: source.file, file: existing.file, action: "skipped", before, violations: [], repaired: false };
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
  const text = serializeContentFile(source.kind, written, await formattedOrAsIs("html", translation.fields[body]!));
  await writeFileAtomic(path.join(options.contentDir, target), text);
  if (existing && existing.file !== target) await rm(path.join(options.contentDir, existing.file), { force: true });
  return {
    source: source.file,
    file: target,
    action: "written",
    before,
    violations: translation.violations,
    repaired: translation.repaired,
    model: translation.model,
  };
}
