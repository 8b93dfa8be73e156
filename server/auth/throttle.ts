/**
 * Login and sign-up throttling in the site itself (SECURITY C13, C14, C52): the site signs users in with an
 * API key, and API-key requests skip Appwrite's own limits, so the site must keep them.
 *
 * - per e-mail: 10 failed logins within an hour block that e-mail (the correct password too) for 15 minutes
 *   after the tenth failure (C52: timed unlock ≤ 15 min); a success resets the count;
 * - per client IP: 50 failed logins an hour (P);
 * - sign-up: 10 accounts an hour per client IP (Appwrite's limit).
 * The counts live in an `EventLog` (`server/limits/event-log.ts`): Appwrite's `limit_events` table in the site,
 * shared by every site process and kept across restarts. Each decision reads and records under its keys'
 * in-process locks, so concurrent requests never share the last place (SECURITY C64).
 */
import { MemoryEventLog, takeFromWindows, type EventLog } from "../limits/event-log.ts";
import { ipLimitKey } from "../limits/ip-key.ts";
import { LIMIT_LOCK } from "../limits/key-lock.ts";

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

/**
 * A login let through the throttle, counted as a failure until it is known to be right (SECURITY C64: a burst of
 * concurrent attempts sees every earlier one, so no more than the limit are ever checked). Call exactly one
 * method once the password has been checked. Each may reject with the log's error.
 */
export interface LoginAttempt {
  /** The password was wrong (or the e-mail unknown): the attempt stays counted. */
  failed(): Promise<void>;
  /** The password was right: the e-mail's failures start again (Appwrite: "a success resets"), the IP's lose this one. */
  succeeded(): Promise<void>;
  /** The check did not happen (Appwrite failed): the attempt is not counted. */
  abandoned(): Promise<void>;
}

/** A login allowed (with its attempt to settle), or blocked with the seconds to wait. */
export type LoginDecision = { allowed: true; attempt: LoginAttempt } | { allowed: false; retryAfterSeconds: number };

/**
 * Failed-login and sign-up counters with Appwrite-like limits, kept in `log`: an `AppwriteEventLog` in the site,
 * so every site process on one Appwrite counts together (issue #18 item 4); a `MemoryEventLog` by default.
 * Decisions hold the keys' in-process locks (`LIMIT_LOCK`) from the read to the write (SECURITY C64).
 * Every method may reject with the log's error (an Appwrite failure); callers fail closed.
 */
export class AuthThrottle {
  constructor(
    private readonly limits: ThrottleLimits = DEFAULT_LIMITS,
    private readonly clock: () => number = Date.now,
    private readonly log: EventLog = new MemoryEventLog(),
  ) {}

  /**
   * Whether a login for `email` from `ip` may be tried now (before checking the password). An allowed attempt
   * is recorded at once as a failure of the e-mail and of the IP (its /64 for IPv6, `ipLimitKey`), under both
   * keys' locks, and settled by the caller through `attempt`: so 40 concurrent wrong passwords for one e-mail
   * get at most 10 checks in one process.
   */
  async beginLogin(email: string, ip: string): Promise<LoginDecision> {
    const emailKey = `login-email:${normalize(email)}`;
    const ipKey = `login-ip:${ipLimitKey(ip)}`;
    const { windowMs, perEmail, perIp, lockMs } = this.limits;
    return LIMIT_LOCK.run([emailKey, ipKey], async () => {
      const now = this.clock();
      const byEmail = await this.log.recent(emailKey, windowMs, now, perEmail);
      if (byEmail.length >= perEmail) {
        const until = byEmail[byEmail.length - 1]! + lockMs;
        if (now < until) return blocked(until - now);
        await this.log.clear(emailKey);
      }
      const byIp = await this.log.recent(ipKey, windowMs, now, perIp);
      if (byIp.length >= perIp) return blocked(byIp[0]! + windowMs - now);
      const [emailEvent, ipEvent] = await Promise.all([
        this.log.add(emailKey, now, windowMs),
        this.log.add(ipKey, now, windowMs),
      ]);
      const attempt: LoginAttempt = {
        failed: async () => {},
        succeeded: async () => {
          await Promise.all([this.log.clear(emailKey), this.log.remove(ipKey, ipEvent)]);
        },
        abandoned: async () => {
          await Promise.all([this.log.remove(emailKey, emailEvent), this.log.remove(ipKey, ipEvent)]);
        },
      };
      return { allowed: true, attempt };
    });
  }

  /**
   * Whether a sign-up from `ip` (its /64 for IPv6) may proceed; counts it when allowed, atomically with the
   * check (`takeFromWindow`), so 29 concurrent sign-ups from one IP make at most 10 accounts per process.
   */
  async checkSignUp(ip: string): Promise<ThrottleDecision> {
    const { signUpsPerIp, windowMs } = this.limits;
    const decision = await takeFromWindows(
      this.log,
      [{ key: `sign-up-ip:${ipLimitKey(ip)}`, limit: signUpsPerIp, windowMs }],
      this.clock,
    );
    return decision.allowed ? { allowed: true } : blocked(decision.retryAfterMs);
  }
}

const normalize = (email: string) => email.trim().toLowerCase();
const blocked = (ms: number): { allowed: false; retryAfterSeconds: number } => ({
  allowed: false,
  retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)),
});
