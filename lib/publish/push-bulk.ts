/**
 * `studio push`'s new items written in bulk (issue #33 item 5): TablesDB `createRows` (Appwrite 1.8, at most
 * 100 rows a request, all or nothing) instead of one `createRow` each: 1,000 posts in ~0.15 s of server time
 * instead of ~1.07 s. Each item is rendered and sanitized as before (`plannedFields`, the XSS boundary),
 * and its image uploaded first, as `createItemDocument` does. A batch Appwrite refuses is retried one item at a
 * time (the caller's `createOne`), so one bad item fails alone with its own error; the images the batch
 * uploaded are removed first (SECURITY C44: no orphan files).
 */
import { type Models } from "node-appwrite";
import { withStudioTeam } from "./item-permissions.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { PUBLISH_AT_COLUMN, STATUS_COLUMN, type ItemState } from "../../model/lifecycle.ts";
import { CONTENT_MODEL, DEFAULT_CONTENT_LOCALE, versionKey, type ContentKind } from "../../model/model.ts";
import type { AdminServices } from "../appwrite/client.ts";
import { isConnectionError } from "../appwrite/unreachable.ts";
import type { ProjectLock } from "./lock.ts";
import { plannedFields, plannedLock, type PlanEntry, type PlannedItem } from "./plan.ts";
import { loadBatch } from "./push-apply.ts";
import { ensureBodyImages, ensureImage, removeUploaded, type ImageUploads } from "./push-images.ts";
import { lockEntryFor } from "./remote.ts";
import { newItemRow } from "./writer.ts";

/**
 * Rows in one `createRows` request: 25 (Appwrite takes up to 100, `APP_LIMIT_DATABASE_BATCH`). Already 25×
 * fewer requests; smaller batches keep progress visible (the bar moves every 25 items) and bound what one
 * refused batch retries one by one, and what a push stopped midway (killed, Appwrite gone) leaves undone.
 */
export const CREATE_BATCH_SIZE = 25;
/** Rows a request for a push of `LARGE_PUSH` new items or more: Appwrite's most, 100 (issue #33 item 6). */
export const LARGE_BATCH_SIZE = 100;
/** From this many new items, `batchSizeFor` takes `LARGE_BATCH_SIZE`. */
export const LARGE_PUSH = 1_000;

/**
 * The batch size for a push of `creates` new items: `CREATE_BATCH_SIZE` (progress every 25), or from
 * `LARGE_PUSH` on `LARGE_BATCH_SIZE`: at 200,000 items (issue #33 item 6) 4× fewer requests matter more than
 * a bar that moves every 25 of them.
 */
export function batchSizeFor(creates: number): number {
  return creates >= LARGE_PUSH ? LARGE_BATCH_SIZE : CREATE_BATCH_SIZE;
}

/** Image uploads in flight at once within a batch (as `push`'s default concurrency). */
const IMAGE_CONCURRENCY = 4;

/** What a bulk create reports per item (as `push`'s `PushItemResult`). */
export type CreatedItem = PlanEntry & { status: "done" | "failed"; error?: string };

export interface BulkCreateContext {
  services: AdminServices;
  uploads: ImageUploads;
  /** Image file ids more than one planned item uses: never removed on a failure. */
  sharedImages: Set<string>;
  /** The lock's project entry: each created item is recorded in it. */
  project: ProjectLock;
  /** Creates one item the usual way (`createItemDocument`): used for a refused batch's items. */
  createOne(p: PlannedItem): Promise<CreatedItem>;
  /** Called once per item, when its outcome is known (the caller may then drop what `p` holds). */
  onResult(p: PlannedItem, result: CreatedItem): void;
}

/** `planned` cut into batches of at most `size` items of one kind, in plan order. */
export function createBatches(planned: readonly PlannedItem[], size = CREATE_BATCH_SIZE): PlannedItem[][] {
  const byKind = new Map<ContentKind, PlannedItem[][]>();
  for (const p of planned) {
    const batches = byKind.get(p.entry.kind) ?? [];
    if (!batches.length || batches.at(-1)!.length >= size) batches.push([]);
    batches.at(-1)!.push(p);
    byKind.set(p.entry.kind, batches);
  }
  return [...byKind.values()].flat();
}

