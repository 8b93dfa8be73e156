/**
 * `studio pull` (issue #7 item 2): writes items edited or created in Appwrite (the admin) back into content
 * files, so the files stay the source of truth for `studio push`. A Markdown file stays Markdown when its body
 * can (and keeps its body bytes when only the front matter changed; `pull-body.ts`), other bodies are written as
 * HTML (what Appwrite stores), images of the bucket (featured and inline) are downloaded into `images/`, and the lock records the result so that
 * push → pull → push changes nothing. A file edited locally since the last sync is never overwritten
 * (a conflict) unless `force`.
 */
import { rm } from "node:fs/promises";
import writeFileAtomic from "write-file-atomic";
import path from "node:path";
import type { Models } from "node-appwrite";
import { CONTENT_KINDS, SLUG_PATTERN, type ContentKind } from "../../model/content.ts";
import { DEFAULT_CONTENT_LOCALE, documentVersionKey, isContentLocale, versionKey } from "../../model/model.ts";
import { inheritFields, localeOfFile, versionFile } from "../content/versions.ts";
import type { AdminServices } from "../appwrite/client.ts";
import { OutsideFolderError, pathInside } from "../content/inside.ts";
import { readContent, readItem, type ContentItem } from "../content/read.ts";
import { HtmlBoundsError, htmlBoundMessage } from "../html/bounds.ts";
import { localImage } from "./documents.ts";
import { isSelected, type Selection } from "./selection.ts";
import { frontMatterOf, keptLocalKeys } from "./pull-front-matter.ts";
import { indexLocalImages, localImageRef } from "./pull-images.ts";
import { bodyImagesRecord, pulledFile } from "./pull-body.ts";
import { projectLock, readLock, writeLock, type ProjectLock } from "./lock.ts";
import { itemsBySlug, sourceHash } from "./plan.ts";
import { describeError, listBySlug, lockEntryFor, remoteChangedSince } from "./remote.ts";
import { asUnreachable, isConnectionError } from "../appwrite/unreachable.ts";
import { sha256Hex } from "../content/body-digest.ts";

export interface PullItemResult {
  kind: ContentKind;
  /**
   * The document's slug; a slug that breaks the slug rule is shown quoted, with anything but printable ASCII
   * escaped (`"..\/..\/x"`), so a terminal never receives it raw.
   */
  slug: string;
  /** The file written or kept; absent when none was touched (a slug refused before any path was built). */
  file?: string;
  /** The document's `$id`, when the item was refused for its slug. */
  documentId?: string;
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
  /** Pull only these items (`resolveSelection`), both language versions of each. */
  only?: Selection;
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
  const localImages = await indexLocalImages(options.contentDir);
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
    if (!isSelected(options.only, kind, String(doc.slug))) continue; // `studio pull <file|slug>…` (issue #34)
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

/**
 * A slug from Appwrite for a report line: quoted, at most 80 characters, everything but printable ASCII
 * escaped (a slug is anyone's input: it may hold terminal escape sequences).
 */
function shownSlug(slug: unknown): string {
  const text = typeof slug === "string" ? slug : String(slug);
  const quoted = JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}...` : text);
  return quoted.replace(/[^\x20-\x7e]/gu, (ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`);
}

