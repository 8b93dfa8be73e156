/**
 * How many visitor-form submissions (contact messages and community applications together) one client IP
 * may make (SECURITY C57, ASVS v5 2.4.1 anti-automation): 5 a minute and 50 a day. Two sliding windows over an
 * `EventLog`, keyed by the client IP the site server records: Appwrite's `limit_events` in the site, so several
 * site processes on one Appwrite share the allowance and a restart keeps it (issue #18 item 4).
 */
import { MemoryEventLog, type EventLog } from "../limits/event-log.ts";

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
   * Takes one submission from `ip`'s allowance: allowed while both windows have room, else refused with the
   * seconds until the oldest submission of the full window leaves it. A submission refused by the minute window
   * does not count against the day.
   * @throws the log's error (an Appwrite failure): the caller fails closed.
   */
  async take(ip: string): Promise<FormLimitDecision> {
    const now = Date.now();
    const windows = [
      { name: "forms-minute", limit: this.limits.perMinute, ms: this.limits.minuteSeconds * 1000 },
      { name: "forms-day", limit: this.limits.perDay, ms: this.limits.daySeconds * 1000 },
    ];
    // Check both before recording either, so a refusal leaves no trace in the other window.
    for (const w of windows) {
      const recent = await this.log.recent(`${w.name}:${ip}`, w.ms, now, w.limit);
      if (recent.length >= w.limit) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((recent[0]! + w.ms - now) / 1000)) };
      }
    }
    await Promise.all(windows.map((w) => this.log.add(`${w.name}:${ip}`, now, w.ms)));
    return { allowed: true };
  }
}
