/**
 * SECURITY C43 (P: 20 AI drafts per user an hour; ASVS v5 2.4.1): over real HTTP with a signed-in user and the
 * local fake Gemini, the 21st call of the hour is refused with 429, `Retry-After` and a friendly message,
 * without reaching Gemini; another user keeps their own allowance. Its own file: the allowance lives in the
 * site process.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryEventLog } from "../../server/limits/event-log.ts";
import { AI_DRAFTS_PER_HOUR, takeAiAllowance } from "../../web/data/admin.server.ts";
import { startFakeGemini, type FakeGemini } from "../helpers/fake-gemini.ts";
import { startSiteStack, Visitor, type SiteStack } from "../helpers/site.ts";

let stack: SiteStack;
let gemini: FakeGemini;
beforeAll(async () => {
  [stack, gemini] = await Promise.all([startSiteStack(), startFakeGemini()]);
  process.env.GEMINI_API_KEY = "test-key";
  process.env.GEMINI_BASE_URL = gemini.baseUrl;
  gemini.script({
    json: {
      title: "Why Small Agencies Win",
      slug: "why-small-agencies-win",
      excerpt: "Focus beats size.",
      content: "<h2>Focus</h2><p>One job.</p><ul><li>a</li></ul><blockquote>Small is fast.</blockquote>",
    },
  });
});
afterAll(async () => {
  delete process.env.GEMINI_API_KEY;
  delete process.env.GEMINI_BASE_URL;
  await Promise.all([stack.close(), gemini.close()]);
});

const draft = (v: Visitor) =>
  v.request("/admin/ai/draft", { method: "POST", form: { kind: "post", topic: "small agencies" } });

describe("AI drafts per user (C43)", () => {
  it("allows 20 an hour, refuses the 21st with 429 and a friendly message, and leaves other users alone", async () => {
    expect(AI_DRAFTS_PER_HOUR).toBe(20);
    const ada = new Visitor(stack.site.url);
    const bob = new Visitor(stack.site.url);
    expect((await ada.register("ada-ai@example.com")).status).toBe(302);
    expect((await bob.register("bob-ai@example.com")).status).toBe(302);

    for (let i = 1; i <= 20; i++) {
      const reply = await draft(ada);
      expect(reply.status, `draft ${i}`).toBe(200);
      expect(JSON.parse(reply.text).fields.title).toBe("Why Small Agencies Win");
    }
    expect(gemini.requests).toHaveLength(20);

    const refused = await draft(ada);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("3600");
    expect(JSON.parse(refused.text)).toEqual({
      error: "You have reached the hourly limit of AI drafts; try again later.",
    });
    // The image button shares the allowance.
    const image = await ada.request("/admin/ai/image", {
      method: "POST",
      form: { kind: "post", title: "Small agencies" },
    });
    expect(image.status).toBe(429);
    expect(gemini.requests).toHaveLength(20); // refused calls never reach Gemini

    const other = await draft(bob);
    expect(other.status).toBe(200);
    expect(gemini.requests).toHaveLength(21);
  });

  it("lets only the 11 calls left of 20 reach Gemini when 27 come together (SECURITY C64: atomic)", async () => {
    const cyd = new Visitor(stack.site.url);
    expect((await cyd.register("cyd-ai@example.com")).status).toBe(302);
    for (let i = 0; i < 9; i++) expect((await draft(cyd)).status).toBe(200); // 11 left
    const before = gemini.requests.length;
    const replies = await Promise.all(Array.from({ length: 27 }, () => draft(cyd)));
    expect(replies.filter((r) => r.status === 200).length).toBeLessThanOrEqual(11);
    expect(replies.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(16);
    expect(gemini.requests.length - before).toBeLessThanOrEqual(11);
  });

  it("gives the allowance back an hour after each call (a sliding window)", async () => {
    const start = 1_000_000;
    const log = new MemoryEventLog();
    for (let i = 0; i < 20; i++) expect(await takeAiAllowance("window-user", start + i * 1000, log)).toBe(true);
    expect(await takeAiAllowance("window-user", start + 3_599_999, log)).toBe(false);
    expect(await takeAiAllowance("window-user", start + 3_600_000, log)).toBe(true); // the first call has aged out
    expect(await takeAiAllowance("window-user", start + 3_600_001, log)).toBe(false);
  });
});
