import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { dateField, PUBLISH_AT_COLUMN } from "../../model/lifecycle.ts";
import { CONTENT_LOCALES, CONTENT_MODEL, DEFAULT_CONTENT_LOCALE, imageInput, kindFolders } from "../../model/model.ts";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Command } from "commander";
import type { Preview } from "../../lib/content/preview.ts";
import type { ContentItem } from "../../lib/content/read.ts";
import type { PushResult } from "../../lib/publish/push.ts";
import type { TranslationState } from "../../lib/translate/status.ts";
import { interactive, port } from "../command-kit.ts";
import { EXIT, UsageError } from "../exit-codes.ts";
import { emitJson } from "../output.ts";

export interface PreviewCommandOptions {
  json?: boolean;
  web?: boolean;
  port?: number;
  interactive: boolean;
}

/** Declares `studio preview <file>` and its flags on `program`. */
export function registerPreview(program: Command): void {
  program
    .command("preview")
    .description(
      "Show a draft: metadata, validation and content rules, and the body as text; --web serves it in both locales.",
    )
    .argument("<file>", `a .md or .html file in ${kindFolders("or", "content/", false)}`)
    .option("--web", "serve the draft through the real site on a local port (nothing is published)")
    .option("--port <port>", "port for --web", port, 0)
    .option("--json", "print the preview as JSON")
    .action(async (file: string, options: Omit<PreviewCommandOptions, "interactive">) => {
      process.exitCode = await runPreview(file, { ...options, interactive: await interactive(options.json) });
    });
}

/** The line of a file without problems: an AI draft also follows the content rules it is held to. */
export function validLine(preview: Pick<Preview, "frontMatter">): string {
  return preview.frontMatter.generated ? "✓ valid, and follows the content rules of AI drafts" : "✓ valid";
}

function plain(preview: Preview, displayValue: (value: unknown) => string, translation: string | null): string {
  const lines = [`${preview.kind} · ${preview.file}`];
  for (const [key, value] of Object.entries(preview.frontMatter)) {
    lines.push(`  ${key.padEnd(17)}${displayValue(value)}`);
  }
  if (translation) lines.push(`  ${"status".padEnd(17)}${translation}`);
  const problems = [
    ...preview.issues.map((i) => `${i.field}: ${i.message}`),
    ...preview.rules.map((r) => `content rule: ${r.message}`),
  ];
  lines.push(
    ...(problems.length ? problems.map((p) => `✗ ${p}`) : [validLine(preview)]),
    ...preview.warnings.map((w) => `! ${w.field}: ${w.message}`),
    "",
    preview.text,
  );
  return lines.join("\n");
}

/** The translation state of the previewed version, as `studio status` reports it, with what it means. */
export interface PreviewTranslation {
  state: TranslationState;
  /** What to do, for a state that needs an action. */
  hint?: string;
}

const STATE_HINT: Partial<Record<TranslationState, string>> = {
  stale: "the source changed since this version was translated or reviewed: update it, then `studio review` it",
  unreviewed: "a machine translation nobody reviewed yet: read it, then `studio review` it",
};

/**
 * `studio status`'s state of `file`'s version among `versions` (its item's versions), or null for a file that is
 * not a translation (issue #34: preview showed `reviewed true` for a version status called stale).
 */
async function translationOf(file: string, versions: ContentItem[]): Promise<PreviewTranslation | null> {
  const own = versions.find((v) => path.resolve(v.file) === path.resolve(file));
  if (!own?.frontMatter.translation) return null;
  const [{ fileVersion }, { versionState }] = await Promise.all([
    import("../../lib/translate/files.ts"),
    import("../../lib/translate/status.ts"),
  ]);
  const byLocale = new Map(versions.map((v) => [v.locale, fileVersion(v)]));
  const state = versionState(fileVersion(own), byLocale);
  return { state, ...(STATE_HINT[state] ? { hint: STATE_HINT[state] } : {}) };
}

