/**
 * `studio push`: a plan-then-apply sync of `content/` into Appwrite keyed by slug (ARCHITECTURE decision 7,
 * data flow "studio push"; issue #7). Safe to re-run: unchanged items are not written, images are
 * content-addressed and uploaded once, a document write that fails removes the image it just uploaded, and
 * an item edited in Appwrite since the last push or pull is a conflict, not an overwrite (unless `force`).
 */
import { PUBLISH_AT_COLUMN, STATUS_COLUMN, type ItemState } from "../../schemas/lifecycle.ts";
import { stat } from "node:fs/promises";
import path from "node:path";
import { AppwriteException, Permission, Role, type Models } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { CONTENT_KINDS, DATABASE_ID, IMAGES_BUCKET_ID, type ContentKind } from "../../schemas/content.ts";
import { parseFileViewUrl, type AdminServices } from "../appwrite/client.ts";
import { listPages } from "../appwrite/paginate.ts";
import { readContent, type ContentIssue, type ContentSet, type LocalImage } from "../content/read.ts";
import { imageFileId } from "./documents.ts";
import { ExportError, imageFileIdsOf, writeExport, type ExportReport } from "./export.ts";
import { projectLock, readLock, writeLock, type ProjectLock } from "./lock.ts";
import { createItemDocument, deleteItemDocument, updateItemDocument, type ImageStep } from "./writer.ts";
import { planPush, type PlanAction, type PlanEntry, type PlannedItem } from "./plan.ts";
import { AbortError, EXIT } from "../errors.ts";
import { localeOfFile } from "../content/versions.ts";
import { DEFAULT_CONTENT_LOCALE, documentVersionKey, versionKey } from "../../schemas/model.ts";

export type { PlanAction, PlanEntry } from "./plan.ts";

export interface PushItemResult extends PlanEntry {
  status: "done" | "failed";
  error?: string;
}

/** Summary counts: the final `--json` result of `studio push` (issue #7 item 6). */
export interface PushSummary {
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  /** Drafts, and removed files left in Appwrite without `--prune`. */
  skipped: number;
  conflicts: number;
  /** Invalid files plus writes Appwrite refused. */
  failed: number;
}

export interface PushResult extends PushSummary {
  items: PushItemResult[];
  /** Validation problems; each invalid file counts once in `failed`. */
  issues: ContentIssue[];
  /** What was read but not as written (HTML removed by the sanitizer), and files that were not read. */
  warnings?: ContentIssue[];
  /** Files marked `draft: true`, pushed as drafts (only signed-in users read them, issue #16). */
  drafts: string[];
  dryRun: boolean;
  /** The export written before deleting (with `prune`), or null when nothing was deleted. */
  exported: ExportReport | null;
  /**
   * Items the lock says were pushed (and that are still those documents in Appwrite) before this push: what
   * a prune's deletions are compared with (`MAX_PRUNE_SHARE`).
   */
  tracked: number;
}

export type PushEvent =
  | { type: "validated"; valid: number; invalid: number; drafts: number }
  | { type: "planned"; plan: PlanEntry[] }
  | ({ type: "exported" } & ExportReport)
  | { type: "item"; result: PushItemResult; done: number; total: number };

export interface PushOptions {
  /** The content root (folder with `ventures/`, `posts/`, `images/`). */
  contentDir: string;
  /**
   * The lock file recording the last sync (see `lock.ts`, `lockPathFor`). Without it the lock is kept in
   * memory only: fine for one push into an empty project; any existing document that differs is a conflict.
   */
  lockPath?: string;
  /** Plan only: read Appwrite, write nothing (not even the lock). */
  dryRun?: boolean;
  /** Overwrite conflicting items with the files' content. */
  force?: boolean;
  /** Delete items whose files were removed (only those the lock says were pushed, and unedited since). */
  prune?: boolean;
  /**
   * Folder for the export written before anything is deleted (SECURITY C48, `export.ts`); required when the
   * plan deletes anything.
   */
  exportDir?: string;
  /**
   * Let a prune delete more than half (`MAX_PRUNE_SHARE`) of the items pushed from these files; without it
   * such a push throws `MassDeleteError` and deletes nothing (SECURITY C59).
   */
  allowMassDelete?: boolean;
  /** Writes in flight at once (default 4). */
  concurrency?: number;
  onEvent?: (event: PushEvent) => void;
}

