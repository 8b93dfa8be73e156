/**
 * `studio pull` (issue #7 item 2): writes items edited or created in Appwrite (the admin) back into content
 * files, so the files stay the source of truth for `studio push`. Bodies are written as HTML (what Appwrite
 * stores), images of the bucket are downloaded into `images/`, and the lock records the result so that
 * push → pull → push changes nothing. A file edited locally since the last sync is never overwritten
 * (a conflict) unless `force`.
 */
import { createHash } from "node:crypto";
import { readdir, readFile, rm } from "node:fs/promises";
import writeFileAtomic from "write-file-atomic";
import path from "node:path";
import type { Models } from "node-appwrite";
import mime from "mime-types";
import { CONTENT_KINDS, IMAGES_BUCKET_ID, type ContentKind } from "../../schemas/content.ts";
import {
  DEFAULT_CONTENT_LOCALE,
  documentVersionKey,
  imageStem,
  isContentLocale,
  versionKey,
} from "../../schemas/model.ts";
import { inheritFields, localeOfFile, versionFile } from "../content/versions.ts";
import { parseFileViewUrl, type AdminServices } from "../appwrite/client.ts";
import { readContent, readItem, type ContentItem } from "../content/read.ts";
import { formattedOrAsIs } from "../content/format.ts";
import { serializeContentFile } from "../content/write.ts";
import { frontMatterOf } from "./pull-front-matter.ts";
import { normalizeBody } from "../html/body.ts";
import { HtmlBoundsError, htmlBoundMessage } from "../html/bounds.ts";
import { makeDirectory } from "../make-dir.ts";
import { imageFileId, localImage } from "./documents.ts";
import { projectLock, readLock, writeLock, type ProjectLock } from "./lock.ts";
import { itemsBySlug, sourceHash } from "./plan.ts";
import { describeError, listBySlug, lockEntryFor, remoteChangedSince } from "./remote.ts";
import { asUnreachable, isConnectionError } from "../appwrite/unreachable.ts";

export interface PullItemResult {
  kind: ContentKind;
  slug: string;
  /** The file written or kept. */
  file: string;
  action: "write" | "unchanged" | "conflict" | "skip";
  status: "done" | "failed";
  reason?: string;
  error?: string;
}

export interface PullResult {
  written: number;
  unchanged: number;
  skipped: number;
  conflicts: number;
  failed: number;
  items: PullItemResult[];
  /** Images downloaded into `images/` (relative to the content root). */
  images: string[];
  dryRun: boolean;
}

export interface PullOptions {
  contentDir: string;
  /** The sync lock (see `lockPathFor`); without it every remote item is written unless its file differs. */
  lockPath?: string;
  /** Overwrite files edited locally since the last sync. */
  force?: boolean;
  /** Report what would be written; write nothing. */
  dryRun?: boolean;
  onEvent?: (result: PullItemResult) => void;
}

/**
 * Pulls every venture and post of Appwrite into `contentDir`.
 * @throws {SchemaMissingError} when the schema was never applied; {AppwriteUnreachableError} (exit 3) at the
 *   first request that finds Appwrite gone (what was written is in the lock); {AppwriteException} when
 *   Appwrite refuses to be read.
 */
export async function pull(services: AdminServices, options: PullOptions): Promise<PullResult> {
  const { items, issues } = await readContent(options.contentDir);
  const invalid = new Set(issues.map((i) => i.file));
  const blocked = new Map(issues.flatMap((i) => (i.blocks ? [[`${i.blocks.kind}:${i.blocks.key}`, i.file]] : [])));
  const lock = options.lockPath ? await readLock(options.lockPath) : { version: 1 as const, projects: {} };
  const project = projectLock(lock, services.target.projectId);
  const localImages = await indexLocalImages(path.join(options.contentDir, "images"));
  const result: PullResult = {
    written: 0,
    unchanged: 0,
    skipped: 0,
    conflicts: 0,
    failed: 0,
    items: [],
    images: [],
    dryRun: !!options.dryRun,
  };

  const localItems = itemsBySlug(items);
  try {
    for (const kind of Object.keys(CONTENT_KINDS) as ContentKind[]) {
      await pullKind(services, options, kind, {
        local: localItems[kind],
        project,
        invalid,
        blocked,
        localImages,
        result,
      });
    }
  } catch (error) {
    // Appwrite went away (issue #26 item 10): stop at once; what was written is recorded.
    if (!options.dryRun && options.lockPath && result.items.length > 0) await writeLock(options.lockPath, lock);
    throw asUnreachable(services.target.endpoint, error, `pull stopped after ${result.written} file(s) written`);
  }
  if (!options.dryRun && options.lockPath) await writeLock(options.lockPath, lock);
  return result;
}

