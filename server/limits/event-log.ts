/**
 * The event log behind the site's limits (SECURITY C13, C14, C43, C52, C57; issue #18 item 4): each limited
 * action (a failed login, a sign-up, a form submission, an AI call) is one timestamped event under a key, and a
 * limit is "at most N events of this key within the last W ms" (a sliding window). Kept in Appwrite, so several
 * site processes on one Appwrite count together and a restart forgets nothing; in memory for unit tests.
 *
 * Why a log and not `rate-limiter-flexible` with a store: its stores need an atomic "increment, or reset when
 * expired" (Redis `INCR`+`PEXPIRE`, SQL upserts), which Appwrite's API has no single call for. An append-only
 * log needs no read-modify-write: two processes appending at once both land, and every reader counts both.
 * A decision (read the count, then record) holds its keys' in-process lock (`key-lock.ts`), so it is atomic
 * within a process; across processes a burst passes a limit by at most one per extra process (SECURITY C64).
 *
 * Keys are stored as SHA-256 hex (an e-mail or IP address never sits in the table in clear), and rows grant no
 * permission to any role (only the site's API key reads them; guests get no realtime event for them).
 */
import { createHash } from "node:crypto";
import { ID, Query, TablesDB } from "node-appwrite";
import { DATABASE_ID } from "../../model/content.ts";
import { SERVICE_MODEL } from "../../model/model.ts";
import type { AdminServices } from "../../lib/appwrite/client.ts";
import { LIMIT_LOCK } from "./key-lock.ts";

/** Where the site keeps its limit events. */
export interface EventLog {
  /**
   * The times (ms since the epoch, oldest first) of `key`'s events in `(now - windowMs, now]`, at most `max`
   * of them (the oldest `max`: enough to decide a limit of `max`).
   */
  recent(key: string, windowMs: number, now: number, max: number): Promise<number[]>;
  /**
   * Records an event of `key` at `now`; it may be forgotten once `now + keepMs` has passed.
   * @returns the event's id, for `remove`.
   */
  add(key: string, now: number, keepMs: number): Promise<string>;
  /** Forgets one event of `key` (a login attempt counted ahead of its check that turned out right). */
  remove(key: string, id: string): Promise<void>;
  /** Forgets every event of `key` (a successful login resets its e-mail's failures). */
  clear(key: string): Promise<void>;
}

/** An `EventLog` in this process's memory: for unit tests and tools; the site uses `AppwriteEventLog`. */
export class MemoryEventLog implements EventLog {
  private readonly events = new Map<string, { id: string; at: number; until: number }[]>();
  private nextId = 1;

  async recent(key: string, windowMs: number, now: number, max: number): Promise<number[]> {
    const kept = (this.events.get(key) ?? []).filter((e) => e.until > now);
    if (kept.length) this.events.set(key, kept);
    else this.events.delete(key);
    return kept
      .filter((e) => e.at > now - windowMs && e.at <= now)
      .map((e) => e.at)
      .slice(0, max);
  }

  async add(key: string, now: number, keepMs: number): Promise<string> {
    const id = String(this.nextId++);
    this.events.set(key, [...(this.events.get(key) ?? []), { id, at: now, until: now + keepMs }]);
    return id;
  }

  async remove(key: string, id: string): Promise<void> {
    const kept = (this.events.get(key) ?? []).filter((e) => e.id !== id);
    if (kept.length) this.events.set(key, kept);
    else this.events.delete(key);
  }

  async clear(key: string): Promise<void> {
    this.events.delete(key);
  }
}

const TABLE_ID = SERVICE_MODEL.limitEvent.collectionId;
/** How often, at most, a process looks for expired events, in ms (the shortest window is a minute). */
const SWEEP_EVERY_MS = 60_000;
const SWEEP_BATCH = 100;

const hashKey = (key: string) => createHash("sha256").update(key).digest("hex");
const iso = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

/**
 * An `EventLog` in Appwrite's `limit_events` table (`SERVICE_MODEL.limitEvent`), through the API key's TablesDB
 * service (Appwrite 1.8 TablesDB: `listRows`, `createRow`, `deleteRow`). At most once a minute, on use, it deletes
 * the events past their keep time, batch after batch until none is left (SECURITY C64), so the table holds about
 * one window of events whatever a burst wrote. Appwrite errors are thrown to the caller (`AppwriteException`),
 * which decides whether to fail open or closed.
 */
export class AppwriteEventLog implements EventLog {
  private readonly tables: TablesDB;
  private lastSweep = 0;
  private sweeping: Promise<void> | null = null;

  constructor(services: Pick<AdminServices, "client">) {
    this.tables = new TablesDB(services.client);
  }

  async recent(key: string, windowMs: number, now: number, max: number): Promise<number[]> {
    this.sweepSometimes(now);
    const { rows } = await this.tables.listRows({
      databaseId: DATABASE_ID,
      tableId: TABLE_ID,
      queries: [
        Query.equal("key", hashKey(key)),
        Query.greaterThan("at", iso(now - windowMs)),
        Query.lessThanEqual("at", iso(now)),
        Query.orderAsc("at"),
        Query.limit(max),
        Query.select(["at"]),
      ],
      total: false,
    });
    return rows.map((row) => Date.parse(String(row.at)));
  }

