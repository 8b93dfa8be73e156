/**
 * Exports before destructive operations, and restoring them (SECURITY C48; docs/decisions/0005). Before
 * `studio push --prune` or `studio sweep --yes` deletes anything, what it will delete is written to one
 * self-contained, timestamped JSON file: each document with its `$id`, `$permissions` and attributes, and each
 * bucket file with its id, name, permissions and bytes (base64, with a SHA-256 to check them). The file is
 * written to a temporary name, flushed to disk and renamed, so an export either exists whole or not at all;
 * if it cannot be written, the caller deletes nothing. `restoreExport` (restore.ts) puts back whatever is missing.
 */
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { AppwriteException, type Models } from "node-appwrite";
import writeFileAtomic from "write-file-atomic";
import { z } from "zod";
import {
  CONTENT_KINDS,
  DATABASE_ID,
  IMAGES_BUCKET_ID,
  contentKindSchema,
  type ContentKind,
} from "../../model/content.ts";
import { parseFileViewUrl, type AdminServices } from "../appwrite/client.ts";
import { makeDirectory } from "../make-dir.ts";
import { AbortError, EXIT } from "../errors.ts";
import { sha256Hex } from "../content/body-digest.ts";

/** Default folder of exports for a real Appwrite, relative to the working directory (git-ignored). */
export const DEFAULT_EXPORT_DIR = ".studio/exports";
/** Folder of exports inside `DATA_DIR` for the embedded server. */
export const EMBEDDED_EXPORT_DIR = "exports";

const exportedDocumentSchema = z.object({
  kind: contentKindSchema,
  collectionId: z.string().min(1),
  $id: z.string().min(1),
  $permissions: z.array(z.string()),
  $createdAt: z.string(),
  $updatedAt: z.string(),
  /** The document's attributes (every key not starting with `$`). */
  data: z.record(z.string(), z.unknown()),
});
const exportedFileSchema = z.object({
  bucketId: z.string().min(1),
  $id: z.string().min(1),
  $permissions: z.array(z.string()),
  $createdAt: z.string(),
  name: z.string(),
  mimeType: z.string(),
  sizeBytes: z.number().int().min(0),
  /** SHA-256 (hex) of the bytes, checked before a restore uploads them. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  base64: z.string(),
});
const exportSchema = z.object({
  format: z.literal("studio-export"),
  version: z.literal(1),
  /** ISO 8601 UTC. */
  createdAt: z.string(),
  /** What was about to delete these: `push --prune` or `sweep`. */
  reason: z.string(),
  source: z.object({ endpoint: z.string(), projectId: z.string(), databaseId: z.string() }),
  documents: z.array(exportedDocumentSchema),
  files: z.array(exportedFileSchema),
});

export type ExportedDocument = z.infer<typeof exportedDocumentSchema>;
export type ExportedFile = z.infer<typeof exportedFileSchema>;
/** The JSON an export file holds (format `studio-export`, version 1). */
export type StudioExport = z.infer<typeof exportSchema>;

/** The export could not be read from Appwrite or written to disk; nothing was deleted. */
export class ExportError extends AbortError {
  override name = "ExportError";
  constructor(message: string) {
    super(message, { exitCode: EXIT.backend });
  }
}

/** The file given to restore is not a readable `studio-export` JSON file. */
export class ExportFileError extends AbortError {
  override name = "ExportFileError";
  constructor(message: string) {
    super(message, { exitCode: EXIT.usage });
  }
}

/** Where an export was written and what it holds. */
export interface ExportReport {
  /** Absolute path of the JSON file. */
  path: string;
  documents: number;
  files: number;
  /** Size of the JSON file in bytes. */
  bytes: number;
}

/** What to export: documents (as read from Appwrite) and ids of files in the images bucket. */
export interface ExportRequest {
  /** Folder to write into; created when missing. */
  dir: string;
  /** Short label that starts the file name and is recorded in the file: `prune`, `sweep`. */
  reason: string;
  documents: { kind: ContentKind; document: Models.DefaultRow }[];
  /** Files of `IMAGES_BUCKET_ID`; ids that no longer exist are left out (there is nothing to delete). */
  fileIds: Iterable<string>;
  /** The export's time (default now). */
  now?: Date;
}

/** The ids of images-bucket files a document's image field points at (an Appwrite view URL), if any. */
export function imageFileIdsOf(kind: ContentKind, document: Record<string, unknown>): string[] {
  const value = document[CONTENT_KINDS[kind].imageField];
  const file = typeof value === "string" ? parseFileViewUrl(value) : null;
  return file && file.bucketId === IMAGES_BUCKET_ID ? [file.fileId] : [];
}