/** Pulls every document of `kind` (see `pull`); a connection error propagates, other failures are results. */
async function pullKind(
  services: AdminServices,
  options: PullOptions,
  kind: ContentKind,
  c: Omit<PullContext, "kind" | "doc" | "source" | "local" | "english"> & { local: Map<string, ContentItem> },
): Promise<void> {
  const { result, local } = c;
  const remote = await listBySlug(services, CONTENT_KINDS[kind].collectionId);
  for (const doc of remote.values()) {
    const outcome = await pullOne(services, options, {
      kind,
      doc,
      source: remote.get(String(doc.slug)),
      local: local.get(documentVersionKey(doc)) ?? null,
      english: local.get(String(doc.slug)) ?? null,
      project: c.project,
      invalid: c.invalid,
      blocked: c.blocked,
      localImages: c.localImages,
      result,
    });
    result.items.push(outcome);
    options.onEvent?.(outcome);
    if (outcome.status === "failed") result.failed++;
    else if (outcome.action === "write") result.written++;
    else if (outcome.action === "conflict") result.conflicts++;
    else if (outcome.action === "skip") result.skipped++;
    else result.unchanged++;
  }
}

interface PullContext {
  kind: ContentKind;
  doc: Models.DefaultRow;
  /** The default locale's document of the same slug (what a translated file inherits from). */
  source: Models.DefaultRow | undefined;
  local: ContentItem | null;
  /** The default locale's file of the same slug, when there is one. */
  english: ContentItem | null;
  project: ProjectLock;
  invalid: Set<string>;
  /** `kind:versionKey` → a file whose issue holds that version back (two files declaring its slug). */
  blocked: Map<string, string>;
  localImages: Map<string, string>;
  result: PullResult;
}

