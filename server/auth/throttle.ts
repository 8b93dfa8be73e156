/**
 * Login and sign-up throttling in the site itself (SECURITY C13, C14, C52): the site signs users in with an
 * API key, and API-key requests skip Appwrite's own limits, so the site must keep them.
 *
 * - per e-mail: 10 failed logins within an hour block that e-mail (the correct password too) for 15 minutes
 *   after the tenth failure (C52: timed unlock ≤ 15 min); a success resets the count;
 * - per client IP: 50 failed logins an hour (P);
 * - sign-up: 10 accounts an hour per client IP (Appwrite's limit).
 * The counts live in an `EventLog` (`server/limits/event-log.ts`): Appwrite's `limit_events` table in the site,
 * shared by every site process and kept across restarts.
 */
import { MemoryEventLog, type EventLog } from "../limits/event-log.ts";

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

/** A sliding-window counter of one kind of event, over an `EventLog` (keys prefixed with the counter's name). */
class Counter {
  constructor(
    private readonly log: EventLog,
    private readonly name: string,
    private readonly windowMs: number,
    private readonly max: number,
  ) {}

  /** Times of `key`'s events still inside the window (oldest first; at most the limit's worth). */
  recent(key: string, now: number): Promise<number[]> {
    return this.log.recent(`${this.name}:${key}`, this.windowMs, now, this.max);
  }

  add(key: string, now: number): Promise<void> {
    return this.log.add(`${this.name}:${key}`, now, this.windowMs);
  }

  clear(key: string): Promise<void> {
    return this.log.clear(`${this.name}:${key}`);
  }
}

/**
 * Failed-login and sign-up counters with Appwrite-like limits, kept in `log`: an `AppwriteEventLog` in the site,
 * so every site process on one Appwrite counts together (issue #18 item 4); a `MemoryEventLog` by default.
 * Every method may reject with the log's error (an Appwrite failure); callers fail closed.
 */
export class AuthThrottle {
  private readonly emailFailures: Counter;
  private readonly ipFailures: Counter;
  private readonly signUps: Counter;

  constructor(
    private readonly limits: ThrottleLimits = DEFAULT_LIMITS,
    private readonly clock: () => number = Date.now,
    log: EventLog = new MemoryEventLog(),
  ) {
    this.emailFailures = new Counter(log, "login-email", limits.windowMs, limits.perEmail);
    this.ipFailures = new Counter(log, "login-ip", limits.windowMs, limits.perIp);
    this.signUps = new Counter(log, "sign-up-ip", limits.windowMs, limits.signUpsPerIp);
  }

  /** Whether a login for `email` from `ip` may be tried now (before checking the password). */
  async checkLogin(email: string, ip: string): Promise<ThrottleDecision> {
    const now = this.clock();
    const byEmail = await this.emailFailures.recent(normalize(email), now);
    if (byEmail.length >= this.limits.perEmail) {
      const until = byEmail[byEmail.length - 1]! + this.limits.lockMs;
      if (now < until) return blocked(until - now);
      await this.emailFailures.clear(normalize(email));
    }
    const byIp = await this.ipFailures.recent(ip, now);
    if (byIp.length >= this.limits.perIp) return blocked(byIp[0]! + this.limits.windowMs - now);
    return { allowed: true };
  }

  /** Records a wrong password (or unknown e-mail). */
  async loginFailed(email: string, ip: string): Promise<void> {
    const now = this.clock();
    await Promise.all([this.emailFailures.add(normalize(email), now), this.ipFailures.add(ip, now)]);
  }

  /** Records a successful login: the e-mail's count starts again (Appwrite: "a success resets"). */
  async loginSucceeded(email: string): Promise<void> {
    await this.emailFailures.clear(normalize(email));
  }

  /** Whether a sign-up from `ip` may proceed; counts it when allowed. */
  async checkSignUp(ip: string): Promise<ThrottleDecision> {
    const now = this.clock();
    const recent = await this.signUps.recent(ip, now);
    if (recent.length >= this.limits.signUpsPerIp) return blocked(recent[0]! + this.limits.windowMs - now);
    await this.signUps.add(ip, now);
    return { allowed: true };
  }
}

const normalize = (email: string) => email.trim().toLowerCase();
const blocked = (ms: number): ThrottleDecision => ({
  allowed: false,
  retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)),
});
