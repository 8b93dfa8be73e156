/**
 * The orphan sweep (SECURITY C44: "a nightly sweep finds 0 files not referenced by any doc"). Files of the
 * images bucket that no venture or post references are left behind when a process dies between an upload
 * and the document write that would use it, or when an image is replaced. Such a file is only swept once it
 * is older than a grace period (default 1 hour), so an upload made seconds ago by an admin form that is
 * about to create its document is never taken. Before deleting, the files are exported (C48, `export.ts`).
 */
import type { Models } from "node-appwrite";
import { CONTENT_KINDS, DATABASE_ID, IMAGES_BUCKET_ID, type ContentKind } from "../../model/content.ts";
import { parseFileViewUrl, type AdminServices } from "../appwrite/client.ts";
import { listAll, listPages } from "../appwrite/paginate.ts";
import { ExportError, writeExport, type ExportReport } from "./export.ts";
import { referencedImageIds } from "../content/body-images.ts";

/** Default grace period: files younger than this are never swept, in ms (1 hour). */
export const DEFAULT_SWEEP_GRACE_MS = 60 * 60 * 1000;

/** A file no document references. */
export interface OrphanFile {
  id: string;
  name: string;
  sizeBytes: number;
  /** Appwrite `$createdAt`. */
  createdAt: string;
  /** Deleted by this sweep (false on a dry run, or when the delete failed: see `error`). */
  deleted: boolean;
  error?: string;
}

export interface SweepOptions {
  /** Only files created at least this long ago are swept, in ms (default `DEFAULT_SWEEP_GRACE_MS`). */
  olderThanMs?: number;
  /** Delete the orphans; without it, only list them (a dry run). */
  apply?: boolean;
  /** Folder for the export written before deleting; required with `apply` when there are orphans. */
  exportDir?: string;
  /** The sweep's clock (default now). */
  now?: Date;
}

export interface SweepResult {
  /** Files in the bucket. */
  scanned: number;
  /** Files a venture or post references. */
  referenced: number;
  /** Unreferenced files kept because they are younger than the grace period. */
  young: number;
  orphans: OrphanFile[];
  deleted: number;
  failed: number;
  /** The export written before deleting, or null (dry run, nothing to delete). */
  exported: ExportReport | null;
  dryRun: boolean;
}

const VIEW_URLS = /\/storage\/buckets\/[^/?#"'\s]+\/files\/[^/?#"'\s]+\/view/g;

/**
 * Ids of images-bucket files the documents of `kind` reference: their image field, and any file view URL in
 * any other string field (a body may embed one), or a `/media/<fileId>` URL (an inline image), so that a sweep
 * never takes a file still shown somewhere.
 */
async function referencedFileIds(services: AdminServices, kind: ContentKind, into: Set<string>): Promise<void> {
  const pages = listPages((queries) =>
    services.tablesDB
      .listRows({ databaseId: DATABASE_ID, tableId: CONTENT_KINDS[kind].collectionId, queries, total: false })
      .then((page) => page.rows),
  );
  for await (const documents of pages) {
    for (const doc of documents) {
      for (const [key, value] of Object.entries(doc)) {
        if (key.startsWith("$") || typeof value !== "string") continue;
        for (const match of value.matchAll(VIEW_URLS)) {
          const file = parseFileViewUrl(match[0]);
          if (file?.bucketId === IMAGES_BUCKET_ID) into.add(file.fileId);
        }
        // An inline image of a body, as push and the admin store it: `/media/<fileId>` (issue #30 item 4).
        for (const id of referencedImageIds(value)) into.add(id);
      }
    }
  }
}

/** Every file of the images bucket, read with cursor pagination. */
function allFiles(services: AdminServices): Promise<Models.File[]> {
  return listAll((queries) =>
    services.storage.listFiles({ bucketId: IMAGES_BUCKET_ID, queries }).then((page) => page.files),
  );
}

/**
 * Finds files of the images bucket that no venture or post references and that are older than the grace
 * period; with `apply`, exports them (bytes included) and then deletes them. The files are read before the
 * documents, so a file uploaded during the sweep is not even considered, and one whose document appears
 * meanwhile is seen as referenced.
 * @throws {ExportError} with `apply`, when the export cannot be written (nothing was deleted) or no
 *   `exportDir` was given; {AppwriteException} when Appwrite cannot be read.
 */
export async function sweepOrphans(services: AdminServices, options: SweepOptions = {}): Promise<SweepResult> {
  const graceMs = options.olderThanMs ?? DEFAULT_SWEEP_GRACE_MS;
  const now = (options.now ?? new Date()).getTime();
  const files = await allFiles(services);
  const referenced = new Set<string>();
  for (const kind of Object.keys(CONTENT_KINDS) as ContentKind[]) await referencedFileIds(services, kind, referenced);

  const unreferenced = files.filter((f) => !referenced.has(f.$id));
  const old = unreferenced.filter((f) => now - Date.parse(f.$createdAt) >= graceMs);
  const orphans: OrphanFile[] = old.map((f) => ({
    id: f.$id,
    name: f.name,
    sizeBytes: f.sizeOriginal,
    createdAt: f.$createdAt,
    deleted: false,
  }));
  let exported: ExportReport | null = null;
  if (options.apply && orphans.length > 0) {
    if (!options.exportDir) throw new ExportError("the sweep was given no folder for its export; nothing was deleted.");
    exported = await writeExport(services, {
      dir: options.exportDir,
      reason: "sweep",
      documents: [],
      fileIds: orphans.map((o) => o.id),
    });
    for (const orphan of orphans) {
      try {
        await services.storage.deleteFile({ bucketId: IMAGES_BUCKET_ID, fileId: orphan.id });
        orphan.deleted = true;
      } catch (error) {
        orphan.error = (error as Error).message;
      }
    }
  }
  return {
    scanned: files.length,
    referenced: files.length - unreferenced.length,
    young: unreferenced.length - old.length,
    orphans,
    deleted: orphans.filter((o) => o.deleted).length,
    failed: orphans.filter((o) => o.error).length,
    exported,
    dryRun: !options.apply,
  };
}
