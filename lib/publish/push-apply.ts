/**
 * `studio push`'s writes, one item at a time (`apply`) or a batch's files read again (`loadBatch`), and what an
 * item drops once written (`release`; issue #33 item 6: 200,000 items in < 1 GB). See `push.ts`.
 */
import { withStudioTeam } from "./item-permissions.ts";
import { IMAGES_BUCKET_ID } from "../../model/content.ts";
import { PUBLISH_AT_COLUMN, STATUS_COLUMN, type ItemState } from "../../model/lifecycle.ts";
import { DEFAULT_CONTENT_LOCALE, versionKey } from "../../model/model.ts";
import type { AdminServices } from "../appwrite/client.ts";
import type { ProjectLock } from "./lock.ts";
import { plannedFields, plannedLock, type PlanEntry, type PlannedItem, type PushItemResult } from "./plan.ts";
import { loadItem, needsLoad } from "./push-read.ts";
import { ensureBodyImages, ensureImage, removeUploaded, type ImageUploads } from "./push-images.ts";
import { describeError, lockEntryFor } from "./remote.ts";
import { isConnectionError } from "../appwrite/unreachable.ts";
import { createItemDocument, deleteItemDocument, updateItemDocument, type ImageStep } from "./writer.ts";

/**
 * Drops what `p` held for its write once its `result` is known (issue #33 item 6: a push of 200,000 items
 * holds the file, its rendering and the Appwrite row of the items not yet written, not of all): its entry
 * becomes the result; a deletion keeps its row (`removeOrphanImages` reads its image), every item its
 * `imageUrl` (the images still used).
 */
export function release(p: PlannedItem, result: PushItemResult): void {
  p.entry = result;
  p.item = null;
  p.rendered = null;
  p.sanitizedBody = null;
  p.image = null;
  p.bodyImages = null;
  if (result.action !== "delete") p.remote = null;
}

/**
 * Reads a planned create's or update's file again for its write (`loadItem`), when the plan held its stub.
 * @returns the failed result when the file is no longer what was planned (nothing is written for it), else null.
 */
export async function load(p: PlannedItem): Promise<PushItemResult | null> {
  if (!needsLoad(p.item) || !["create", "update"].includes(p.entry.action)) return null;
  const full = await loadItem(p.item);
  return "error" in full ? { ...p.entry, status: "failed", error: full.error } : null;
}

/**
 * Reads a batch's files again for their writes (`load`): those edited since the plan are recorded as failed
 * (nothing written for them).
 * @returns the others, in the batch's order.
 */
export async function loadBatch(
  batch: readonly PlannedItem[],
  record: (p: PlannedItem, result: PushItemResult) => void,
): Promise<PlannedItem[]> {
  const refused = new Set<PlannedItem>();
  await forEachLimit(batch, 16, async (p) => {
    const failed = await load(p);
    if (!failed) return;
    refused.add(p);
    record(p, failed);
  });
  return refused.size ? batch.filter((p) => !refused.has(p)) : [...batch];
}

/** Runs `task` over `items` with at most `limit` in flight. */
export async function forEachLimit<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/** The version key of a plan entry (`versionKey(slug, locale)`). */
export function entryKey(entry: PlanEntry): string {
  return versionKey(entry.slug, entry.locale ?? DEFAULT_CONTENT_LOCALE);
}

/**
 * Writes one planned create, update or delete (`createItemDocument`, `updateItemDocument`,
 * `deleteItemDocument`): its images first, the lock's entry after.
 * @returns its result: done, or failed with Appwrite's refusal (the images it alone uploaded removed).
 * @throws the connection error when Appwrite is gone (the push stops).
 */
export async function apply(
  services: AdminServices,
  p: PlannedItem,
  uploads: ImageUploads,
  sharedImages: Set<string>,
  project: ProjectLock,
): Promise<PushItemResult> {
  const { tablesDB: databases } = services;
  const { kind } = p.entry;
  const key = entryKey(p.entry);
  let bodyUploads: string[] = [];
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
    const { [STATUS_COLUMN]: state, [PUBLISH_AT_COLUMN]: publishAt, ...fields } = plannedFields(p);
    // The body's own images go first, as the featured image does (issue #30 item 4).
    bodyUploads = await ensureBodyImages(services, p, uploads);
    const lifecycle = { state: state as ItemState, publishAt: typeof publishAt === "string" ? publishAt : null };
    const changed = p.entry.changes.filter((key) => key in fields);
    const doc =
      p.entry.action === "create"
        ? await createItemDocument(databases, {
            kind,
            data: { ...fields, userId: null },
            // The team's item (issue #28 item 1): the state adds its read permission.
            permissions: withStudioTeam([]),
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
            // Existing rows get the team's permissions too (a site from before the team, issue #28 item 1).
            permissions: withStudioTeam(p.remote?.$permissions ?? []),
            savedBy: "studio push",
          });
    const entry = lockEntryFor(kind, doc, plannedLock(p));
    project[kind][key] = entry;
    return { ...p.entry, documentId: entry.id, status: "done" }; // the lock's own copy (`ownString`)
  } catch (error) {
    // Appwrite gone: not this item's failure; `push` stops at once (issue #26 item 10).
    if (isConnectionError(error)) throw error;
    // No orphans (SECURITY C44): the body images this item alone made are removed with its failed write.
    await removeUploaded(services, bodyUploads, sharedImages, uploads);
    return { ...p.entry, status: "failed", error: describeError(error) };
  }
}
