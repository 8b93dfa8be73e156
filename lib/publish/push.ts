/**
 * `studio push`: a plan-then-apply sync of `content/` into Appwrite keyed by slug (ARCHITECTURE decision 7,
 * data flow "studio push"; issue #7). Safe to re-run: unchanged items are not written, images are
 * content-addressed and uploaded once, a document write that fails removes the image it just uploaded, and
 * an item edited in Appwrite since the last push or pull is a conflict, not an overwrite (unless `force`).
 */
import { CONTENT_KIND_NAMES, versionKey } from "../../model/model.ts";
import type { AdminServices } from "../appwrite/client.ts";
import type { ContentIssue, ContentItem } from "../content/read.ts";
import { bodyDigest } from "../content/body-digest.ts";
import { itemKey, localeOfFile } from "../content/versions.ts";
import type { ExportReport } from "./export.ts";
import { projectLock, readLock, writeLock, type ProjectLock } from "./lock.ts";
import {
  planPush,
  plannedLock,
  type PlanAction,
  type PlanEntry,
  type PlannedItem,
  type PushItemResult,
} from "./plan.ts";
import {
  dropPlanningFields,
  isStub,
  loadItem,
  readForPush,
  sourceNow,
  type PushStub,
  type ReadCounts,
} from "./push-read.ts";
import { apply, entryKey, forEachLimit, load, loadBatch, release } from "./push-apply.ts";
import { readRemoteForPush } from "./remote-light.ts";
import { defaultTimeZone, siteTimeZone } from "./site-time-zone.ts";
import { checkMassDelete, exportDeletions, trackedCount } from "./push-guards.ts";
import { imagesUsedTwice, removeOrphanImages, type ImageUploads } from "./push-images.ts";
import { batchSizeFor, createBatch, createBatches, renderBatch, type BulkCreateContext } from "./push-bulk.ts";
import { lockEntryFor, remoteChangedSince } from "./remote.ts";
import { AppwriteUnreachableError, asUnreachable } from "../appwrite/unreachable.ts";
import { selectContent, selectPlanned, type Selection } from "./selection.ts";
import { trashedVersions } from "./trash.ts";

export type { PlanAction, PlanEntry, PushItemResult } from "./plan.ts";
// What callers of `push` also use, where it is written.
export { ContentFolderError, MassDeleteError, checkMassDelete, readContentFolder } from "./push-guards.ts";
export { SchemaMissingError, describeError, listBySlug } from "./remote.ts";

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
  /**
   * How the content files were read (issue #33 item 6): known unchanged by their stat or by their bytes' hash
   * against the lock (not parsed), or read and validated.
   */
  read?: ReadCounts;
  /** Milliseconds each phase took (issue #33 item 6: where a re-push of 200,000 items spends its time). */
  phases?: PushPhases;
}

/**
 * The phases of a push, in order, in milliseconds: the lock read; the content folder read and validated; the
 * rows listed (`readRemoteForPush`); files read whole for the plan (updates); the plan (and the site's
 * trash, time zone); the writes (with the export before a prune); the orphan images and the lock written.
 */
