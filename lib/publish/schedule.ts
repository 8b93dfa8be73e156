/**
 * Scheduling without a worker (issue #16 item 2, docs/decisions/0009-editorial-lifecycle.md): every site
 * process keeps one timer for the next due time of a scheduled venture or post, found by a query on the
 * indexed `status`/`publishAt` columns. When it fires, the process promotes what is due (status `published`
 * and `read("any")`, through the one writer, with the site's API key) and drops its page cache. The write is
 * idempotent, so several processes may race; a process that finds the work already done still drops its
 * cache. On start it promotes anything overdue, so a due time missed while no process ran is caught up.
 */
import { Query, type Models } from "node-appwrite";
import { DATABASE_ID } from "../../model/content.ts";
import { PUBLISH_AT_COLUMN, STATUS_COLUMN } from "../../model/lifecycle.ts";
import { CONTENT_KIND_NAMES, CONTENT_MODEL, type ContentKind } from "../../model/model.ts";
import type { AdminServices } from "../appwrite/client.ts";
import { toAppwriteDatetime, updateItemDocument } from "./writer.ts";
import { purgeExpiredTrash } from "./trash-purge.ts";

/** The longest the scheduler waits before asking Appwrite again, in ms: a due time written anywhere is seen within it. */
export const SCHEDULE_RECHECK_MS = 30_000;
/**
 * How often a process's passes also purge the trash of what was deleted more than `TRASH_DAYS` ago (issue #29
 * item 9), in ms: the first pass, then at most once per this interval.
 */
export const TRASH_PURGE_EVERY_MS = 10 * 60_000;
/** Most documents promoted per kind and pass (the next pass, at once, takes the rest). */
const BATCH = 100;

/** What one pass did: how many documents it promoted, and the next due time after it (ms since the epoch) or null. */
export interface PromotionPass {
  promoted: number;
  nextDue: number | null;
}

/** The scheduled documents of `kind` due at `now`, oldest first. */
async function dueDocuments(services: AdminServices, kind: ContentKind, now: number) {
  const page = await services.tablesDB.listRows({
    databaseId: DATABASE_ID,
    tableId: CONTENT_MODEL[kind].collectionId,
    queries: [
      Query.equal(STATUS_COLUMN, "scheduled"),
      Query.lessThanEqual(PUBLISH_AT_COLUMN, toAppwriteDatetime(new Date(now))),
      Query.orderAsc(PUBLISH_AT_COLUMN),
      Query.limit(BATCH),
    ],
    total: false,
  });
  return page.rows;
}

/** The earliest due time of a scheduled document of `kind`, or null. */
async function nextDueOf(services: AdminServices, kind: ContentKind): Promise<number | null> {
  const page = await services.tablesDB.listRows({
    databaseId: DATABASE_ID,
    tableId: CONTENT_MODEL[kind].collectionId,
    queries: [
      Query.equal(STATUS_COLUMN, "scheduled"),
      Query.orderAsc(PUBLISH_AT_COLUMN),
      Query.limit(1),
      Query.select(["$id", PUBLISH_AT_COLUMN]),
    ],
    total: false,
  });
  const due = page.rows[0]?.[PUBLISH_AT_COLUMN] as string | undefined;
  return due ? Date.parse(due) : null;
}

/** Publishes one due document: `status` published and `read("any")`, its other permissions kept. */
async function promote(services: AdminServices, kind: ContentKind, doc: Models.DefaultRow): Promise<void> {
  await updateItemDocument(services.tablesDB, doc.$id, {
    kind,
    data: {},
    lifecycle: { state: "published", publishAt: (doc[PUBLISH_AT_COLUMN] as string | null) ?? null },
    permissions: doc.$permissions,
    keepRevision: false, // a promotion changes the state only: not a save to keep in the history
  });
}

/**
 * Promotes every scheduled venture and post whose due time is at or before `now` (ms since the epoch) and
 * returns how many it promoted and the next due time. Safe to run from several processes at once.
 * @throws {AppwriteException} when Appwrite cannot be read or written (the caller retries later).
 */
export async function promoteDue(services: AdminServices, now = Date.now()): Promise<PromotionPass> {
  let promoted = 0;
  for (const kind of CONTENT_KIND_NAMES) {
    for (
      let due = await dueDocuments(services, kind, now);
      due.length > 0;
      due = await dueDocuments(services, kind, now)
    ) {
      for (const doc of due) await promote(services, kind, doc);
      promoted += due.length;
      if (due.length < BATCH) break;
    }
  }
  const next = (await Promise.all(CONTENT_KIND_NAMES.map((kind) => nextDueOf(services, kind)))).filter(
    (t): t is number => t !== null,
  );
  return { promoted, nextDue: next.length ? Math.min(...next) : null };
}

/** A running scheduler (`startScheduler`). */
export interface Scheduler {
  /** Looks again now (after a write that may have scheduled something). */
  refresh(): void;
  /** The next due time it waits for (ms since the epoch), or null. */
  readonly nextDue: number | null;
  /** Resolves when the first pass (catching up on anything overdue) is done. */
  readonly ready: Promise<void>;
  close(): void;
}

export interface SchedulerOptions {
  /** Called after a due time passed (whoever promoted it): drop cached pages. */
  onDue: () => void;
  /** Ceiling of one wait, in ms (default `SCHEDULE_RECHECK_MS`). */
  recheckMs?: number;
  now?: () => number;
  /** Where a failed pass is reported (default `console.error`); the next pass runs after `recheckMs`. */
  onError?: (error: unknown) => void;
}

/**
 * Starts the scheduler of one site process with the site's API-key services: a pass at once, then one at the
 * next due time (at most `recheckMs` later), each promoting what is due (`promoteDue`) and calling `onDue`
 * when a due time has passed; every `TRASH_PURGE_EVERY_MS` a pass also purges the trash (`purgeExpiredTrash`).
 */
export function startScheduler(services: AdminServices, options: SchedulerOptions): Scheduler {
  const now = options.now ?? Date.now;
  const recheckMs = options.recheckMs ?? SCHEDULE_RECHECK_MS;
  const onError = options.onError ?? ((error) => console.error("Scheduled publishing failed:", error));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;
  let nextDue: number | null = null;
  let lastPurge: number | null = null;

  const arm = () => {
    clearTimeout(timer);
    if (closed) return;
    const wait = nextDue === null ? recheckMs : Math.min(Math.max(nextDue - now(), 0), recheckMs);
    timer = setTimeout(run, wait);
    timer.unref?.();
  };
  const pass = async () => {
    const waitedFor = nextDue;
    try {
      const result = await promoteDue(services, now());
      nextDue = result.nextDue;
      if (result.promoted > 0 || (waitedFor !== null && waitedFor <= now())) options.onDue();
    } catch (error) {
      if (!closed) onError(error);
    }
    if (lastPurge === null || now() - lastPurge >= TRASH_PURGE_EVERY_MS) {
      lastPurge = now();
      await purgeExpiredTrash(services, lastPurge).catch((error: unknown) => {
        if (!closed) onError(error);
      });
    }
  };
  function run(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await pass();
      } while (again && !closed);
      running = null;
      arm();
    })();
    return running;
  }
  const ready = run();
  return {
    refresh: () => void run(),
    get nextDue() {
      return nextDue;
    },
    ready,
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
