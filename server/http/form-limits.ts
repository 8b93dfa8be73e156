/**
 * How many visitor-form submissions (contact messages and community applications together) one client IP
 * may make (SECURITY C57, ASVS v5 2.4.1 anti-automation): 5 a minute and 50 a day. Two fixed windows of
 * `rate-limiter-flexible`'s in-memory limiter, keyed by the client IP the site server records.
 *
 * In memory: one process; counts are lost on restart, and each IP seen costs one small entry per window until
 * its window ends. Several site processes behind one proxy would each allow the limits (docs/security.md C57).
 */
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

export interface FormLimits {
  /** Submissions per client IP within `minuteSeconds` (default 5 in 60 s). */
  perMinute: number;
  /** Submissions per client IP within `daySeconds` (default 50 in 86,400 s). */
  perDay: number;
  minuteSeconds: number;
  daySeconds: number;
}

export const DEFAULT_FORM_LIMITS: FormLimits = { perMinute: 5, perDay: 50, minuteSeconds: 60, daySeconds: 86_400 };

/** Allowed, or refused with the seconds to wait (the `Retry-After` header, RFC 9110 §10.2.3). */
export type FormLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** The per-IP allowance of the visitor forms. */
export class FormRateLimiter {
  private readonly minute: RateLimiterMemory;
  private readonly day: RateLimiterMemory;

  constructor(limits: FormLimits = DEFAULT_FORM_LIMITS) {
    this.minute = new RateLimiterMemory({
      keyPrefix: "forms-minute",
      points: limits.perMinute,
      duration: limits.minuteSeconds,
    });
    this.day = new RateLimiterMemory({ keyPrefix: "forms-day", points: limits.perDay, duration: limits.daySeconds });
  }

  /**
   * Takes one submission from `ip`'s allowance: allowed while both windows have room, else refused with the
   * seconds until the window that is full ends. A submission refused by the minute window does not count
   * against the day. Never rejects for an exhausted allowance.
   * @throws {Error} only for a fault of the limiter itself (not expected in memory).
   */
  async take(ip: string): Promise<FormLimitDecision> {
    for (const limiter of [this.minute, this.day]) {
      try {
        await limiter.consume(ip);
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
      }
    }
    return { allowed: true };
  }
}
