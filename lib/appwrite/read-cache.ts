/**
 * A short-lived cache of the guest reads public pages make (issue #33 item 2: two Appwrite round trips per
 * `/en` were 37.5 % of a render's CPU). It serves only while every site in the process trusts it: a site
 * attaches with its realtime change feed's `live` (`server/changes.ts`, the feed the page cache listens to)
 * and drops it on every event, so a write anywhere (studio, console, admin) is never served stale once its
 * event arrived. An entry also expires after `maxAgeMs` (default 5 s, never more than the page cache's bound,
 * `PAGE_MAX_AGE_MS`): Appwrite sends no event to guests for an update that removes `read("any")` (SECURITY C55,
 * docs/decisions/0006), so an unpublish shows within that age, as with cached pages.
 *
 * One cache per process (on `globalThis`): the server build's copy of this module and the server's own share
 * it. A site that asks for no cache (`READ_CACHE=off`) turns it off for the whole process. Values are
 * deep-frozen when loaded and then shared: a caller that tries to change what it got throws a `TypeError`
 * (modules are strict code) instead of changing what others get. Freezing costs once per load; the deep copy
 * on every read it replaced cost an uncached `/en` 56-139 µs (its two list reads, 4.8 kB of JSON; measured
 * in process), about 1 % of the render's CPU (issue #33 item 1). A read that started before an invalidation is
 * not stored (a generation, as the page cache's).
 */
import { LRUCache } from "lru-cache";

/** Default longest life of a cached read, in ms: 5 s. */
export const READ_CACHE_MAX_AGE_MS = 5_000;

/** One site's claim on the cache: whether it wants it, whether its change feed is live, its age bound. */
export interface ReadCacheHolder {
  enabled: boolean;
  live(): boolean;
  /** Longest an entry may be served, in ms. */
  maxAgeMs: number;
}

interface Entry {
  value: unknown;
  storedAt: number;
}

/** The guest read cache, as described in the module comment. */
export class GuestReadCache {
  private readonly entries = new LRUCache<string, Entry>({ max: 2_000 });
  private readonly inflight = new Map<string, Promise<unknown>>();
  private readonly holders = new Set<ReadCacheHolder>();
  private generation = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Registers a site; the returned function unregisters it (when the site closes). */
  attach(holder: ReadCacheHolder): () => void {
    this.holders.add(holder);
    this.invalidate();
    return () => {
      this.holders.delete(holder);
      this.invalidate();
    };
  }

  /** Whether reads may be served from the cache now: some site attached, and every one wants it and is live. */
  get trusted(): boolean {
    if (this.holders.size === 0) return false;
    for (const holder of this.holders) if (!holder.enabled || !holder.live()) return false;
    return true;
  }

  /** Drops every entry (call it on every write event, and when a feed goes live or down). */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
    this.inflight.clear();
  }

  /**
   * `load()`'s value for `key`: from the cache when trusted and younger than the holders' age bound, else
   * loaded (once for concurrent callers) and stored if no invalidation happened meanwhile. Errors are not
   * stored. Every caller gets the same deep-frozen value (`deepFreeze`).
   */
  async read<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (!this.trusted) return load();
    const entry = this.entries.get(key);
    if (entry && this.now() - entry.storedAt <= this.maxAgeMs()) return entry.value as T;
    let pending = this.inflight.get(key) as Promise<T> | undefined;
    if (!pending) {
      const generation = this.generation;
      pending = load().then((value) => {
        deepFreeze(value);
        if (generation === this.generation) this.entries.set(key, { value, storedAt: this.now() });
        return value;
      });
      const shared = pending.finally(() => {
        if (this.inflight.get(key) === shared) this.inflight.delete(key);
      });
      this.inflight.set(key, shared);
      pending = shared;
    }
    return pending;
  }

  private maxAgeMs(): number {
    let age = READ_CACHE_MAX_AGE_MS;
    for (const holder of this.holders) age = Math.min(age, holder.maxAgeMs);
    return age;
  }
}

/**
 * Freezes `value` and every object and array reachable from it (JSON data: no cycles, no class instances
 * that need to change). Already frozen objects are not entered again.
 */
function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}

const KEY = Symbol.for("venture-studio.guest-read-cache");

/** The process's guest read cache (created on first use). */
export function sharedGuestReadCache(): GuestReadCache {
  const holder = globalThis as typeof globalThis & { [KEY]?: GuestReadCache };
  holder[KEY] ??= new GuestReadCache();
  return holder[KEY];
}