/** The row of a planned create: its fields rendered (and sanitized), lifecycle columns, permissions. */
function rowOf(p: PlannedItem): Record<string, unknown> {
  const { [STATUS_COLUMN]: state, [PUBLISH_AT_COLUMN]: publishAt, ...fields } = plannedFields(p);
  return newItemRow({
    kind: p.entry.kind,
    data: { ...fields, userId: null },
    // The team's, as a one-by-one create gives them (push.ts; decision 0017); the state sets the read role.
    permissions: withStudioTeam([]),
    lifecycle: { state: state as ItemState, publishAt: typeof publishAt === "string" ? publishAt : null },
    savedBy: "studio push",
  });
}

/**
 * The rows of a batch, rendered and sanitized (`plannedFields`): what `createBatch` sends. Rendering takes a
 * while: it yields between items, so the event loop sees a keep-alive socket the server closed meanwhile (else
 * the next request goes out on it and fails as a connection error), and a request in flight is answered.
 */
export async function renderBatch(batch: readonly PlannedItem[]): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for (const p of batch) {
    rows.push(rowOf(p));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return rows;
}

/**
 * Creates one batch (items of one kind): images first, then one `createRows` of `rendered` (`renderBatch`,
 * which the caller may have run while the previous batch was being written; default: rendered here); records
 * each row in the lock.
 * @throws the connection error when Appwrite is gone (the caller stops the push); any other refusal of the
 *   batch is retried item by item through `createOne`.
 */
export async function createBatch(
  batch: readonly PlannedItem[],
  context: BulkCreateContext,
  rendered?: Record<string, unknown>[],
): Promise<void> {
  const { services } = context;
  const kind = batch[0]!.entry.kind;
  const uploaded: string[] = [];
  try {
    let next = 0;
    const uploader = async () => {
      while (next < batch.length) {
        const p = batch[next++]!;
        const fileId = await ensureImage(services, p, context.uploads);
        if (fileId) uploaded.push(fileId);
        uploaded.push(...(await ensureBodyImages(services, p, context.uploads)));
      }
    };
    await Promise.all(Array.from({ length: Math.min(IMAGE_CONCURRENCY, batch.length) }, uploader));
    const rows = rendered ?? (await renderBatch(batch));
    const created = await services.tablesDB.createRows({
      databaseId: DATABASE_ID,
      tableId: CONTENT_MODEL[kind].collectionId,
      rows,
    });
    const byId = new Map<string, Models.DefaultRow>(created.rows.map((row) => [row.$id, row]));
    batch.forEach((p, index) => {
      const doc = byId.get(rows[index]!.$id as string)!;
      const entry = lockEntryFor(kind, doc, plannedLock(p));
      context.project[kind][versionKey(p.entry.slug, p.entry.locale ?? DEFAULT_CONTENT_LOCALE)] = entry;
      // The lock entry's own copy of the id, not the answer's (`ownString`).
      context.onResult(p, { ...p.entry, documentId: entry.id, status: "done" });
    });
  } catch (error) {
    if (isConnectionError(error)) throw error;
    // The batch wrote nothing (all or nothing): its new images would be orphans; then one item at a time.
    await removeUploaded(services, uploaded, context.sharedImages, context.uploads);
    for (const p of batch) context.onResult(p, await context.createOne(p));
  }
}

/**
 * Creates `bulk` (planned creates) in batches of `batchSizeFor(bulk.length)` items of one kind, one batch
 * written at a time: a push stopped midway leaves at most one batch's images behind (reused next time). Each
 * batch's files are read again (`loadBatch`; one edited since the plan fails alone) and rendered while the one
 * before is written (the client's work beside Appwrite's).
 * @param stopped whether the push has stopped (Appwrite gone): no further batch is started.
 * @param stop called with the connection error that stops the push (`createBatch` throws only that).
 */
export async function createInBatches(
  bulk: readonly PlannedItem[],
  context: BulkCreateContext,
  stopped: () => boolean,
  stop: (error: unknown) => void,
): Promise<void> {
  let writing: Promise<void> = Promise.resolve();
  for (const batch of createBatches(bulk, batchSizeFor(bulk.length))) {
    if (stopped()) break;
    const ready = await loadBatch(batch, context.onResult);
    // A batch that fails to render here is rendered by `createBatch`, where a failure is its item's alone.
    const rows = ready.length ? await renderBatch(ready).catch(() => undefined) : undefined;
    await writing;
    if (stopped() || ready.length === 0) continue;
    writing = createBatch(ready, context, rows).catch(stop);
  }
  await writing;
}
