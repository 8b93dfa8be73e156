/**
 * Exports before destructive operations, and restoring them (SECURITY C48; docs/decisions/0005). Before
 * `studio push --prune` or `studio sweep --yes` deletes anything, what it will delete is written to one
 * self-contained, timestamped JSON file: each document with its `$id`, `$permissions` and attributes, and each
 * bucket file with its id, name, permissions and bytes (base64, with a SHA-256 to check them). The file is
 * written to a temporary name, flushed to disk and renamed, so an export either exists whole or not at all;
 * if it cannot be written, the caller deletes nothing. `restoreExport` puts back whatever is missing.
 */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { AppwriteException, Query, type Models } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import writeFileAtomic from "write-file-atomic";
import { z } from "zod";
import { createItemDocument } from "./writer.ts";
import { CONTENT_KINDS, DATABASE_ID, IMAGES_BUCKET_ID, type ContentKind } from "../../schemas/content.ts";
import { DEFAULT_CONTENT_LOCALE, isContentLocale } from "../../schemas/model.ts";
import { fileViewUrl, parseFileViewUrl, type AdminServices, type AppwriteTarget } from "../appwrite/client.ts";
import { makeDirectory } from "../make-dir.ts";
import { AbortError, EXIT } from "../errors.ts";

/** Default folder of exports for a real Appwrite, relative to the working directory (git-ignored). */
export const DEFAULT_EXPORT_DIR = ".studio/exports";
/** Folder of exports inside `DATA_DIR` for the embedded server. */
export const EMBEDDED_EXPORT_DIR = "exports";

const exportedDocumentSchema = z.object({
  kind: z.enum(["venture", "post"]),
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

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

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
    sha256: sha256(bytes),
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

/** One restored (or not) item. */
export interface RestoreItem {
  type: "document" | "file";
  /** `venture`, `post`, or the bucket id. */
  kind: string;
  id: string;
  /** The slug of a document. */
  slug?: string;
  /** `exists`: already there, left as is; `conflict`: another document uses the slug. */
  action: "restored" | "exists" | "conflict" | "failed";
  reason?: string;
}

export interface RestoreResult {
  items: RestoreItem[];
  restored: { documents: number; files: number };
  existing: number;
  conflicts: number;
  failed: number;
}

/** The view URL of the source rewritten to `target` (same bucket and file id), other values as they are. */
function retarget(
  value: unknown,
  source: StudioExport["source"],
  target: Pick<AppwriteTarget, "endpoint" | "projectId">,
) {
  if (typeof value !== "string") return value;
  const file = parseFileViewUrl(value);
  if (!file || value !== fileViewUrl(source, file.bucketId, file.fileId)) return value;
  return fileViewUrl(target, file.bucketId, file.fileId);
}

async function restoreFile(services: AdminServices, file: ExportedFile): Promise<RestoreItem> {
  const base = { type: "file" as const, kind: file.bucketId, id: file.$id };
  try {
    await services.storage.getFile({ bucketId: file.bucketId, fileId: file.$id });
    return { ...base, action: "exists" };
  } catch (error) {
    if (!(error instanceof AppwriteException && error.code === 404)) throw error;
  }
  const bytes = Buffer.from(file.base64, "base64");
  if (bytes.byteLength !== file.sizeBytes || sha256(bytes) !== file.sha256) {
    return { ...base, action: "failed", reason: "its bytes in the export do not match their SHA-256 (damaged export)" };
  }
  await services.storage.createFile({
    bucketId: file.bucketId,
    fileId: file.$id,
    file: InputFile.fromBuffer(new Uint8Array(bytes), file.name),
    permissions: file.$permissions,
  });
  return { ...base, action: "restored" };
}

async function restoreDocument(
  services: AdminServices,
  source: StudioExport["source"],
  doc: ExportedDocument,
): Promise<RestoreItem> {
  const ids = { databaseId: source.databaseId, tableId: doc.collectionId };
  const slug = typeof doc.data.slug === "string" ? doc.data.slug : undefined;
  const base = { type: "document" as const, kind: doc.kind, id: doc.$id, slug };
  try {
    await services.tablesDB.getRow({ ...ids, rowId: doc.$id });
    return { ...base, action: "exists" };
  } catch (error) {
    if (!(error instanceof AppwriteException && error.code === 404)) throw error;
  }
  if (slug) {
    // One document per slug and locale (decision 0008); an export from before locales holds English ones.
    const locale = isContentLocale(doc.data.locale) ? doc.data.locale : DEFAULT_CONTENT_LOCALE;
    const taken = await services.tablesDB.listRows({
      ...ids,
      queries: [Query.equal("slug", slug), Query.equal("locale", locale), Query.limit(1)],
    });
    if (taken.total > 0) {
      return {
        ...base,
        action: "conflict",
        reason: `another ${doc.kind} (${taken.rows[0]?.$id}) now uses this slug in ${locale}`,
      };
    }
  }
  const data: Record<string, unknown> = Object.fromEntries(
    Object.entries(doc.data).map(([k, v]) => [k, retarget(v, source, services.target)]),
  );
  data.locale ??= DEFAULT_CONTENT_LOCALE;
  await createItemDocument(services.tablesDB, {
    kind: doc.kind,
    documentId: doc.$id,
    data,
    permissions: doc.$permissions,
  });
  return { ...base, action: "restored" };
}

/**
 * Puts back what `exported` holds that is missing in Appwrite: files first (same id, name, permissions and
 * bytes), then documents (same `$id`, permissions and attributes; image URLs of the source project are
 * rewritten to this one). Existing items are left alone; a document whose slug another document took is a
 * conflict and not restored. `$createdAt`/`$updatedAt` are Appwrite's new ones. A failure of one item is
 * reported in the result, never thrown. Restored items are not in the sync lock: `push` leaves them alone
 * and `studio pull` adopts them into files.
 * @throws {AppwriteException} when Appwrite cannot be read at all.
 */
export async function restoreExport(
  services: AdminServices,
  exported: StudioExport,
  onItem: (item: RestoreItem) => void = () => {},
): Promise<RestoreResult> {
  const items: RestoreItem[] = [];
  const record = (item: RestoreItem) => {
    items.push(item);
    onItem(item);
  };
  for (const file of exported.files) {
    record(
      await restoreFile(services, file).catch((error: unknown): RestoreItem => ({
        type: "file",
        kind: file.bucketId,
        id: file.$id,
        action: "failed",
        reason: (error as Error).message,
      })),
    );
  }
  for (const doc of exported.documents) {
    record(
      await restoreDocument(services, exported.source, doc).catch((error: unknown): RestoreItem => ({
        type: "document",
        kind: doc.kind,
        id: doc.$id,
        action: "failed",
        reason: (error as Error).message,
      })),
    );
  }
  const count = (action: RestoreItem["action"], type?: RestoreItem["type"]) =>
    items.filter((i) => i.action === action && (!type || i.type === type)).length;
  return {
    items,
    restored: { documents: count("restored", "document"), files: count("restored", "file") },
    existing: count("exists"),
    conflicts: count("conflict"),
    failed: count("failed"),
  };
}
