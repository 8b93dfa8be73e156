/**
 * The event log behind the site's limits (SECURITY C13, C14, C43, C52, C57; issue #18 item 4): each limited
 * action (a failed login, a sign-up, a form submission, an AI call) is one timestamped event under a key, and a
 * limit is "at most N events of this key within the last W ms" (a sliding window). Kept in Appwrite, so several
 * site processes on one Appwrite count together and a restart forgets nothing; in memory for unit tests.
 *
 * Why a log and not `rate-limiter-flexible` with a store: its stores need an atomic "increment, or reset when
 * expired" (Redis `INCR`+`PEXPIRE`, SQL upserts), which Appwrite's API has no single call for. An append-only
 * log needs no read-modify-write: two processes appending at once both land, and every reader counts both.
 *
 * Keys are stored as SHA-256 hex (an e-mail or IP address never sits in the table in clear), and rows grant no
 * permission to any role (only the site's API key reads them; guests get no realtime event for them).
 */
import { createHash } from "node:crypto";
import { ID, Query, TablesDB } from "node-appwrite";
import { DATABASE_ID } from "../../schemas/content.ts";
import { SERVICE_MODEL } from "../../schemas/model.ts";
import type { AdminServices } from "../../lib/appwrite/client.ts";

/** Where the site keeps its limit events. */
export interface EventLog {
  /**
   * The times (ms since the epoch, oldest first) of `key`'s events in `(now - windowMs, now]`, at most `max`
   * of them (the oldest `max`: enough to decide a limit of `max`).
   */
  recent(key: string, windowMs: number, now: number, max: number): Promise<number[]>;
  /** Records an event of `key` at `now`; it may be forgotten once `now + keepMs` has passed. */
  add(key: string, now: number, keepMs: number): Promise<void>;
  /** Forgets every event of `key` (a successful login resets its e-mail's failures). */
  clear(key: string): Promise<void>;
}

/** An `EventLog` in this process's memory: for unit tests and tools; the site uses `AppwriteEventLog`. */
export class MemoryEventLog implements EventLog {
  private readonly events = new Map<string, { at: number; until: number }[]>();

  async recent(key: string, windowMs: number, now: number, max: number): Promise<number[]> {
    const kept = (this.events.get(key) ?? []).filter((e) => e.until > now);
    if (kept.length) this.events.set(key, kept);
    else this.events.delete(key);
    return kept
      .filter((e) => e.at > now - windowMs && e.at <= now)
      .map((e) => e.at)
      .slice(0, max);
  }

  async add(key: string, now: number, keepMs: number): Promise<void> {
    this.events.set(key, [...(this.events.get(key) ?? []), { at: now, until: now + keepMs }]);
  }

  async clear(key: string): Promise<void> {
    this.events.delete(key);
  }
}

const TABLE_ID = SERVICE_MODEL.limitEvent.collectionId;
const SWEEP_EVERY_MS = 10 * 60_000;
const SWEEP_BATCH = 100;

const hashKey = (key: string) => createHash("sha256").update(key).digest("hex");
const iso = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

/**
 * An `EventLog` in Appwrite's `limit_events` table (`SERVICE_MODEL.limitEvent`), through the API key's TablesDB
 * service (Appwrite 1.8 TablesDB: `listRows`, `createRow`, `deleteRow`). Every 10 minutes, on use, it deletes
 * up to 100 events past their keep time, so the table holds about one window of events. Appwrite errors are
 * thrown to the caller (`AppwriteException`), which decides whether to fail open or closed.
 */
export class AppwriteEventLog implements EventLog {
  private readonly tables: TablesDB;
  private lastSweep = 0;

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

  async add(key: string, now: number, keepMs: number): Promise<void> {
    await this.tables.createRow({
      databaseId: DATABASE_ID,
      tableId: TABLE_ID,
      rowId: ID.unique(),
      data: { key: hashKey(key), at: iso(now), expiresAt: iso(now + keepMs) },
      permissions: [],
    });
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

  /** Deletes a batch of expired events, at most every `SWEEP_EVERY_MS`, without delaying the caller. */
  private sweepSometimes(now: number): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    void (async () => {
      const { rows } = await this.tables.listRows({
        databaseId: DATABASE_ID,
        tableId: TABLE_ID,
        queries: [Query.lessThan("expiresAt", iso(now)), Query.limit(SWEEP_BATCH), Query.select(["$id"])],
        total: false,
      });
      await Promise.all(rows.map((row) => this.deleteRow(row.$id)));
    })().catch((error: unknown) => {
      console.warn("[limits] removing expired limit events failed:", (error as Error).message);
    });
  }
}

/**
 * Whether one more event of `key` fits `limit` events per `windowMs`: when it does, records it and answers
 * `{ allowed: true }`; otherwise `retryAfterMs` is how long until the oldest counted event leaves the window.
 * Check then record: two processes deciding the same key in the same few milliseconds may both take the last
 * place (an overshoot of at most one per extra process, documented in docs/security.md).
 */
export async function takeFromWindow(
  log: EventLog,
  key: string,
  limit: number,
  windowMs: number,
  now: number,
): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }> {
  const recent = await log.recent(key, windowMs, now, limit);
  if (recent.length >= limit) return { allowed: false, retryAfterMs: recent[0]! + windowMs - now };
  await log.add(key, now, windowMs);
  return { allowed: true };
}