/** Appwrite has no database or collection to push into: the schema was never applied there. */
export class SchemaMissingError extends AbortError {
  override name = "SchemaMissingError";
  constructor(message: string) {
    super(message, { exitCode: EXIT.backend });
  }
}

/**
 * The content folder does not exist or holds no venture or post file: most likely a typo in `--dir`, and
 * pushing it (with `--prune`) would delete everything (SECURITY C59). Nothing was written.
 */
export class ContentFolderError extends AbortError {
  override name = "ContentFolderError";
  constructor(message: string) {
    super(message, { exitCode: EXIT.usage });
  }
}

/** A prune would delete more than `MAX_PRUNE_SHARE` of what was pushed, without `allowMassDelete`. */
export class MassDeleteError extends AbortError {
  override name = "MassDeleteError";
  constructor(message: string) {
    super(message, { exitCode: EXIT.usage });
  }
}

/** The share of the pushed items a prune may delete without `allowMassDelete`: half. */
export const MAX_PRUNE_SHARE = 0.5;

/**
 * Reads and validates the content folder, refusing one that is missing or has no content file at all
 * (valid, invalid or draft) in `ventures/` or `posts/`.
 * @throws {ContentFolderError} naming the folder looked at and what to do; nothing has been written.
 */
export async function readContentFolder(contentDir: string): Promise<ContentSet> {
  const absolute = path.resolve(contentDir);
  const exists = await stat(absolute).then(
    (s) => s.isDirectory(),
    () => false,
  );
  const folders = `${CONTENT_KINDS.venture.folder}/ or ${CONTENT_KINDS.post.folder}/`;
  if (!exists) {
    throw new ContentFolderError(
      `The content folder ${absolute} does not exist (looked for ${folders} in it); nothing was written or deleted. ` +
        `Pass --dir <folder> with your content folder (default: content, relative to the current directory).`,
    );
  }
  const content = await readContent(absolute);
  if (content.items.length === 0 && content.issues.length === 0) {
    throw new ContentFolderError(
      `The content folder ${absolute} has no .md or .html file in ${folders}; nothing was written or deleted. ` +
        `Check --dir (it must be the folder holding ventures/ and posts/); to remove everything, delete the items in the admin.`,
    );
  }
  return content;
}

/**
 * Refuses a prune that deletes more than `MAX_PRUNE_SHARE` of the `tracked` items (those pushed from these
 * files) unless `allow` (SECURITY C59: a wrong `--dir`, or a checkout missing files, must not empty the site).
 * @throws {MassDeleteError} saying how many, and which flag confirms it.
 */
export function checkMassDelete(deletions: number, tracked: number, allow: boolean, contentDir: string): void {
  if (allow || deletions === 0 || deletions <= tracked * MAX_PRUNE_SHARE) return;
  throw new MassDeleteError(
    `push --prune would delete ${deletions} of the ${tracked} item(s) pushed from ${path.resolve(contentDir)} ` +
      `(more than half); nothing was written or deleted. Check --dir and that the files are there; if these ` +
      `deletions are intended, run it again with --allow-mass-delete.`,
  );
}

/** Items of `lock` that are still the same documents in Appwrite. */
function trackedCount(project: ProjectLock, remote: Record<ContentKind, Map<string, Models.DefaultRow>>): number {
  let n = 0;
  for (const kind of Object.keys(CONTENT_KINDS) as ContentKind[]) {
    for (const [key, entry] of Object.entries(project[kind])) if (remote[kind].get(key)?.$id === entry.id) n++;
  }
  return n;
}

/**
 * Validates `contentDir`, plans against Appwrite and the lock, and (unless `dryRun`) applies the plan and
 * records the lock. Invalid files are never written; other items still are. A single item's failure is
 * reported in `items` and counted in `failed`, never thrown.
 * With `prune`, everything the plan deletes (documents and their images, bytes included) is first written
 * to a JSON export in `exportDir`; if that fails, nothing at all is written.
 * @throws {SchemaMissingError} when the schema was never applied; {LockFileError} for an unreadable lock;
 * {ExportError} when the export before deleting cannot be written (nothing was written);
 * {ContentFolderError} when `contentDir` is missing or has no content file; {MassDeleteError} when a prune
 * would delete more than half of the pushed items without `allowMassDelete` (both: nothing was written);
 * {AppwriteException} when Appwrite cannot be read at all (unreachable, bad key).
 */
