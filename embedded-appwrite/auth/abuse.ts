/** One limiter verdict: whether the request may proceed, and the headers Appwrite sends. */
export interface AbuseVerdict {
  allowed: boolean;
  headers: Record<string, string>;
}

/**
 * Appwrite-style abuse limiter (utopia `Abuse`, AW route labels `abuse-limit`/`abuse-key`): every
 * request counts against its key; the request over `limit` within `windowSeconds` is refused.
 * The emulator keeps a sliding window in memory (Appwrite: fixed windows in its database), so a
 * restart forgets the counts.
 */
export class AbuseLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowSeconds: number,
  ) {}

  /** Count one request for `key` and say whether it is within the limit (AW `X-RateLimit-*` headers). */
  hit(key: string, now = Date.now()): AbuseVerdict {
    const since = now - this.windowSeconds * 1000;
    const times = (this.hits.get(key) ?? []).filter((t) => t > since);
    times.push(now);
    // Keep no more than one entry beyond the limit per key.
    if (times.length > this.limit + 1) times.splice(0, times.length - this.limit - 1);
    this.hits.set(key, times);
    const oldest = times[0] ?? now;
    const reset = Math.ceil((oldest + this.windowSeconds * 1000) / 1000);
    const allowed = times.length <= this.limit;
    const headers: Record<string, string> = {
      "X-RateLimit-Limit": String(this.limit),
      "X-RateLimit-Remaining": String(Math.max(0, this.limit - times.length)),
      "X-RateLimit-Reset": String(reset),
    };
    if (!allowed) headers["Retry-After"] = String(Math.max(1, reset - Math.floor(now / 1000)));
    if (this.hits.size > 100_000) this.prune(since);
    return { allowed, headers };
  }

  /** Forget `key` (AW `abuse-reset`: a successful login resets its email's counter). */
  reset(key: string): void {
    this.hits.delete(key);
  }

  private prune(since: number): void {
    for (const [key, times] of this.hits) if ((times.at(-1) ?? 0) <= since) this.hits.delete(key);
  }
}
