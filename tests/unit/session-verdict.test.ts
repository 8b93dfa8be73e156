/** SECURITY C71: a session cookie Appwrite does not know is a guest, remembered briefly (`session-verdict.ts`). */
import { createCookie } from "react-router";
import { describe, expect, it } from "vitest";
import { GUEST_VERDICT_MS, SessionVerdicts } from "../../server/auth/session-verdict.ts";
import { lazyPreviewSecret, previewRedirect } from "../../server/http/preview-gate.ts";
import { signPreview } from "../../lib/publish/preview-link.ts";

const cookieOf = async (secret: string) => (await createCookie("studio_session").serialize(secret)).split(";")[0]!;

function verdicts(live: Set<string>) {
  let now = 1_000_000;
  const asked: string[] = [];
  const v = new SessionVerdicts({
    isSession: async (secret) => {
      asked.push(secret);
      if (secret === "flaky") throw new Error("Appwrite is down");
      return live.has(secret);
    },
    now: () => now,
  });
  return { v, asked, advance: (ms: number) => (now += ms) };
}

describe("SessionVerdicts", () => {
  it("judges a made-up cookie a guest once, then knows it for a minute", async () => {
    const { v, asked, advance } = verdicts(new Set(["real"]));
    const fake = `locale=ar; ${await cookieOf("made-up")}`;
    expect(v.known(fake)).toBeUndefined();
    expect(await Promise.all([v.judge(fake), v.judge(fake)])).toEqual([false, false]);
    expect(asked).toEqual(["made-up"]); // concurrent requests share one question
    expect(v.known(fake)).toBe(false);
    advance(GUEST_VERDICT_MS + 1);
    expect(v.known(fake)).toBeUndefined();
  });

  it("knows a request without a session cookie at once, and a real one as signed in", async () => {
    const { v } = verdicts(new Set(["real"]));
    expect(v.known(undefined)).toBe(false);
    expect(v.known("locale=en")).toBe(false);
    expect(await v.judge(await cookieOf("real"))).toBe(true);
    expect(v.known(await cookieOf("real"))).toBe(true);
    expect(await v.judge("studio_session=not-even-base64")).toBe(false);
  });

  it("counts a cookie Appwrite could not judge as signed in, and asks again next time", async () => {
    const { v, asked } = verdicts(new Set());
    const flaky = await cookieOf("flaky");
    expect(await v.judge(flaky)).toBe(true);
    expect(v.known(flaky)).toBeUndefined();
    await v.judge(flaky);
    expect(asked).toEqual(["flaky", "flaky"]);
  });
});

describe("previewRedirect", () => {
  const SECRET = "0123456789abcdef0123456789abcdef";
  const secret = () => SECRET;

  it("lets a valid token through and sends a wrong, foreign or expired one to the plain URL", () => {
    const post = { kind: "post", documentId: "d1", locale: "en", key: "0" } as const;
    const valid = signPreview(SECRET, post);
    expect(previewRedirect(`/en/blog/draft-one?preview=${valid}`, secret)).toBeNull();
    // Bound to a locale (issue #28 item 4): the Arabic page of the same item is another document.
    expect(previewRedirect(`/ar/blog/draft-one/?preview=${valid}`, secret)).toBe("/ar/blog/draft-one/");
    expect(previewRedirect(`/en/ventures/draft-one?preview=${valid}`, secret)).toBe("/en/ventures/draft-one");
    const expired = signPreview(SECRET, post, Date.now() - 8 * 86_400_000);
    expect(previewRedirect(`/en/blog/draft-one?preview=${expired}`, secret)).toBe("/en/blog/draft-one");
    const arabic = signPreview(SECRET, { kind: "venture", documentId: "d2", locale: "ar", key: "0" });
    expect(previewRedirect(`/ar/ventures/${encodeURIComponent("مشروع")}?preview=${arabic}`, secret)).toBeNull();
  });

  it("leaves other URLs alone, and tokens to the page while the secret is not known", () => {
    expect(previewRedirect("/en/blog?page=2", secret)).toBeNull();
    expect(previewRedirect("/en/blog/x", secret)).toBeNull();
    expect(previewRedirect(`/en/blog/x?preview=1.${"A".repeat(43)}.0.d1`, () => null)).toBeNull();
  });

  it("reads the secret once, on the first call", async () => {
    const read = lazyPreviewSecret(SECRET, "/nonexistent");
    expect(read()).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(read()).toBe(SECRET);
  });
});