export async function push(services: AdminServices, options: PushOptions): Promise<PushResult> {
  const emit = options.onEvent ?? (() => {});
  const content = await readContentFolder(options.contentDir);
  // Drafts are pushed too, as documents guests cannot read (issue #16; the writer derives the permissions).
  const drafts = content.items.filter((i) => i.draft);
  const publishable = content.items;
  const invalidFiles = new Set(content.issues.map((i) => i.file));
  emit({
    type: "validated",
    valid: publishable.length - drafts.length,
    invalid: invalidFiles.size,
    drafts: drafts.length,
  });

  const lock = options.lockPath ? await readLock(options.lockPath) : { version: 1 as const, projects: {} };
  const project = projectLock(lock, services.target.projectId);
  const remote = {
    venture: await listBySlug(services, CONTENT_KINDS.venture.collectionId),
    post: await listBySlug(services, CONTENT_KINDS.post.collectionId),
  };
  const protectedSlugs = new Set(
    [...invalidFiles].map((f) => {
      const { locale, stem } = localeOfFile(f);
      return versionKey(stem, locale);
    }),
  );
  const planned = planPush({
    target: services.target,
    items: publishable,
    protectedSlugs,
    remote,
    lock: project,
    force: options.force ?? false,
    prune: options.prune ?? false,
  });
  emit({ type: "planned", plan: planned.map((p) => p.entry) });
  const tracked = trackedCount(project, remote);
  const deletions = planned.filter((p) => p.entry.action === "delete").length;
  if (!options.dryRun) checkMassDelete(deletions, tracked, options.allowMassDelete ?? false, options.contentDir);
  const exported = options.dryRun ? null : await exportDeletions(services, planned, options.exportDir);
  if (exported) emit({ type: "exported", ...exported });

  const results: PushItemResult[] = [];
  const uploads: ImageUploads = new Map();
  const sharedImages = imagesUsedTwice(planned);
  const writes = new Set<PlanAction>(["create", "update", "delete"]);
  await forEachLimit(planned, options.concurrency ?? 4, async (p) => {
    let result: PushItemResult;
    if (options.dryRun || !writes.has(p.entry.action)) {
      result = { ...p.entry, status: "done" };
      if (!options.dryRun && p.entry.action === "unchanged" && p.lock && p.remote) {
        project[p.entry.kind][entryKey(p.entry)] = { id: p.remote.$id, updatedAt: p.remote.$updatedAt, ...p.lock };
      }
    } else {
      result = await apply(services, p, uploads, sharedImages, project);
    }
    results.push(result);
    emit({ type: "item", result, done: results.length, total: planned.length });
  });

  if (!options.dryRun) {
    await removeOrphanImages(services, planned, results, remote);
    if (options.lockPath) await writeLock(options.lockPath, lock);
  }
  const count = (action: PlanAction) => results.filter((r) => r.status === "done" && r.action === action).length;
  return {
    created: count("create"),
    updated: count("update"),
    unchanged: count("unchanged"),
    deleted: count("delete"),
    skipped: count("skip"),
    conflicts: count("conflict"),
    failed: results.filter((r) => r.status === "failed").length + invalidFiles.size,
    items: results,
    issues: content.issues,
    warnings: content.warnings,
    drafts: drafts.map((d) => d.file),
    dryRun: options.dryRun ?? false,
    exported,
    tracked,
  };
}

/**
 * Writes what the plan deletes (documents and the images they point at) to an export in `exportDir`
 * before anything is written (SECURITY C48).
 * @throws {ExportError} when there are deletions and no `exportDir`, or the export cannot be written.
 */