export interface PushPhases {
  lockRead?: number;
  read?: number;
  list?: number;
  load?: number;
  plan?: number;
  write?: number;
  lockWrite?: number;
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
  /** Push only these items (`resolveSelection`); the others are neither read into the plan nor written. */
  only?: Selection;
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
    // One batch written at a time: a push stopped midway leaves at most one batch's images behind (reused next
    // time). The next batch is read again and rendered meanwhile (the client's work beside Appwrite's).
    (async () => {
      let writing: Promise<void> = Promise.resolve();
      for (const batch of createBatches(bulk, batchSizeFor(bulk.length))) {
        if (lost.hit) break;
        const ready = await loadBatch(batch, record);
        // A batch that fails to render here is rendered by `createBatch`, where a failure is its item's alone.
        const rows = ready.length ? await renderBatch(ready).catch(() => undefined) : undefined;
        await writing;
        if (lost.hit || ready.length === 0) continue;
        writing = createBatch(ready, bulkContext, rows).catch(stopAt);
      }
      await writing;
    })(),
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

/** What `push` keeps of the content folder once it is planned: the plan, and what the summary reports. */
interface ReadPlan {
  planned: PlannedItem[];
  /** Items the lock says were pushed that are still those documents (`trackedCount`). */
  tracked: number;
  issues: ContentIssue[];
  warnings: ContentIssue[] | undefined;
  /** The files of the drafts. */
  drafts: string[];
  /** Invalid files (each counts once in `failed`). */
  invalid: number;
  read: ReadCounts;
}

/**
 * Reads and validates the content folder, reads Appwrite and plans: the first half of `push` (see there for
 * what it throws). The items read are held only by the returned plan (each by its entry; `release` drops
 * them once written), not by an array of the whole folder besides (issue #33 item 6).
 */
async function readAndPlan(
  services: AdminServices,
  options: PushOptions,
  project: ProjectLock,
  emit: (event: PushEvent) => void,
  phases: { lap(name: keyof PushPhases): void },
): Promise<ReadPlan> {
  // Bodies pushed before passed the body bounds: an unchanged one is not rendered again (issue #33 item 5).
  const checkedBodies = new Set(
    CONTENT_KIND_NAMES.flatMap((kind) => Object.values(project[kind]).flatMap((e) => (e.body ? [e.body] : []))),
  );
  // `studio push <file|slug>…`: only the named items (both versions), by the same rules (issue #34).
  // Small records, not parsed files, until each is written (`push-read.ts`); unchanged files are not parsed.
  const { counts: read, ...all } = await readForPush(options.contentDir, project, { checkedBodies });
  const content = selectContent(all, options.only);
  checkedBodies.clear();
  phases.lap("read");
  // Drafts are pushed too, as documents guests cannot read (issue #16; the writer derives the permissions).
  const drafts = content.items.filter((i) => i.draft).map((i) => i.file);
  const publishable = content.items;
  const invalidFiles = new Set(content.issues.map((i) => i.file));
  emit({
    type: "validated",
    valid: publishable.length - drafts.length,
    invalid: invalidFiles.size,
    drafts: drafts.length,
  });

  // Whole rows only where the plan reads them (issue #33 item 6): an unchanged item's body is never read.
  const hashOf = (item: ContentItem) => (item as PushStub).stub.hash;
  const remote = await readRemoteForPush(services, publishable, project, hashOf).catch((error: unknown) => {
    throw asUnreachable(services.target.endpoint, error, "nothing was written");
  });
  phases.lap("list");
  // The plan compares an update's fields with its row, and decides a create's state from the front matter a
  // file known unchanged by its stat did not give: those items are read whole now (a re-push: none).
  const whole = publishable.filter((item) => {
    const row = remote[item.kind].get(itemKey(item));
    const entry = project[item.kind][itemKey(item)];
    const unchanged = row && entry && !remoteChangedSince(item.kind, entry, row) && entry.hash === item.stub.hash;
    return !unchanged && (row || item.stub.by);
  });
  // A file that no longer reads as a valid item since it was read is left out, as an invalid file is.
  const unreadable = new Set<ContentItem>();
  await forEachLimit(whole, 16, async (item) => {
    const loaded = await loadItem(item, { planning: true });
    if (!("error" in loaded)) return;
    unreadable.add(item);
    content.issues.push({ file: item.file, field: "file", message: loaded.error });
    invalidFiles.add(item.file);
  });
  phases.lap("load");
  // A file's version is never pruned while it is invalid, nor the version a duplicated slug holds back.
  const protectedSlugs = new Set([
    ...[...invalidFiles].map((f) => {
      const { locale, stem } = localeOfFile(f);
      return versionKey(stem, locale);
    }),
    ...content.issues.flatMap((i) => (i.blocks ? [i.blocks.key] : [])),
  ]);
  const planned = selectPlanned(
    options.only,
    planPush({
      target: services.target,
      items: unreadable.size ? publishable.filter((item) => !unreadable.has(item)) : publishable,
      protectedSlugs,
      remote,
      lock: project,
      force: options.force ?? false,
      prune: options.prune ?? false,
      hashOf,
      // A file whose item is in the site's trash is refused, never created beside it (issue #29 item 9).
      trashed: await trashedVersions(services.tablesDB).catch((error: unknown) => {
        throw asUnreachable(services.target.endpoint, error, "nothing was written");
      }),
      // The plan names scheduled times in the site's zone (issue #29); unreadable, the environment's default.
      timeZone: await siteTimeZone(services.client).catch(() => defaultTimeZone()),
    }),
  );
  for (const p of planned) dropPlanningFields(p.item);
  const tracked = trackedCount(project, remote);
  phases.lap("plan");
  return {
    planned,
    tracked,
    issues: content.issues,
    warnings: content.warnings,
    drafts,
    invalid: invalidFiles.size,
    read,
  };
}