  async add(key: string, now: number, keepMs: number): Promise<string> {
    const row = await this.tables.createRow({
      databaseId: DATABASE_ID,
      tableId: TABLE_ID,
      rowId: ID.unique(),
      data: { key: hashKey(key), at: iso(now), expiresAt: iso(now + keepMs) },
      permissions: [],
    });
    return row.$id;
  }

  async remove(_key: string, id: string): Promise<void> {
    await this.deleteRow(id);
  }

  async clear(key: string): Promise<void> {
    for (;;) {
      const { rows } = await this.tables.listRows({
        databaseId: DATABASE_ID,
        tableId: TABLE_ID,
        queries: [Query.equal("key", hashKey(key)), Query.limit(SWEEP_BATCH), Query.select(["$id"])],
        total: false,
      });
      await Promise.all(rows.map((row) => this.deleteRow(row.$id)));
      if (rows.length < SWEEP_BATCH) return;
    }
  }

  private async deleteRow(rowId: string): Promise<void> {
    try {
      await this.tables.deleteRow({ databaseId: DATABASE_ID, tableId: TABLE_ID, rowId });
    } catch (error) {
      // Another process deleted it first: that is what was wanted.
      if ((error as { code?: number }).code !== 404) throw error;
    }
  }

  /**
   * Starts deleting expired events, at most every `SWEEP_EVERY_MS` and one sweep at a time, without delaying
   * the caller. Failures are logged: the next sweep starts over.
   */
  private sweepSometimes(now: number): void {
    if (this.sweeping || now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    this.sweeping = this.sweepExpired(now).then(
      () => {
        this.sweeping = null;
      },
      (error: unknown) => {
        this.sweeping = null;
        console.warn("[limits] removing expired limit events failed:", (error as Error).message);
      },
    );
  }

  /**
   * Deletes every event that expired before `now`, `SWEEP_BATCH` at a time until a batch comes back short
   * (SECURITY C64: no expired row is left, however many a burst wrote).
   * @returns the number of events deleted.
   * @throws the Appwrite error of a failed list or delete.
   */
  async sweepExpired(now: number): Promise<number> {
    let deleted = 0;
    for (;;) {
      const { rows } = await this.tables.listRows({
        databaseId: DATABASE_ID,
        tableId: TABLE_ID,
        queries: [Query.lessThan("expiresAt", iso(now)), Query.limit(SWEEP_BATCH), Query.select(["$id"])],
        total: false,
      });
      await Promise.all(rows.map((row) => this.deleteRow(row.$id)));
      deleted += rows.length;
      if (rows.length < SWEEP_BATCH) return deleted;
    }
  }
}

/** One sliding window of a limit: at most `limit` events of `key` within the last `windowMs` ms. */
export interface LimitWindow {
  key: string;
  limit: number;
  windowMs: number;
}

/** A decision on a limit: allowed (with the ids of the events recorded), or refused with the ms to wait. */
export type WindowDecision = { allowed: true; ids: string[] } | { allowed: false; retryAfterMs: number };

/**
 * Whether one more event fits every window of `windows`: when it does, records one in each (kept for its
 * window) and answers their ids; otherwise `retryAfterMs` is how long until the oldest counted event of the
 * first full window leaves it, and nothing is recorded. The read and the write happen under the keys' locks
 * (`LIMIT_LOCK`), so within one process the decision is atomic: of 40 concurrent calls on a limit of 10,
 * exactly 10 are allowed. Another site process can have at most one decision between its read and its write,
 * so a burst spread over several processes passes the limit by at most one per extra process (SECURITY C64).
 * @throws the log's error (an Appwrite failure): the caller fails closed.
 */
export async function takeFromWindows(
  log: EventLog,
  windows: readonly LimitWindow[],
  now: () => number = Date.now,
): Promise<WindowDecision> {
  return LIMIT_LOCK.run(
    windows.map((w) => w.key),
    async () => {
      const at = now();
      for (const w of windows) {
        const recent = await log.recent(w.key, w.windowMs, at, w.limit);
        if (recent.length >= w.limit) return { allowed: false, retryAfterMs: recent[0]! + w.windowMs - at };
      }
      return { allowed: true, ids: await Promise.all(windows.map((w) => log.add(w.key, at, w.windowMs))) };
    },
  );
}

/**
 * `takeFromWindows` with one window: `limit` events of `key` per `windowMs`, decided at `now` (ms since the
 * epoch; read once the key's lock is held when omitted).
 */
export async function takeFromWindow(
  log: EventLog,
  key: string,
  limit: number,
  windowMs: number,
  now?: number,
): Promise<WindowDecision> {
  return takeFromWindows(log, [{ key, limit, windowMs }], now === undefined ? Date.now : () => now);
}