async function exportDeletions(
  services: AdminServices,
  planned: PlannedItem[],
  exportDir: string | undefined,
): Promise<ExportReport | null> {
  const deletions = planned.filter((p) => p.entry.action === "delete" && p.remote);
  if (deletions.length === 0) return null;
  if (!exportDir) {
    throw new ExportError(
      "push would delete items but was given no folder for the export to write first; nothing was deleted.",
    );
  }
  return writeExport(services, {
    dir: exportDir,
    reason: "prune",
    documents: deletions.map((p) => ({ kind: p.entry.kind, document: p.remote! })),
    fileIds: deletions.flatMap((p) => imageFileIdsOf(p.entry.kind, p.remote!)),
  });
}

/** Content-addressed image ids that more than one planned item writes. */
function imagesUsedTwice(planned: PlannedItem[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const p of planned) {
    if (!p.image || !p.imageUrl) continue;
    const id = imageFileId(p.image.bytes);
    (seen.has(id) ? twice : seen).add(id);
  }
  return twice;
}

/** Runs `task` over `items` with at most `limit` in flight. */
async function forEachLimit<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/** The version key of a plan entry (`versionKey(slug, locale)`). */
function entryKey(entry: PlanEntry): string {
  return versionKey(entry.slug, entry.locale ?? DEFAULT_CONTENT_LOCALE);
}

/**
 * Every document of a collection, by version key (`documentVersionKey`: the slug for English, `slug@ar` for
 * Arabic), read with cursor pagination (REFERENCE §2).
 * @throws {SchemaMissingError} when the database or collection does not exist.
 */
export async function listBySlug(
  services: AdminServices,
  collectionId: string,
): Promise<Map<string, Models.DefaultRow>> {
  const bySlug = new Map<string, Models.DefaultRow>();
  const pages = listPages((queries) =>
    services.tablesDB
      .listRows({ databaseId: DATABASE_ID, tableId: collectionId, queries, total: false })
      .then((page) => page.rows)
      .catch((error: unknown) => {
        if (
          error instanceof AppwriteException &&
          ["database_not_found", "table_not_found", "collection_not_found"].includes(error.type)
        ) {
          const what = error.type === "database_not_found" ? `database ${DATABASE_ID}` : `collection ${collectionId}`;
          throw new SchemaMissingError(`${services.target.endpoint} has no ${what}: run \`studio setup\` first.`);
        }
        throw error;
      }),
  );
  for await (const documents of pages) for (const doc of documents) bySlug.set(documentVersionKey(doc), doc);
  return bySlug;
}

async function apply(
  services: AdminServices,
  p: PlannedItem,
  uploads: ImageUploads,
  sharedImages: Set<string>,
  project: ProjectLock,
): Promise<PushItemResult> {
  const { tablesDB: databases } = services;
  const { kind } = p.entry;
  const key = entryKey(p.entry);
  try {
    if (p.entry.action === "delete") {
      await deleteItemDocument(databases, kind, p.entry.documentId!);
      delete project[kind][key];
      return { ...p.entry, status: "done" };
    }
    const image: ImageStep = {
      upload: async () => {
        const fileId = await ensureImage(services, p, uploads);
        return fileId ? { fileId, created: true } : null;
      },
      // The URL the plan computed from the content-addressed id: the fields already hold it.
      url: () => p.imageUrl!,
      remove: async (fileId) => {
        if (sharedImages.has(fileId)) return;
        await services.storage.deleteFile({ bucketId: IMAGES_BUCKET_ID, fileId }).catch(() => {});
        uploads.delete(fileId);
      },
    };
    const { [STATUS_COLUMN]: state, [PUBLISH_AT_COLUMN]: publishAt, ...fields } = p.fields!();
    const lifecycle = { state: state as ItemState, publishAt: typeof publishAt === "string" ? publishAt : null };
    const changed = p.entry.changes.filter((key) => key in fields);
    const doc =
      p.entry.action === "create"
        ? await createItemDocument(databases, {
            kind,
            data: { ...fields, userId: null },
            permissions: [Permission.read(Role.any())],
            image,
            lifecycle,
            savedBy: "studio push",
          })
        : await updateItemDocument(databases, p.entry.documentId!, {
            kind,
            data: Object.fromEntries(changed.map((key) => [key, fields[key] ?? null])),
            image,
            // The state's read permission replaces the document's own (its other permissions are kept).
            lifecycle,
            permissions: p.remote?.$permissions ?? [Permission.read(Role.any())],
            savedBy: "studio push",
          });
    project[kind][key] = { id: doc.$id, updatedAt: doc.$updatedAt, ...p.lock! };
    return { ...p.entry, documentId: doc.$id, status: "done" };
  } catch (error) {
    return { ...p.entry, status: "failed", error: describeError(error) };
  }
}

