import { describe, expect, it } from "vitest";
import { AuthThrottle } from "../../server/auth/throttle.ts";

function throttle() {
  let now = 1_000_000;
  const limiter = new AuthThrottle(undefined, () => now);
  return { limiter, advance: (ms: number) => (now += ms) };
}

describe("login throttling (SECURITY C13, C52)", () => {
  it("allows 10 failures for one e-mail, then blocks it (even the right password) with Retry-After", async () => {
    const { limiter } = throttle();
    for (let i = 0; i < 10; i++) {
      expect(await limiter.checkLogin("Owner@Example.com", "1.1.1.1")).toEqual({ allowed: true });
      await limiter.loginFailed("owner@example.com", "1.1.1.1");
    }
    expect(await limiter.checkLogin("owner@example.com", "2.2.2.2")).toEqual({
      allowed: false,
      retryAfterSeconds: 900,
    });
  });

  it("unlocks the e-mail 15 minutes after the last failure, and does not block other e-mails", async () => {
    const { limiter, advance } = throttle();
    for (let i = 0; i < 10; i++) await limiter.loginFailed("x@example.com", "1.1.1.1");
    expect(await limiter.checkLogin("y@example.com", "1.1.1.1")).toEqual({ allowed: true });
    advance(15 * 60 * 1000 - 1000);
    expect((await limiter.checkLogin("x@example.com", "1.1.1.1")).allowed).toBe(false);
    advance(1000);
    expect(await limiter.checkLogin("x@example.com", "1.1.1.1")).toEqual({ allowed: true });
  });

  it("resets an e-mail's count on success, and never blocks repeated successes", async () => {
    const { limiter } = throttle();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 9; i++) await limiter.loginFailed("z@example.com", "1.1.1.1");
      await limiter.loginSucceeded("z@example.com");
    }
    expect(await limiter.checkLogin("z@example.com", "1.1.1.1")).toEqual({ allowed: true });
  });

  it("blocks an IP after 50 failures across e-mails, and limits sign-ups to 10 an hour per IP", async () => {
    const { limiter, advance } = throttle();
    for (let i = 0; i < 50; i++) await limiter.loginFailed(`user${i}@example.com`, "3.3.3.3");
    expect((await limiter.checkLogin("fresh@example.com", "3.3.3.3")).allowed).toBe(false);
    expect((await limiter.checkLogin("fresh@example.com", "4.4.4.4")).allowed).toBe(true);

    for (let i = 0; i < 10; i++) expect((await limiter.checkSignUp("5.5.5.5")).allowed).toBe(true);
    expect(await limiter.checkSignUp("5.5.5.5")).toEqual({ allowed: false, retryAfterSeconds: 3600 });
    advance(60 * 60 * 1000);
    expect((await limiter.checkSignUp("5.5.5.5")).allowed).toBe(true);
  });
});