/**
 * `studio preview <file>`: shows a draft in the terminal (Ink in a terminal, plain text otherwise, JSON with
 * `--json`); with `--web`, serves it through the real server-rendered pages on a local port, in both locales,
 * from a throwaway embedded server (nothing is pushed anywhere), until Ctrl-C. Its item's other language
 * versions (`x.md` beside `x.ar.md`) are served with it, so `/ar` shows the Arabic version when there is one.
 * @returns 0 when the file is valid (and, for an AI draft, follows the content rules), 1 otherwise.
 * @throws {UsageError} (exit 1) with `--web` for an invalid file, or when the staged copy cannot be published.
 */
export async function runPreview(file: string, options: PreviewCommandOptions): Promise<number> {
  const [{ displayValue, previewFile, previewJson }, { versionsOf }] = await Promise.all([
    import("../../lib/content/preview.ts"),
    import("../../lib/content/siblings.ts"),
  ]);
  const preview = await previewFile(file);
  const versions = preview.item ? await versionsOf(preview.kind, file) : [];
  const translation = await translationOf(file, versions);
  if (options.json) emitJson("result", { ...previewJson(preview), translationState: translation?.state ?? null });
  else if (options.interactive)
    await (await import("../views/preview-view.tsx")).renderPreview(preview, translationText(translation));
  else console.log(plain(preview, displayValue, translationText(translation)));
  const ok = preview.issues.length === 0 && preview.rules.length === 0;
  if (options.web) {
    if (!preview.item)
      throw new UsageError(`${preview.file} is invalid; fix it before previewing it on the web.`, EXIT.invalidContent);
    // With --json, stdout holds only the NDJSON line: what a person reads goes to stderr (README "Output").
    const say = options.json ? (line: string) => console.error(line) : (line: string) => console.log(line);
    await serveDraft(preview, versions, options.port ?? 0, say);
  }
  return ok ? EXIT.ok : EXIT.invalidContent;
}

/** The translation line of the preview: `stale: the source changed…`, or null. */
function translationText(translation: PreviewTranslation | null): string | null {
  if (!translation) return null;
  return translation.hint ? `${translation.state}: ${translation.hint}` : translation.state;
}

/**
 * The front matter a staged version is published with: `draft` and `publishAt` removed, and the kind's date
 * (a post's `publishedDate`, its due time) set to now when missing or in the future, so the throw-away site
 * shows it instead of a 404 (a draft or a scheduled item is not public).
 */
export function stagedFrontMatter(item: ContentItem, now = new Date()): Record<string, unknown> {
  const frontMatter: Record<string, unknown> = {
    ...item.frontMatter,
    slug: item.slug,
    draft: undefined,
    [PUBLISH_AT_COLUMN]: undefined,
  };
  const date = dateField(item.kind);
  if (date) {
    const value = frontMatter[date];
    const at = value instanceof Date ? value.getTime() : typeof value === "string" ? Date.parse(value) : NaN;
    if (Number.isNaN(at) || at > now.getTime()) frontMatter[date] = now;
  }
  return frontMatter;
}

/**
 * Copies the item's versions (as published: `stagedFrontMatter`) and their images into a throwaway content
 * folder, each under its own version's name (`x.md`, `x.ar.md`); a body's own images (issue #30 item 4) at the
 * same path relative to the copy as to the file, so the staged push uploads them and the site serves them.
 * @returns the folder.
 */
export async function stageDraft(versions: ContentItem[]): Promise<string> {
  const [{ serializeContentFile }, { versionFile }, { imageSourceKind }, { isWithin }] = await Promise.all([
    import("../../lib/content/write.ts"),
    import("../../lib/content/versions.ts"),
    import("../../lib/content/body-images.ts"),
    import("../../lib/content/inside.ts"),
  ]);
  const dir = await mkdtemp(path.join(tmpdir(), "studio-preview-"));
  await mkdir(path.join(dir, "images"), { recursive: true });
  for (const item of versions) {
    const folder = CONTENT_MODEL[item.kind].folder;
    await mkdir(path.join(dir, folder), { recursive: true });
    const frontMatter = stagedFrontMatter(item);
    if (item.image && "path" in item.image) {
      await cp(item.image.path, path.join(dir, "images", item.image.name));
      frontMatter[imageInput(item.kind)] = `../images/${item.image.name}`;
    }
    for (const { src, image } of item.bodyImages ?? []) {
      const source = imageSourceKind(src);
      if (source.kind !== "local") continue;
      const copy = path.resolve(dir, folder, source.path);
      if (!isWithin(dir, copy)) continue; // it was read inside its content folder: it lands inside the copy
      await mkdir(path.dirname(copy), { recursive: true });
      await cp(image.path, copy);
    }
    const name = versionFile(`${item.slug}.${item.format === "html" ? "html" : "md"}`, item.locale);
    await writeFile(path.join(dir, folder, name), serializeContentFile(item.kind, frontMatter, item.body));
  }
  return dir;
}

