/**
 * `studio push`: a plan-then-apply sync of `content/` into Appwrite keyed by slug (ARCHITECTURE decision 7,
 * data flow "studio push"; issue #7). Safe to re-run: unchanged items are not written, images are
 * content-addressed and uploaded once, a document write that fails removes the image it just uploaded, and
 * an item edited in Appwrite since the last push or pull is a conflict, not an overwrite (unless `force`).
 */
import { CONTENT_KIND_NAMES } from "../../model/model.ts";
import type { AdminServices } from "../appwrite/client.ts";
import { AppwriteUnreachableError } from "../appwrite/unreachable.ts";
import { bodyDigest } from "../content/body-digest.ts";
import { projectLock, readLock, writeLock } from "./lock.ts";
import { plannedLock, type PlanAction, type PlannedItem, type PushItemResult } from "./plan.ts";
import { apply, entryKey, forEachLimit, load, release } from "./push-apply.ts";
import { createInBatches, type BulkCreateContext } from "./push-bulk.ts";
import { checkMassDelete, exportDeletions } from "./push-guards.ts";
import { imagesUsedTwice, removeOrphanImages, type ImageUploads } from "./push-images.ts";
import { readAndPlan } from "./push-plan.ts";
import { isStub, sourceNow } from "./push-read.ts";
import type { PushOptions, PushPhases, PushResult } from "./push-types.ts";
import { lockEntryFor } from "./remote.ts";

export type { PlanAction, PlanEntry, PushItemResult } from "./plan.ts";
export type { PushEvent, PushOptions, PushPhases, PushResult, PushSummary } from "./push-types.ts";
// What callers of `push` also use, where it is written.
export { ContentFolderError, MassDeleteError, checkMassDelete, readContentFolder } from "./push-guards.ts";
export { SchemaMissingError, describeError, listBySlug } from "./remote.ts";

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
 * {AppwriteUnreachableError} (exit 3, naming the endpoint) at the first request that finds Appwrite gone: no
 * further item is tried, what was written is recorded in the lock; {AppwriteException} when Appwrite refuses
 * to be read (bad key).
 */
