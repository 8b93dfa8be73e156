import { describe, expect, it } from "vitest";
import { AuthThrottle, type LoginDecision } from "../../server/auth/throttle.ts";
import { MemoryEventLog } from "../../server/limits/event-log.ts";
import { LIMIT_LOCK } from "../../server/limits/key-lock.ts";

function throttle() {
  let now = 1_000_000;
  const limiter = new AuthThrottle(undefined, () => now);
  return { limiter, advance: (ms: number) => (now += ms) };
}

/** A login attempt that turns out wrong; the decision it got. */
async function wrong(limiter: AuthThrottle, email: string, ip: string): Promise<LoginDecision> {
  const decision = await limiter.beginLogin(email, ip);
  if (decision.allowed) await decision.attempt.failed();
  return decision;
}

describe("login throttling (SECURITY C13, C52)", () => {
  it("allows 10 failures for one e-mail, then blocks it (even the right password) with Retry-After", async () => {
    const { limiter } = throttle();
    for (let i = 0; i < 10; i++) expect((await wrong(limiter, "Owner@Example.com", "1.1.1.1")).allowed).toBe(true);
    expect(await limiter.beginLogin("owner@example.com", "2.2.2.2")).toEqual({
      allowed: false,
      retryAfterSeconds: 900,
    });
  });

  it("unlocks the e-mail 15 minutes after the last failure, and does not block other e-mails", async () => {
    const { limiter, advance } = throttle();
    for (let i = 0; i < 10; i++) await wrong(limiter, "x@example.com", "1.1.1.1");
    expect((await wrong(limiter, "y@example.com", "1.1.1.1")).allowed).toBe(true);
    advance(15 * 60 * 1000 - 1000);
    expect((await limiter.beginLogin("x@example.com", "1.1.1.1")).allowed).toBe(false);
    advance(1000);
    expect((await limiter.beginLogin("x@example.com", "1.1.1.1")).allowed).toBe(true);
  });

  it("resets an e-mail's count on success, and never blocks repeated successes", async () => {
    const { limiter } = throttle();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 9; i++) await wrong(limiter, "z@example.com", `10.0.${round}.${i}`);
      const right = await limiter.beginLogin("z@example.com", "1.1.1.1");
      if (!right.allowed) throw new Error("the tenth attempt was refused");
      await right.attempt.succeeded();
    }
    expect((await limiter.beginLogin("z@example.com", "1.1.1.1")).allowed).toBe(true);
  });

  it("blocks an IP after 50 failures across e-mails, and limits sign-ups to 10 an hour per IP", async () => {
    const { limiter, advance } = throttle();
    for (let i = 0; i < 50; i++) await wrong(limiter, `user${i}@example.com`, "3.3.3.3");
    expect((await limiter.beginLogin("fresh@example.com", "3.3.3.3")).allowed).toBe(false);
    expect((await limiter.beginLogin("fresh@example.com", "4.4.4.4")).allowed).toBe(true);

    for (let i = 0; i < 10; i++) expect((await limiter.checkSignUp("5.5.5.5")).allowed).toBe(true);
    expect(await limiter.checkSignUp("5.5.5.5")).toEqual({ allowed: false, retryAfterSeconds: 3600 });
    advance(60 * 60 * 1000);
    expect((await limiter.checkSignUp("5.5.5.5")).allowed).toBe(true);
  });
});

/** A log whose reads and writes each take a turn of the event loop, like Appwrite's over HTTP. */
class SlowLog extends MemoryEventLog {
  override async recent(key: string, windowMs: number, now: number, max: number) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return super.recent(key, windowMs, now, max);
  }
  override async add(key: string, now: number, keepMs: number) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return super.add(key, now, keepMs);
  }
}

describe("atomic decisions (SECURITY C64)", () => {
  it("lets 10 of 40 concurrent wrong passwords for one e-mail be checked, not 40", async () => {
    const limiter = new AuthThrottle(undefined, undefined, new SlowLog());
    const decisions = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const decision = await limiter.beginLogin("victim@example.com", `198.51.100.${i}`);
        if (decision.allowed) await decision.attempt.failed();
        return decision.allowed;
      }),
    );
    expect(decisions.filter(Boolean)).toHaveLength(10);
    expect(LIMIT_LOCK.size).toBe(0); // no key left behind
  });

  it("makes 10 of 29 concurrent sign-ups from one IPv6 /64, each from another address in it", async () => {
    const limiter = new AuthThrottle(undefined, undefined, new SlowLog());
    const decisions = await Promise.all(
      Array.from({ length: 29 }, (_, i) => limiter.checkSignUp(`2001:db8:7:9:${i.toString(16)}::1`)),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    expect((await limiter.checkSignUp("2001:db8:7:a::1")).allowed).toBe(true); // the next /64 is another client
  });

  it("does not count an attempt whose check never happened", async () => {
    const { limiter } = throttle();
    for (let i = 0; i < 20; i++) {
      const decision = await limiter.beginLogin("flaky@example.com", "1.1.1.1");
      if (!decision.allowed) throw new Error(`attempt ${i} was refused`);
      await decision.attempt.abandoned();
    }
  });
});
