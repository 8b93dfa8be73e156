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
import { unsanitizedBodyHtml } from "../content/body-html.ts";
import { normalizeBodiesOffThread } from "../html/body.ts";
import { prestartSanitizerThread } from "../html/sanitize-thread.ts";
import type { ContentItem } from "../content/item.ts";

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

/**
 * From this many new items, a push sanitizes bodies on the sanitizer thread as well as on its own
 * (`createInBatches`). The thread loads jsdom first: ~1.6 CPU-seconds on the other core, ~1 s before it takes
 * a body, by when this thread has written several hundred (~2 ms each); below this many, it would rarely get
 * one. `push` starts it as soon as it has parsed this many files, so it loads while the rest are read.
 */
export const OFF_THREAD_FROM = 500;

/**
 * Bodies sent to the sanitizer thread as one job (`normalizeBodiesOffThread`): ~30 ms of its work, while this
 * thread renders the next ones' Markdown.
 */
const THREAD_JOB = 25;

/** How many bodies pushes in this process had sanitized on the sanitizer thread (tests, benchmarks). */
export const threadSanitizeStats = { bodies: 0 };

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
  /** New items from which the sanitizer thread takes batches too (default `OFF_THREAD_FROM`). */
  offThreadFrom?: number;
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
 * Has the bodies of `batch` normalized on the sanitizer thread (`normalizeBodiesOffThread`, `THREAD_JOB` bodies
 * a job: the same bounds and DOMPurify options as `normalizeBody`, so the same output) and keeps each in its
 * planned item (`sanitizedBody`), for `renderBatch` to store. A body that breaks a bound (or nests too deeply for
 * `marked`) is left to `renderBatch`, which refuses it with its own error; so is every body of a job the thread
 * fails or times out on.
 * @returns false when the thread failed (send it nothing more).
 */
export async function sanitizeBatchOnThread(batch: readonly PlannedItem[]): Promise<boolean> {
  const jobs: Promise<boolean>[] = [];
  for (let start = 0; start < batch.length; start += THREAD_JOB) {
    const items = batch.slice(start, start + THREAD_JOB).filter((p) => p.item);
    jobs.push(
      normalizeBodiesOffThread(items.map((p) => renderedOrNull(p.item!))).then(
        (bodies) => {
          bodies.forEach((body, k) => {
            if (body === null) return;
            items[k]!.sanitizedBody = body;
            threadSanitizeStats.bodies += 1;
          });
          return true;
        },
        () => false,
      ),
    );
    // The thread starts on this job while the next one's Markdown is rendered here.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return (await Promise.all(jobs)).every(Boolean);
}

/** `item`'s body before sanitizing (`unsanitizedBodyHtml`), or null when it nests too deeply for `marked`. */
function renderedOrNull(item: ContentItem): string | null {
  try {
    return unsanitizedBodyHtml(item);
  } catch {
    return null;
  }
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
 *
 * From `OFF_THREAD_FROM` new items (issue #33 item 5), a second lane takes batches too once the sanitizer
 * thread is ready, and has their bodies sanitized there (`sanitizeBatchOnThread`) while this thread renders
 * its own: both cores sanitize, each lane taking the next batch when it is free, so they finish together.
 * Writes stay one at a time, in the order the batches are ready.
 * @param stopped whether the push has stopped (Appwrite gone): no further batch is started.
 * @param stop called with the connection error that stops the push (`createBatch` throws only that).
 */
export async function createInBatches(
  bulk: readonly PlannedItem[],
  context: BulkCreateContext,
  stopped: () => boolean,
  stop: (error: unknown) => void,
): Promise<void> {
  const batches = createBatches(bulk, batchSizeFor(bulk.length));
  let next = 0;
  let writing: Promise<void> = Promise.resolve();
  /** Takes batches until none is left: reads, `prepare`s and queues each write after the one before. */
  const lane = async (prepare: (ready: PlannedItem[]) => Promise<Record<string, unknown>[]>) => {
    while (next < batches.length && !stopped()) {
      const ready = await loadBatch(batches[next++]!, context.onResult);
      // A batch that fails to render here is rendered by `createBatch`, where a failure is its item's alone.
      const rows = ready.length ? await prepare(ready).catch(() => undefined) : undefined;
      const before = writing;
      writing = before.then(() =>
        stopped() || ready.length === 0 ? undefined : createBatch(ready, context, rows).catch(stop),
      );
      // Rendering runs one batch ahead of the writes, not more.
      await before;
    }
  };
  const own = lane(renderBatch);
  const onThread = async () => {
    let usable = true;
    // Not waited for when this lane has taken every batch first (a thread that starts slowly).
    if (!(await Promise.race([prestartSanitizerThread(), own.then(() => false)]))) return;
    await lane(async (ready) => {
      if (usable) usable = await sanitizeBatchOnThread(ready);
      return renderBatch(ready);
    });
  };
  await Promise.all([own, bulk.length >= (context.offThreadFrom ?? OFF_THREAD_FROM) ? onThread() : undefined]);
  await writing;
}
