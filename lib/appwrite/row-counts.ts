/**
 * Counting a table's rows past Appwrite's `total` cap (issue #18 item 3, issue #33 item 6: 200,000 rows): offset
 * probes, counts kept a while (`KeptCounts`), searched once at a time and again in the background when they
 * expire. Everything is read as the caller's client (a guest's on the public site, SECURITY C55).
 */
import { Query, type Models } from "node-appwrite";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL, type ContentKind } from "../../model/model.ts";
import type { ContentReader } from "./content-store.ts";

/** Most rows Appwrite's `total` counts (`APP_LIMIT_COUNT`, REFERENCE §2 "Limits"): a larger count reads as this. */
export const APPWRITE_COUNT_CAP = 5000;

type Reader = ContentReader["tablesDB"];

/**
 * One `listRows` of `kind`; `total: false` skips Appwrite's count (up to 5,000 rows scanned a request), which
 * most reads here never look at.
 */
export function list(
  reader: Reader,
  kind: ContentKind,
  queries: string[],
  total = true,
): Promise<Models.RowList<Models.DefaultRow>> {
  return reader.listRows({ databaseId: DATABASE_ID, tableId: CONTENT_MODEL[kind].collectionId, queries, total });
}

/**
 * How many rows of `kind` match `filters` for this reader: Appwrite's `total` when under its cap, else found
 * by probing offsets (`Query.offset(n)` + `Query.limit(1)`: is there an n+1th row?), doubling then bisecting,
 * about 2·log2(count) small requests past 5,000 rows. `known`: a `total` already read with the same filters.
 * `kept`: counts past the cap are taken from and stored there (`KeptCounts`).
 */
export async function countRows(
  services: ContentReader,
  kind: ContentKind,
  filters: string[] = [],
  known?: number,
  kept?: KeptCounts,
): Promise<number> {
  const total =
    known ?? (await list(services.tablesDB, kind, [...filters, Query.select(["$id"]), Query.limit(1)])).total;
  if (total < APPWRITE_COUNT_CAP) return total;
  const key = countKey(kind, filters);
  const stored = kept?.get(key);
  if (stored !== undefined) return stored;
  // One search at a time per count: requests arriving meanwhile wait for it (issue #33 item 6: at 200,000 rows a
  // search outlasting the backend timeout was started again by every request, piling up on Appwrite). An
  // expired count is answered at once and searched again in the background: a search scans the rows it skips,
  // seconds at 200,000 rows, and never holds up a page but the very first.
  const pending = kept?.pending(key);
  const stale = kept?.stale(key);
  if (stale !== undefined) {
    if (!pending)
      kept!.track(
        key,
        searchCount(services, kind, filters, key, kept).catch(() => stale),
      );
    return stale;
  }
  if (pending) return pending;
  const searching = searchCount(services, kind, filters, key, kept);
  kept?.track(key, searching);
  return searching;
}

/** `countRows` past the cap: probes offsets, from the count `kept` last had when it has one. */
async function searchCount(
  services: ContentReader,
  kind: ContentKind,
  filters: string[],
  key: string,
  kept?: KeptCounts,
): Promise<number> {
  const exists = async (offset: number) =>
    (
      await list(
        services.tablesDB,
        kind,
        [...filters, Query.select(["$id"]), Query.limit(1), Query.offset(offset)],
        false,
      )
    ).rows.length > 0;
  let low = APPWRITE_COUNT_CAP; // a row exists at offset low - 1
  let high = low * 2; // no row at offset high - 1
  // The count kept before (expired): most often still right, two probes say so (issue #33 item 6: each probe
  // scans the rows it skips; at 200,000 rows a full search was ~18 of them every `maxAgeMs`).
  const before = kept?.last(key);
  if (before !== undefined && before > low) {
    const [there, past] = await Promise.all([exists(before - 1), exists(before)]);
    if (there && !past) {
      kept?.set(key, before);
      return before;
    }
    // Moved: search from it outwards, in steps doubling from 64.
    let step = 64;
    if (there) {
      low = before + 1;
      while (await exists(low + step - 1)) [low, step] = [low + step, step * 2];
      high = low + step;
    } else {
      high = before;
      while (high - step > APPWRITE_COUNT_CAP && !(await exists(high - step - 1)))
        [high, step] = [high - step, step * 2];
      low = Math.max(APPWRITE_COUNT_CAP, high - step);
    }
  } else {
    while (await exists(high - 1)) [low, high] = [high, high * 2];
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (await exists(mid - 1)) low = mid;
    else high = mid;
  }
  kept?.set(key, low);
  return low;
}

/** The key under which `countRows` keeps the count of `kind`'s rows matching `filters`. */
export function countKey(kind: ContentKind, filters: string[]): string {
  return JSON.stringify([kind, filters]);
}

/**
 * Counts past Appwrite's 5,000 cap, kept `maxAgeMs` (ms) each: such a count costs about 14 sequential offset
 * probes (`countRows`), too much for every render of a list of 10,000 posts (issue #18 item 3: < 100 ms p50).
 * Under the cap Appwrite's `total` is exact and free, so nothing is kept. A count may lag the rows by at most
 * `maxAgeMs`; callers recount (`forget`) when a request lies past a kept count.
 */
export class KeptCounts {
  private readonly counts = new Map<string, { value: number; at: number }>();
  /** The last count of each key, kept through `forget`: where the next search starts. */
  private readonly hints = new Map<string, number>();
  private readonly searches = new Map<string, Promise<number>>();

  constructor(
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The count kept under `key`, or undefined when none is, or it is older than `maxAgeMs`. */
  get(key: string): number | undefined {
    const entry = this.counts.get(key);
    return entry && this.now() - entry.at < this.maxAgeMs ? entry.value : undefined;
  }

  /** The search for `key`'s count under way (`track`), or undefined. */
  pending(key: string): Promise<number> | undefined {
    return this.searches.get(key);
  }

  /** Records `search` as the one under way for `key` until it settles. */
  track(key: string, search: Promise<number>): void {
    this.searches.set(key, search);
    const done = () => {
      if (this.searches.get(key) === search) this.searches.delete(key);
    };
    search.then(done, done);
  }

  /** The count last kept under `key`, even forgotten (where `countRows` starts probing), or undefined. */
  last(key: string): number | undefined {
    return this.hints.get(key);
  }

  set(key: string, value: number): void {
    this.counts.set(key, { value, at: this.now() });
    this.hints.set(key, value);
  }

  /** The count kept under `key`, fresh or expired (not forgotten), or undefined. */
  stale(key: string): number | undefined {
    return this.counts.get(key)?.value;
  }

  /** Drops every kept count: the next `countRows` searches again (from the count last kept) and waits for it. */
  forget(): void {
    this.counts.clear();
  }
}
