/** SECURITY C57: the visitor forms' allowance per client IP (`server/http/form-limits.ts`). */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_FORM_LIMITS, FormRateLimiter } from "../../server/http/form-limits.ts";

beforeEach(() => {
  vi.useFakeTimers({ now: new Date("2026-11-24T09:00:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

async function takeMany(limiter: FormRateLimiter, ip: string, count: number) {
  const decisions = [];
  for (let i = 0; i < count; i++) decisions.push(await limiter.take(ip));
  return decisions;
}

describe("FormRateLimiter", () => {
  it("allows 5 a minute per IP, refuses the rest with the seconds left, and leaves other IPs alone", async () => {
    const limiter = new FormRateLimiter();
    const decisions = await takeMany(limiter, "203.0.113.1", 60);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    expect(decisions.slice(0, 5).every((d) => d.allowed)).toBe(true);
    const refused = decisions[5]!;
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 60 });

    expect(await limiter.take("203.0.113.2")).toEqual({ allowed: true });

    vi.advanceTimersByTime(61_000);
    expect(await limiter.take("203.0.113.1")).toEqual({ allowed: true });
  });

  it("allows 50 a day: the 51st is refused even a minute later, until the day is over", async () => {
    const limiter = new FormRateLimiter();
    let allowed = 0;
    for (let minute = 0; minute < 12; minute++) {
      allowed += (await takeMany(limiter, "198.51.100.9", 5)).filter((d) => d.allowed).length;
      vi.advanceTimersByTime(61_000);
    }
    expect(allowed).toBe(DEFAULT_FORM_LIMITS.perDay);
    const refused = await limiter.take("198.51.100.9");
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThan(23 * 3600);

    vi.advanceTimersByTime(24 * 3_600_000);
    expect(await limiter.take("198.51.100.9")).toEqual({ allowed: true });
  });

  it("does not count what the minute window refused against the day", async () => {
    const limiter = new FormRateLimiter({ perMinute: 2, perDay: 4, minuteSeconds: 60, daySeconds: 86_400 });
    expect((await takeMany(limiter, "ip", 10)).filter((d) => d.allowed)).toHaveLength(2);
    vi.advanceTimersByTime(61_000);
    expect((await takeMany(limiter, "ip", 2)).every((d) => d.allowed)).toBe(true);
  });
});
