/**
 * Restoring an export (SECURITY C48; docs/decisions/0005): puts back whatever of it is missing, files first,
 * then documents with their ids and permissions, image URLs rewritten to the Appwrite restored into. What
 * exists is left alone, and a document whose slug another now uses is a conflict, not an overwrite.
 */
import { AppwriteException, Query } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { DEFAULT_CONTENT_LOCALE, isContentLocale } from "../../model/model.ts";
import { fileViewUrl, parseFileViewUrl, type AdminServices, type AppwriteTarget } from "../appwrite/client.ts";
import { type ExportedDocument, type ExportedFile, type StudioExport } from "./export.ts";
import { createItemDocument } from "./writer.ts";
import { sha256Hex } from "../content/body-digest.ts";

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
  if (bytes.byteLength !== file.sizeBytes || sha256Hex(bytes) !== file.sha256) {
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