/** Uploads in flight or done in this run, by file id; the promise says whether this run uploaded it. */
type ImageUploads = Map<string, Promise<boolean>>;

/**
 * Makes sure the item's local image is in the bucket when the image field is written. Items sharing an image
 * wait for one upload; a file that already exists (uploaded earlier, or by a concurrent push) is reused.
 * @returns the file id when this run uploaded it, else null.
 */
async function ensureImage(services: AdminServices, p: PlannedItem, uploads: ImageUploads): Promise<string | null> {
  const imageField = CONTENT_KINDS[p.entry.kind].imageField;
  if (!p.image || !p.imageUrl) return null;
  if (p.entry.action === "update" && !p.entry.changes.includes(imageField)) return null;
  const target = parseFileViewUrl(p.imageUrl);
  const fileId = imageFileId(p.image.bytes);
  if (!target || target.fileId !== fileId) return null; // a URL recorded by pull: that file is Appwrite's own
  let upload = uploads.get(fileId);
  if (!upload) {
    upload = uploadIfMissing(services, fileId, p.image);
    uploads.set(fileId, upload);
  }
  try {
    return (await upload) ? fileId : null;
  } catch (error) {
    uploads.delete(fileId);
    throw error;
  }
}

async function uploadIfMissing(services: AdminServices, fileId: string, image: LocalImage): Promise<boolean> {
  try {
    await services.storage.getFile({ bucketId: IMAGES_BUCKET_ID, fileId });
    return false;
  } catch (error) {
    if (!(error instanceof AppwriteException && error.code === 404)) throw error;
  }
  try {
    await services.storage.createFile({
      bucketId: IMAGES_BUCKET_ID,
      fileId,
      file: InputFile.fromBuffer(new Uint8Array(image.bytes), image.name),
      permissions: [Permission.read(Role.any())],
    });
    return true;
  } catch (error) {
    if (error instanceof AppwriteException && error.type === "storage_file_already_exists") return false;
    throw error;
  }
}

/**
 * After deletions, removes the images only the deleted documents referenced (SECURITY C45: delete cleans up).
 * Best effort: a failure leaves the file for a later sweep.
 */
async function removeOrphanImages(
  services: AdminServices,
  planned: PlannedItem[],
  results: PushItemResult[],
  remote: Record<ContentKind, Map<string, Models.DefaultRow>>,
): Promise<void> {
  const deleted = new Set(results.filter((r) => r.action === "delete" && r.status === "done").map((r) => r.documentId));
  if (deleted.size === 0) return;
  const stillUsed = new Set<string>();
  const candidates = new Set<string>();
  for (const kind of Object.keys(CONTENT_KINDS) as ContentKind[]) {
    const field = CONTENT_KINDS[kind].imageField;
    for (const doc of remote[kind].values()) {
      const file = parseFileViewUrl(String(doc[field] ?? ""));
      if (!file || file.bucketId !== IMAGES_BUCKET_ID) continue;
      (deleted.has(doc.$id) ? candidates : stillUsed).add(file.fileId);
    }
  }
  for (const p of planned) {
    const file = p.imageUrl ? parseFileViewUrl(p.imageUrl) : null;
    if (file) stillUsed.add(file.fileId);
  }
  for (const fileId of candidates) {
    if (stillUsed.has(fileId)) continue;
    await services.storage.deleteFile({ bucketId: IMAGES_BUCKET_ID, fileId }).catch(() => {});
  }
}

/** A one-line description of a failure, with Appwrite's error type when there is one. */
export function describeError(error: unknown): string {
  if (error instanceof AppwriteException) return `${error.message}${error.type ? ` (${error.type})` : ""}`;
  return error instanceof Error ? error.message : String(error);
}