async function pullOne(services: AdminServices, options: PullOptions, c: PullContext): Promise<PullItemResult> {
  const { kind, doc, local, project } = c;
  // A slug names files: one that breaks the slug rule (`../../x`, anyone may write one through the API) never
  // becomes a path (SECURITY C63).
  if (typeof doc.slug !== "string" || !SLUG_PATTERN.test(doc.slug)) {
    return {
      kind,
      slug: shownSlug(doc.slug),
      documentId: doc.$id,
      action: "skip",
      status: "done",
      reason:
        "its slug is not a valid slug (lowercase letters, digits and single hyphens), so it names no file; " +
        "nothing was written: fix the slug in the admin, then pull again",
    };
  }
  const slug = doc.slug;
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
  const invalidOwn = [...c.invalid].find((f) => {
    const named = localeOfFile(f);
    return (
      f.startsWith(`${folder}/`) && named.stem === slug && named.locale === locale && /\.(md|markdown|html?)$/i.test(f)
    );
  });
  const invalidFile = invalidOwn ?? c.blocked.get(`${kind}:${key}`);
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
  // The slug is valid, so `target` is below the kind's folder as written; links may still lead out (C63).
  // A forced pull over an invalid file of this version replaces that file (no second file of the slug).
  const replacing = local ? undefined : invalidOwn;
  const planned = local?.file ?? replacing ?? target;
  try {
    await pathInside(options.contentDir, planned);
  } catch (error) {
    if (!(error instanceof OutsideFolderError)) throw error;
    return { ...base, file: planned, action: "skip", status: "done", reason: outsideReason(error) };
  }
  if (options.dryRun) return { ...base, file: planned, action: "write", status: "done" };

  try {
    const imageField = CONTENT_KINDS[kind].imageField;
    const imageUrl = (doc[imageField] as string | null) ?? null;
    const images = { localImages: c.localImages, downloaded: c.result.images };
    const imageRef = imageUrl
      ? await localImageRef(services, options.contentDir, slug, kind, imageUrl, images)
      : undefined;
    const pulled = await pulledFile(services, {
      contentDir: options.contentDir,
      kind,
      slug,
      doc,
      bodyField: CONTENT_KINDS[kind].bodyField,
      frontMatter: {
        ...keptLocalKeys(kind, local?.frontMatter as Record<string, unknown> | undefined),
        ...frontMatterOf(kind, doc, imageRef, locale === DEFAULT_CONTENT_LOCALE ? undefined : c.source),
      },
      local,
      entry,
      target,
      replacing,
      images,
    });
    const written = await pathInside(options.contentDir, pulled.file); // throws before anything is written
    await writeFileAtomic(written, pulled.text);
    const replaced = local?.file ?? replacing;
    if (replaced && replaced !== pulled.file) await rm(path.join(options.contentDir, replaced), { force: true });
    const note = pulled.note ? { reason: pulled.note } : {};

    const reread = await readItem(kind, written, pulled.file, pulled.format);
    if ("issues" in reread) {
      const problems = reread.issues.map((i) => `${i.field}: ${i.message}`).join("; ");
      return {
        ...base,
        file: pulled.file,
        action: "write",
        status: "failed",
        error: `written, but invalid: ${problems}`,
      };
    }
    // A translated file's hash covers what it inherits, as `push` reads it.
    const [item] = c.english ? inheritFields([reread.item, c.english], []) : [reread.item];
    const image = localImage(item!);
    const bodyImages = bodyImagesRecord(item!, pulled.storedUrls);
    project[kind][key] = lockEntryFor(kind, doc, {
      hash: sourceHash(item!),
      ...(image && imageUrl ? { image: { sha256: sha256Hex(image.bytes), url: imageUrl } } : {}),
      ...(Object.keys(bodyImages).length ? { bodyImages } : {}),
    });
    return { ...base, file: pulled.file, action: "write", status: "done", ...note };
  } catch (error) {
    if (isConnectionError(error)) throw error; // Appwrite gone: `pull` stops
    if (error instanceof OutsideFolderError) {
      return { ...base, action: "skip", status: "done", reason: outsideReason(error) };
    }
    const message =
      error instanceof HtmlBoundsError
        ? `${CONTENT_KINDS[kind].bodyField} ${htmlBoundMessage(error.violation)} (fix it in Appwrite, then pull again)`
        : describeError(error);
    return { ...base, action: "write", status: "failed", error: message };
  }
}

/** Why a write was refused: `target` leads outside the content folder (C63). */
function outsideReason(error: OutsideFolderError): string {
  return (
    `${error.target} ${error.how === "path" ? "is outside" : "is a symbolic link, or under one, that leads outside"} ` +
    "the content folder; nothing was written there: replace the link with a regular file or folder, then pull again"
  );
}
