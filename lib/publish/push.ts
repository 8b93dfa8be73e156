/**
 * `studio push`: a plan-then-apply sync of `content/` into Appwrite keyed by slug (ARCHITECTURE decision 7,
 * data flow "studio push"). Safe to re-run: unchanged items are not written, images are content-addressed
 * and uploaded once, and a document write that fails removes the image it just uploaded.
 */
import { AppwriteException, ID, Permission, Query, Role } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import type { Models } from "node-appwrite";
import { CONTENT_KINDS, DATABASE_ID, IMAGES_BUCKET_ID, type ContentKind } from "../../schemas/content.ts";
import { fileViewUrl, type AdminServices } from "../appwrite/client.ts";
import { readContent, type ContentIssue, type ContentItem } from "../content/read.ts";
import { changedFields, imageFileId, localImage, managedFields, type ManagedFields } from "./documents.ts";

export type PlanAction = "create" | "update" | "unchanged";

/** One content item and what applying the plan does to it. */
export interface PlanEntry {
  kind: ContentKind;
  slug: string;
  file: string;
  action: PlanAction;
  /** Fields that differ (update only). */
  changes: string[];
  /** Remote document id (update/unchanged). */
  documentId?: string;
}

export interface PushItemResult extends PlanEntry {
  status: "done" | "failed";
  error?: string;
}

/** Summary counts, the `--json` contract of `studio push`. */
export interface PushSummary {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
}

export interface PushResult extends PushSummary {
  items: PushItemResult[];
  /** Validation problems; each invalid file counts once in `failed`. */
  issues: ContentIssue[];
  /** Files marked `draft: true`, left out. */
  drafts: string[];
  dryRun: boolean;
}

export type PushEvent =
  | { type: "validated"; valid: number; invalid: number; drafts: number }
  | { type: "planned"; plan: PlanEntry[] }
  | { type: "item"; result: PushItemResult; done: number; total: number };

export interface PushOptions {
  /** The content root (folder with `ventures/`, `posts/`, `images/`). */
  contentDir: string;
  /** Plan only: read Appwrite, write nothing. */
  dryRun?: boolean;
  onEvent?: (event: PushEvent) => void;
}

interface Planned {
  entry: PlanEntry;
  item: ContentItem;
  fields: ManagedFields;
}

/**
 * Validates `contentDir`, plans against Appwrite and (unless `dryRun`) applies the plan.
 * Invalid files are never written; other items still are. Never throws for a single item's failure:
 * it is reported in `items` and counted in `failed`.
 * @throws {SchemaMissingError} when the schema was never applied; {AppwriteException} when Appwrite cannot be
 * read at all (unreachable, bad key).
 */
export async function push(services: AdminServices, options: PushOptions): Promise<PushResult> {
  const emit = options.onEvent ?? (() => {});
  const content = await readContent(options.contentDir);
  const drafts = content.items.filter((i) => i.draft);
  const publishable = content.items.filter((i) => !i.draft);
  const invalidFiles = new Set(content.issues.map((i) => i.file));
  emit({ type: "validated", valid: publishable.length, invalid: invalidFiles.size, drafts: drafts.length });

  const planned = await plan(services, publishable);
  emit({ type: "planned", plan: planned.map((p) => p.entry) });

  const results: PushItemResult[] = [];
  const ensuredImages = new Set<string>();
  for (const [index, p] of planned.entries()) {
    let result: PushItemResult;
    if (options.dryRun || p.entry.action === "unchanged") {
      result = { ...p.entry, status: "done" };
    } else {
      result = await apply(services, p, ensuredImages);
    }
    results.push(result);
    emit({ type: "item", result, done: index + 1, total: planned.length });
  }

  const count = (action: PlanAction) => results.filter((r) => r.status === "done" && r.action === action).length;
  return {
    created: count("create"),
    updated: count("update"),
    unchanged: count("unchanged"),
    failed: results.filter((r) => r.status === "failed").length + invalidFiles.size,
    items: results,
    issues: content.issues,
    drafts: drafts.map((d) => d.file),
    dryRun: options.dryRun ?? false,
  };
}

async function plan(services: AdminServices, items: ContentItem[]): Promise<Planned[]> {
  const remote = new Map<ContentKind, Map<string, Models.DefaultDocument>>();
  for (const kind of Object.keys(CONTENT_KINDS) as ContentKind[]) {
    if (items.some((i) => i.kind === kind)) {
      remote.set(kind, await listBySlug(services, CONTENT_KINDS[kind].collectionId));
    }
  }
  return items.map((item) => {
    const image = localImage(item);
    const imageUrl = image
      ? fileViewUrl(services.target, IMAGES_BUCKET_ID, imageFileId(image.bytes))
      : item.image && "url" in item.image
        ? item.image.url
        : null;
    const fields = managedFields(item, imageUrl);
    const existing = remote.get(item.kind)?.get(item.slug);
    const base = { kind: item.kind, slug: item.slug, file: item.file };
    if (!existing) return { item, fields, entry: { ...base, action: "create" as const, changes: [] } };
    const changes = changedFields(fields, existing);
    const action: PlanAction = changes.length > 0 ? "update" : "unchanged";
    return { item, fields, entry: { ...base, action, changes, documentId: existing.$id } };
  });
}