/** `doc` as an export holds it: its kind and collection, its system attributes, and its data without them. */
function exportedDocument(kind: ContentKind, doc: Models.DefaultRow): ExportedDocument {
  const data = Object.fromEntries(Object.entries(doc).filter(([key]) => !key.startsWith("$")));
  return {
    kind,
    collectionId: CONTENT_KINDS[kind].collectionId,
    $id: doc.$id,
    $permissions: doc.$permissions,
    $createdAt: doc.$createdAt,
    $updatedAt: doc.$updatedAt,
    data,
  };
}

async function exportedFile(services: AdminServices, fileId: string): Promise<ExportedFile | null> {
  const ids = { bucketId: IMAGES_BUCKET_ID, fileId };
  let file: Models.File;
  try {
    file = await services.storage.getFile(ids);
  } catch (error) {
    if (error instanceof AppwriteException && error.code === 404) return null;
    throw error;
  }
  const bytes = new Uint8Array(await services.storage.getFileDownload(ids));
  return {
    bucketId: IMAGES_BUCKET_ID,
    $id: file.$id,
    $permissions: file.$permissions,
    $createdAt: file.$createdAt,
    name: file.name,
    mimeType: file.mimeType,
    sizeBytes: bytes.byteLength,
    sha256: sha256Hex(bytes),
    base64: Buffer.from(bytes).toString("base64"),
  };
}

/** `prune-2026-11-22T10-15-30-123Z.json`: sorts by time, valid on every file system. */
function exportFileName(reason: string, now: Date, attempt: number): string {
  const stamp = now.toISOString().replace(/:/g, "-").replace(/\./g, "-");
  return `${reason}-${stamp}${attempt ? `-${attempt}` : ""}.json`;
}

async function freeName(dir: string, reason: string, now: Date): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const candidate = path.join(dir, exportFileName(reason, now, attempt));
    try {
      await stat(candidate);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return candidate;
      throw error;
    }
  }
}

/**
 * Reads what `request` names from Appwrite (documents as given, file bytes downloaded) and writes it as one
 * JSON export into `request.dir` (mode 0600; the folder is created). Writes nothing when there is nothing
 * to export. Source: SECURITY C48 ("first writes a timestamped JSON export, then deletes").
 * @returns where the export is, or null when there was nothing to export.
 * @throws {ExportError} when a file cannot be downloaded or the export cannot be written; the message says
 *   that nothing was deleted and what to do.
 */
export async function writeExport(services: AdminServices, request: ExportRequest): Promise<ExportReport | null> {
  const documents = request.documents.map((d) => exportedDocument(d.kind, d.document));
  const files: ExportedFile[] = [];
  for (const fileId of new Set(request.fileIds)) {
    try {
      const file = await exportedFile(services, fileId);
      if (file) files.push(file);
    } catch (error) {
      throw new ExportError(
        `Could not read file ${fileId} of bucket ${IMAGES_BUCKET_ID} for the export (${(error as Error).message}); nothing was deleted. Run the command again.`,
      );
    }
  }
  if (documents.length === 0 && files.length === 0) return null;
  const now = request.now ?? new Date();
  const content: StudioExport = {
    format: "studio-export",
    version: 1,
    createdAt: now.toISOString(),
    reason: request.reason,
    source: { endpoint: services.target.endpoint, projectId: services.target.projectId, databaseId: DATABASE_ID },
    documents,
    files,
  };
  const dir = path.resolve(request.dir);
  try {
    // Not mkdir({ recursive: true }): it never returns for a folder that cannot be created (C59).
    await makeDirectory(dir, 0o700);
    const file = await freeName(dir, request.reason, now);
    const text = `${JSON.stringify(content, null, 2)}\n`;
    // Whole or not at all: a temporary file, flushed to disk, then renamed (write-file-atomic).
    await writeFileAtomic(file, text, { mode: 0o600 });
    return { path: file, documents: documents.length, files: files.length, bytes: Buffer.byteLength(text) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ExportError(
      `Could not write the export to ${dir} (${code}); nothing was deleted. Make that folder writable, or pass --export-dir <folder>.`,
    );
  }
}

/**
 * Reads and validates an export file.
 * @throws {ExportFileError} when the file is missing, not JSON, or not a `studio-export` version 1.
 */
export async function readExport(file: string): Promise<StudioExport> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new ExportFileError(`Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"}).`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ExportFileError(`${file} is not JSON; pass a file written by studio push --prune or studio sweep.`);
  }
  const result = exportSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ExportFileError(
      `${file} is not a studio export (version 1): ${issue?.path.join(".") || "file"}: ${issue?.message}.`,
    );
  }
  return result.data;
}
