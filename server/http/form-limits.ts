/**
 * How many visitor-form submissions (contact messages and community applications together) one client IP
 * may make (SECURITY C57, ASVS v5 2.4.1 anti-automation): 5 a minute and 50 a day. Two sliding windows over an
 * `EventLog`, keyed by the client IP the site server records: Appwrite's `limit_events` in the site, so several
 * site processes on one Appwrite share the allowance and a restart keeps it (issue #18 item 4).
 */
import { MemoryEventLog, takeFromWindows, type EventLog } from "../limits/event-log.ts";
import { ipLimitKey } from "../limits/ip-key.ts";

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
  constructor(
    private readonly limits: FormLimits = DEFAULT_FORM_LIMITS,
    private readonly log: EventLog = new MemoryEventLog(),
  ) {}

  /**
   * Takes one submission from `ip`'s allowance (IPv6 addresses counted by their /64, `ipLimitKey`): allowed
   * while both windows have room, else refused with the seconds until the oldest submission of the full window
   * leaves it. A submission refused by the minute window does not count against the day. Decided atomically
   * (`takeFromWindows`, SECURITY C64): concurrent posts never share the last place.
   * @throws the log's error (an Appwrite failure): the caller fails closed.
   */
  async take(ip: string): Promise<FormLimitDecision> {
    const client = ipLimitKey(ip);
    const decision = await takeFromWindows(this.log, [
      { key: `forms-minute:${client}`, limit: this.limits.perMinute, windowMs: this.limits.minuteSeconds * 1000 },
      { key: `forms-day:${client}`, limit: this.limits.perDay, windowMs: this.limits.daySeconds * 1000 },
    ]);
    if (decision.allowed) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(decision.retryAfterMs / 1000)) };
  }
}