/** Appwrite has no database or collection to push into: the schema was never applied there. */
export class SchemaMissingError extends Error {
  override name = "SchemaMissingError";
}

/**
 * Every document of a collection, by slug, read with cursor pagination (REFERENCE §2).
 * @throws {SchemaMissingError} when the database or collection does not exist.
 */
async function listBySlug(services: AdminServices, collectionId: string): Promise<Map<string, Models.DefaultDocument>> {
  const bySlug = new Map<string, Models.DefaultDocument>();
  let cursor: string | undefined;
  for (;;) {
    const queries = [Query.limit(100), ...(cursor ? [Query.cursorAfter(cursor)] : [])];
    const page = await services.databases
      .listDocuments({ databaseId: DATABASE_ID, collectionId, queries })
      .catch((error: unknown) => {
        if (
          error instanceof AppwriteException &&
          (error.type === "database_not_found" || error.type === "collection_not_found")
        ) {
          throw new SchemaMissingError(
            `${services.target.endpoint} has no ${error.type === "database_not_found" ? `database ${DATABASE_ID}` : `collection ${collectionId}`}: run \`studio setup\` first.`,
          );
        }
        throw error;
      });
    for (const doc of page.documents) bySlug.set(String(doc.slug), doc);
    if (page.documents.length < 100) return bySlug;
    cursor = page.documents.at(-1)?.$id;
  }
}

async function apply(services: AdminServices, p: Planned, ensuredImages: Set<string>): Promise<PushItemResult> {
  const { databases } = services;
  const collectionId = CONTENT_KINDS[p.entry.kind].collectionId;
  let uploadedFileId: string | null = null;
  try {
    uploadedFileId = await ensureImage(services, p, ensuredImages);
    if (p.entry.action === "create") {
      const doc = await databases.createDocument({
        databaseId: DATABASE_ID,
        collectionId,
        documentId: ID.unique(),
        data: { ...p.fields, userId: null },
        permissions: [Permission.read(Role.any())],
      });
      return { ...p.entry, documentId: doc.$id, status: "done" };
    }
    const data = Object.fromEntries(p.entry.changes.map((key) => [key, p.fields[key] ?? null]));
    await databases.updateDocument({ databaseId: DATABASE_ID, collectionId, documentId: p.entry.documentId!, data });
    return { ...p.entry, status: "done" };
  } catch (error) {
    if (uploadedFileId) {
      // No orphans (SECURITY C44): the document that would reference the new file was not written.
      await services.storage.deleteFile({ bucketId: IMAGES_BUCKET_ID, fileId: uploadedFileId }).catch(() => {});
      ensuredImages.delete(uploadedFileId);
    }
    return { ...p.entry, status: "failed", error: describeError(error) };
  }
}

/**
 * Makes sure the item's local image is in the bucket. Skips the check when the image field is unchanged
 * (content-addressed ids: same URL, same bytes).
 * @returns the file id when this call uploaded it, else null.
 */
async function ensureImage(services: AdminServices, p: Planned, ensured: Set<string>): Promise<string | null> {
  const image = localImage(p.item);
  if (!image) return null;
  const imageField = CONTENT_KINDS[p.entry.kind].imageField;
  if (p.entry.action === "update" && !p.entry.changes.includes(imageField)) return null;
  const fileId = imageFileId(image.bytes);
  if (ensured.has(fileId)) return null;
  try {
    await services.storage.getFile({ bucketId: IMAGES_BUCKET_ID, fileId });
    ensured.add(fileId);
    return null;
  } catch (error) {
    if (!(error instanceof AppwriteException && error.code === 404)) throw error;
  }
  await services.storage.createFile({
    bucketId: IMAGES_BUCKET_ID,
    fileId,
    file: InputFile.fromBuffer(new Uint8Array(image.bytes), image.name),
    permissions: [Permission.read(Role.any())],
  });
  ensured.add(fileId);
  return fileId;
}

/** A one-line description of a failure, with Appwrite's error type when there is one. */
export function describeError(error: unknown): string {
  if (error instanceof AppwriteException) return `${error.message}${error.type ? ` (${error.type})` : ""}`;
  return error instanceof Error ? error.message : String(error);
}