async function serveDraft(
  preview: Preview,
  versions: ContentItem[],
  port: number,
  say: (line: string) => void,
): Promise<void> {
  const root = process.cwd();
  if (!existsSync(path.join(root, "web")) || !existsSync(path.join(root, "package.json"))) {
    throw new UsageError("studio preview --web runs from the project folder (where package.json and web/ are).");
  }
  const [
    { startEmulator },
    { createAdminServices },
    { applyContentSchema: applySchema },
    { push },
    { ensureBuild },
    { startSite },
    schema,
  ] = await Promise.all([
    import("../../embedded-appwrite/server.ts"),
    import("../../lib/appwrite/client.ts"),
    import("../../lib/appwrite/content-schema.ts"),
    import("../../lib/publish/push.ts"),
    import("../../server/build.ts"),
    import("../../server/serve-site.ts"),
    import("../../model/appwrite.json", { with: { type: "json" } }),
  ]);
  const contentDir = await stageDraft(versions);
  const dataDir = await mkdtemp(path.join(tmpdir(), "studio-preview-data-"));
  const emulator = await startEmulator({ dataDir, port: 0 });
  const cleanup = async () => {
    await emulator.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(contentDir, { recursive: true, force: true });
  };
  try {
    const services = createAdminServices(emulator);
    await applySchema(services, schema.default as Parameters<typeof applySchema>[1]);
    const pushed = await push(services, { contentDir });
    checkStaged(pushed);
    if (await ensureBuild(root, { quiet: true })) say("Built the site.");
    process.env.APPWRITE_ENDPOINT = emulator.endpoint;
    process.env.APPWRITE_PROJECT_ID = emulator.projectId;
    process.env.APPWRITE_API_KEY = emulator.apiKey;
    const site = await startSite({ root, port });
    const route = CONTENT_MODEL[preview.kind].publicPath;
    const slug = preview.item!.slug;
    const has = (locale: string) => versions.some((v) => v.locale === locale);
    say(`Previewing ${versions.map((v) => v.file).join(" and ")} (not published anywhere):`);
    const names = new Intl.DisplayNames(["en"], { type: "language" });
    const width = Math.max(...CONTENT_LOCALES.map((l) => (names.of(l) ?? l).length)) + 2;
    for (const locale of CONTENT_LOCALES) {
      const note = has(locale) ? "" : ` (no ${locale} version: the site shows the ${DEFAULT_CONTENT_LOCALE} one)`;
      say(`  ${`${names.of(locale) ?? locale}:`.padEnd(width)}${site.url}/${locale}/${route}/${slug}${note}`);
    }
    say("Press Ctrl-C to stop.");
    await new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    await site.close();
  } finally {
    await cleanup();
  }
}

/**
 * Refuses a staged push that did not publish every version (issue #34: its result was ignored, and the page
 * was a 404 with no word why).
 * @throws {UsageError} (exit 1) naming each file and what went wrong.
 */
export function checkStaged(result: Pick<PushResult, "issues" | "items" | "failed">): void {
  if (result.failed === 0 && result.issues.length === 0) return;
  const problems = [
    ...result.issues.map((i) => `${i.file}: ${i.field}: ${i.message}`),
    ...result.items.filter((i) => i.status === "failed").map((i) => `${i.file ?? i.slug}: ${i.error}`),
  ];
  throw new UsageError(
    `the preview copy could not be published, so the pages would be a 404: ${problems.join("; ")}`,
    EXIT.invalidContent,
  );
}
