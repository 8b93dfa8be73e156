/**
 * Login and sign-up throttling in the site itself (SECURITY C13, C14, C52): the site signs users in with an
 * API key, and API-key requests skip Appwrite's own limits, so the site must keep them.
 *
 * - per e-mail: 10 failed logins within an hour block that e-mail (the correct password too) for 15 minutes
 *   after the tenth failure (C52: timed unlock ≤ 15 min); a success resets the count;
 * - per client IP: 50 failed logins an hour (P);
 * - sign-up: 10 accounts an hour per client IP (Appwrite's limit).
 * In memory: one process, counts lost on restart (documented in docs/security.md).
 */

export interface ThrottleLimits {
  /** Failures per e-mail in `windowMs` before a block (default 10). */
  perEmail: number;
  /** Failures per IP in `windowMs` before a block (default 50). */
  perIp: number;
  /** Sign-ups per IP in `windowMs` (default 10). */
  signUpsPerIp: number;
  /** Window of the counts, in ms (default one hour). */
  windowMs: number;
  /** How long an e-mail stays blocked after its last allowed failure, in ms (default 15 minutes). */
  lockMs: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = {
  perEmail: 10,
  perIp: 50,
  signUpsPerIp: 10,
  windowMs: 60 * 60 * 1000,
  lockMs: 15 * 60 * 1000,
};

/** Allowed, or blocked with the seconds to wait (the `Retry-After` header, RFC 9110 §10.2.3). */
export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

class Counter {
  private readonly events = new Map<string, number[]>();

  constructor(private readonly windowMs: number) {}

  /** Timestamps of `key` still inside the window (oldest first). */
  recent(key: string, now: number): number[] {
    const kept = (this.events.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (kept.length) this.events.set(key, kept);
    else this.events.delete(key);
    return kept;
  }

  add(key: string, now: number): void {
    this.events.set(key, [...this.recent(key, now), now]);
  }

  clear(key: string): void {
    this.events.delete(key);
  }
}

/** Failed-login and sign-up counters with Appwrite-like limits. */
export class AuthThrottle {
  private readonly emailFailures: Counter;
  private readonly ipFailures: Counter;
  private readonly signUps: Counter;

  constructor(
    private readonly limits: ThrottleLimits = DEFAULT_LIMITS,
    private readonly clock: () => number = Date.now,
  ) {
    this.emailFailures = new Counter(limits.windowMs);
    this.ipFailures = new Counter(limits.windowMs);
    this.signUps = new Counter(limits.windowMs);
  }

  /** Whether a login for `email` from `ip` may be tried now (before checking the password). */
  checkLogin(email: string, ip: string): ThrottleDecision {
    const now = this.clock();
    const byEmail = this.emailFailures.recent(normalize(email), now);
    if (byEmail.length >= this.limits.perEmail) {
      const until = byEmail[byEmail.length - 1]! + this.limits.lockMs;
      if (now < until) return blocked(until - now);
      this.emailFailures.clear(normalize(email));
    }
    const byIp = this.ipFailures.recent(ip, now);
    if (byIp.length >= this.limits.perIp) return blocked(byIp[0]! + this.limits.windowMs - now);
    return { allowed: true };
  }

  /** Records a wrong password (or unknown e-mail). */
  loginFailed(email: string, ip: string): void {
    const now = this.clock();
    this.emailFailures.add(normalize(email), now);
    this.ipFailures.add(ip, now);
  }

  /** Records a successful login: the e-mail's count starts again (Appwrite: "a success resets"). */
  loginSucceeded(email: string): void {
    this.emailFailures.clear(normalize(email));
  }

  /** Whether a sign-up from `ip` may proceed; counts it when allowed. */
  checkSignUp(ip: string): ThrottleDecision {
    const now = this.clock();
    const recent = this.signUps.recent(ip, now);
    if (recent.length >= this.limits.signUpsPerIp) return blocked(recent[0]! + this.limits.windowMs - now);
    this.signUps.add(ip, now);
    return { allowed: true };
  }
}

const normalize = (email: string) => email.trim().toLowerCase();
const blocked = (ms: number): ThrottleDecision => ({
  allowed: false,
  retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)),
});