export async function push(services: AdminServices, options: PushOptions): Promise<PushResult> {
  const emit = options.onEvent ?? (() => {});
  const phases = phaseClock();
  const lock = options.lockPath ? await readLock(options.lockPath) : { version: 1 as const, projects: {} };
  phases.lap("lockRead");
  const known = lock.projects[services.target.projectId];
  // The lock is written again only when it changes (issue #33 item 6: a re-push of 200,000 unchanged items
  // would rewrite, and fsync, tens of MB that are already there).
  let lockChanged = !known || CONTENT_KIND_NAMES.some((kind) => !known[kind]);
  const project = projectLock(lock, services.target.projectId);
  // The items are read and planned in `readAndPlan`: from here on, each is held by its plan entry only, and
  // dropped once written (issue #33 item 6: 200,000 items in < 1 GB).
  const { planned, tracked, issues, warnings, drafts, invalid, read } = await readAndPlan(
    services,
    options,
    project,
    emit,
    phases,
  );
  emit({ type: "planned", plan: planned.map((p) => p.entry) });
  const deletions = planned.filter((p) => p.entry.action === "delete").length;
  if (!options.dryRun) checkMassDelete(deletions, tracked, options.allowMassDelete ?? false, options.contentDir);
  const exported = options.dryRun ? null : await exportDeletions(services, planned, options.exportDir);
  if (exported) emit({ type: "exported", ...exported });

  const results: PushItemResult[] = [];
  const uploads: ImageUploads = new Map();
  const sharedImages = imagesUsedTwice(planned);
  const writes = new Set<PlanAction>(["create", "update", "delete"]);
  // The first connection error (Appwrite gone): no later item is started.
  const lost: { error?: unknown; hit: boolean } = { hit: false };
  const record = (p: PlannedItem, result: PushItemResult) => {
    results.push(result);
    release(p, result);
    emit({ type: "item", result, done: results.length, total: planned.length });
  };
  const stopAt = (error: unknown) => {
    if (!lost.hit) Object.assign(lost, { hit: true, error });
  };
  // New items go in bulk (TablesDB createRows, issue #33 item 5); the rest one by one.
  const bulk = options.dryRun ? [] : planned.filter((p) => p.entry.action === "create");
  const single = bulk.length ? planned.filter((p) => p.entry.action !== "create") : planned;
  const concurrency = options.concurrency ?? 4;
  const bulkContext: BulkCreateContext = {
    services,
    uploads,
    sharedImages,
    project,
    createOne: (p) => apply(services, p, uploads, sharedImages, project),
    onResult: record,
    offThreadFrom: options.offThreadFrom,
  };
  await Promise.all([
    forEachLimit(single, concurrency, async (p) => {
      if (lost.hit) return;
      let result: PushItemResult;
      if (options.dryRun || !writes.has(p.entry.action)) {
        // The plan's entry becomes the result (one object an item, not two).
        result = Object.assign(p.entry, { status: "done" as const });
        if (!options.dryRun && p.entry.action === "unchanged" && p.hash && p.remote) {
          // Unchanged by comparison with the whole row (not the fast path): the lock agrees with it now.
          project[p.entry.kind][entryKey(p.entry)] = lockEntryFor(p.entry.kind, p.remote, plannedLock(p));
          lockChanged = true;
        } else if (!options.dryRun && p.entry.action === "unchanged" && p.item) {
          // The fast path (nothing changed): an entry from before `body` existed learns its body's digest, and
          // its files' stats when they changed (read by their hash) or were not recorded yet.
          const entry = project[p.entry.kind][entryKey(p.entry)];
          const stub = isStub(p.item) ? p.item : null;
          if (entry && !entry.body && (!stub || stub.stub.body)) {
            entry.body = stub ? stub.stub.body : bodyDigest(p.item.format, p.item.body);
            lockChanged = true;
          }
          const source = stub ? await sourceNow(stub) : null;
          if (entry && source && source !== entry.source) {
            entry.source = source;
            lockChanged = true;
          }
        }
      } else {
        try {
          const refused = await load(p);
          result = refused ?? (await apply(services, p, uploads, sharedImages, project));
        } catch (error) {
          stopAt(error);
          return;
        }
      }
      record(p, result);
    }),
    createInBatches(bulk, bulkContext, () => lost.hit, stopAt),
  ]);

  phases.lap("write");
  if (lost.hit) {
    // What was written is recorded, so the next push recognizes it; the rest was not tried.
    if (options.lockPath && !options.dryRun) await writeLock(options.lockPath, lock);
    const written = results.filter((r) => r.status === "done" && writes.has(r.action)).length;
    const progress = `push stopped: ${written} item(s) written, ${planned.length - results.length} not done`;
    throw new AppwriteUnreachableError(services.target.endpoint, lost.error, progress);
  }
  if (!options.dryRun) {
    const deleted = results.filter((r) => r.action === "delete" && r.status === "done").map((r) => r.documentId!);
    await removeOrphanImages(services, planned, new Set(deleted));
    lockChanged ||= results.some((r) => r.status === "done" && writes.has(r.action));
    if (options.lockPath && lockChanged) await writeLock(options.lockPath, lock);
  }
  phases.lap("lockWrite");
  const count = (action: PlanAction) => results.filter((r) => r.status === "done" && r.action === action).length;
  return {
    created: count("create"),
    updated: count("update"),
    unchanged: count("unchanged"),
    deleted: count("delete"),
    skipped: count("skip"),
    conflicts: count("conflict"),
    failed: results.filter((r) => r.status === "failed").length + invalid,
    items: results,
    issues,
    warnings,
    drafts,
    dryRun: options.dryRun ?? false,
    exported,
    tracked,
    read,
    phases: phases.done(),
  };
}

/** Milliseconds spent in each phase of a push (`PushResult.phases`), laps of one clock. */
function phaseClock() {
  const phases: PushPhases = {};
  let last = performance.now();
  return {
    lap(name: keyof PushPhases) {
      const now = performance.now();
      phases[name] = Math.round(now - last);
      last = now;
    },
    done: () => phases,
  };
}
