/**
 * Per-key locks inside one process (SECURITY C64, issue #26 item 3): a limit decides "read the count, then
 * record" while holding its key's lock, so two requests of one process never both take the last place. Across
 * processes the log is shared but the locks are not: each other process can have at most one decision between
 * its read and its write, so a burst passes a limit by at most one per extra process.
 *
 * A lock is a FIFO queue of promises: waiters run in arrival order, and a key's entry is dropped once nobody
 * holds or waits for it, so the map holds only keys in use.
 */

/** Named in-process locks; one instance for all of a process's limits (keys are namespaced by their users). */
export class KeyLock {
  private readonly tails = new Map<string, Promise<void>>();

  /** Number of keys held or waited for right now (tests: the map must empty itself). */
  get size(): number {
    return this.tails.size;
  }

  /**
   * Runs `work` while holding the locks of every key in `keys` (taken in sorted order, so two callers naming
   * the same keys in another order cannot deadlock), releasing them when it settles.
   * @returns what `work` returns; rejects with what it throws.
   */
  async run<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const releases: Array<() => void> = [];
    try {
      for (const key of [...new Set(keys)].sort()) releases.push(await this.acquire(key));
      return await work();
    } finally {
      for (const release of releases.reverse()) release();
    }
  }

  private async acquire(key: string): Promise<() => void> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tail = before.then(() => held);
    this.tails.set(key, tail);
    await before;
    return () => {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }
}

/** The process's lock for every limit of the site (`server/limits/event-log.ts` `takeFromWindows`, the throttle). */
export const LIMIT_LOCK = new KeyLock();