async function pullOne(services: AdminServices, options: PullOptions, c: PullContext): Promise<PullItemResult> {
  const { kind, doc, local, project } = c;
  const slug = String(doc.slug);
  const locale = isContentLocale(doc.locale) ? doc.locale : DEFAULT_CONTENT_LOCALE;
  const key = versionKey(slug, locale);
  const folder = CONTENT_KINDS[kind].folder;
  const target = versionFile(`${folder}/${slug}.html`, locale);
  const file = local?.file ?? target;
  const base = { kind, slug, file, ...(locale === DEFAULT_CONTENT_LOCALE ? {} : { locale }) };
  const entry = project[kind][key];
  const remoteChanged = remoteChangedSince(kind, entry, doc);

  if (!remoteChanged) {
    if (local) return { ...base, action: "unchanged", status: "done" };
    return {
      ...base,
      action: "skip",
      status: "done",
      reason: "its file was removed locally; `studio push --prune` deletes it from Appwrite",
    };
  }
  const invalidFile =
    [...c.invalid].find((f) => {
      const named = localeOfFile(f);
      return f.startsWith(`${folder}/`) && named.stem === slug && named.locale === locale;
    }) ?? c.blocked.get(`${kind}:${key}`);
  if (invalidFile && !options.force) {
    return {
      ...base,
      file: invalidFile,
      action: "conflict",
      status: "done",
      reason: "the local file is invalid; fix it, or pull with --force to replace it",
    };
  }
  if (local && entry && sourceHash(local) !== entry.hash && !options.force) {
    return {
      ...base,
      action: "conflict",
      status: "done",
      reason: "changed both here and in Appwrite since the last sync; pull with --force to take Appwrite's version",
    };
  }
  if (options.dryRun) return { ...base, file: target, action: "write", status: "done" };

  try {
    const imageField = CONTENT_KINDS[kind].imageField;
    const imageUrl = (doc[imageField] as string | null) ?? null;
    const imageRef = imageUrl ? await localImageRef(services, options.contentDir, slug, kind, imageUrl, c) : undefined;
    const text = serializeContentFile(
      kind,
      frontMatterOf(kind, doc, imageRef, locale === DEFAULT_CONTENT_LOCALE ? undefined : c.source),
      await formattedOrAsIs("html", normalizeBody(String(doc[CONTENT_KINDS[kind].bodyField] ?? ""))),
    );
    await writeFileAtomic(path.join(options.contentDir, target), text);
    if (local && local.file !== target) await rm(path.join(options.contentDir, local.file), { force: true });

    const reread = await readItem(kind, path.join(options.contentDir, target), target, "html");
    if ("issues" in reread) {
      const problems = reread.issues.map((i) => `${i.field}: ${i.message}`).join("; ");
      return { ...base, file: target, action: "write", status: "failed", error: `written, but invalid: ${problems}` };
    }
    // A translated file's hash covers what it inherits, as `push` reads it.
    const [item] = c.english ? inheritFields([reread.item, c.english], []) : [reread.item];
    const image = localImage(item!);
    project[kind][key] = lockEntryFor(kind, doc, {
      hash: sourceHash(item!),
      ...(image && imageUrl
        ? { image: { sha256: createHash("sha256").update(image.bytes).digest("hex"), url: imageUrl } }
        : {}),
    });
    return { ...base, file: target, action: "write", status: "done" };
  } catch (error) {
    if (isConnectionError(error)) throw error; // Appwrite gone: `pull` stops
    const message =
      error instanceof HtmlBoundsError
        ? `${CONTENT_KINDS[kind].bodyField} ${htmlBoundMessage(error.violation)} (fix it in Appwrite, then pull again)`
        : describeError(error);
    return { ...base, action: "write", status: "failed", error: message };
  }
}

/** Content-addressed id → file name of every image in `images/`. */
async function indexLocalImages(dir: string): Promise<Map<string, string>> {
  const index = new Map<string, string>();
  let names: string[] = [];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  for (const name of names) index.set(imageFileId(await readFile(path.join(dir, name))), name);
  return index;
}

/**
 * The front-matter reference for an image URL: an http(s) URL outside the bucket is kept; a bucket file is
 * found among the local images by content, or downloaded into `images/`.
 */
async function localImageRef(
  services: AdminServices,
  contentDir: string,
  slug: string,
  kind: ContentKind,
  url: string,
  c: PullContext,
): Promise<string | undefined> {
  const file = parseFileViewUrl(url);
  if (!file || file.bucketId !== IMAGES_BUCKET_ID) return /^https?:\/\//i.test(url) ? url : undefined;
  const known = c.localImages.get(file.fileId);
  if (known) return `../images/${known}`;
  const meta = await services.storage.getFile({ bucketId: IMAGES_BUCKET_ID, fileId: file.fileId });
  const bytes = Buffer.from(await services.storage.getFileView({ bucketId: IMAGES_BUCKET_ID, fileId: file.fileId }));
  const existing = c.localImages.get(imageFileId(bytes));
  if (existing) return `../images/${existing}`;
  const extension = mime.extension(meta.mimeType) || "bin";
  const stem = imageStem(kind, slug);
  let name = `${stem}.${extension === "jpeg" ? "jpg" : extension}`;
  if ([...c.localImages.values()].includes(name)) name = `${stem}-${file.fileId.slice(0, 8)}.${extension}`;
  await makeDirectory(path.join(contentDir, "images"));
  await writeFileAtomic(path.join(contentDir, "images", name), bytes);
  c.localImages.set(imageFileId(bytes), name);
  c.result.images.push(`images/${name}`);
  return `../images/${name}`;
}
