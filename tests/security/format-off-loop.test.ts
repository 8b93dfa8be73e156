/**
 * SECURITY C70 (issue #26 item 4) over real HTTP: Prettier runs off the site's event loop. While one user's 4
 * parallel Format requests of the largest body the bounds accept are formatted (2.8 s of Prettier each on a
 * loaded machine, which on the loop held `/healthz` for as long), `/healthz` keeps answering, and the user gets
 * at most 2 bodies formatted at once (the others: 503 with a message to try again). Counts and order only, no
 * times: figures are in `scripts/bench/stall.ts`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopFormatterThread } from "../../lib/html/format-thread.ts";
import { STALL_BODIES } from "../../scripts/dev/stall-bodies.ts";
import { startSiteStack, Visitor, type Reply, type SiteStack } from "../helpers/site.ts";

let stack: SiteStack;
beforeAll(async () => {
  stack = await startSiteStack();
});
afterAll(async () => {
  await stack?.close();
  await stopFormatterThread();
});

const format = (v: Visitor, html: string) => v.request("/admin/format", { method: "POST", form: { html } });

describe("Format off the event loop (C70)", () => {
  it("keeps answering /healthz while 4 parallel Format requests of one user run, formatting 2 at a time", async () => {
    const ada = new Visitor(stack.site.url);
    expect((await ada.register("format-loop@example.com")).status).toBe(302);
    // What happened, in order: each /healthz answer and each Format answer.
    const events: string[] = [];
    let pending = 4;
    const formats = Array.from({ length: 4 }, async () => {
      const reply = await format(ada, STALL_BODIES.worstAccepted);
      events.push(reply.status === 503 ? "busy" : "formatted");
      pending -= 1;
      return reply;
    });
    while (pending > 0) {
      // A connection the server dropped while its loop was stuck counts as no answer.
      const health = await fetch(`${stack.site.url}/healthz`).catch(() => null);
      await health?.arrayBuffer().catch(() => null);
      if (health?.ok) events.push("health");
    }
    const replies: Reply[] = await Promise.all(formats);

    const done = replies.filter((r) => r.status !== 503);
    expect(done.length).toBeLessThanOrEqual(2);
    for (const r of replies.filter((r) => r.status === 503)) {
      expect(JSON.parse(r.text)).toEqual({ error: "Formatting is busy. Please try again in a moment." });
    }
    // Between the first and the last formatted body, a whole Prettier run happened: on the loop, /healthz
    // could not answer in it; off the loop it answers all along.
    const first = events.indexOf("formatted");
    const last = events.lastIndexOf("formatted");
    expect(first).toBeGreaterThanOrEqual(0);
    expect(events.slice(first, last).filter((e) => e === "health").length).toBeGreaterThanOrEqual(20);
  }, 120_000);

  it("still formats an ordinary body, and names the parse error of a broken one", async () => {
    const bob = new Visitor(stack.site.url);
    expect((await bob.register("format-ok@example.com")).status).toBe(302);
    const ok = await format(bob, "<ul><li><p>a</p></li></ul>");
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text)).toEqual({ html: "<ul>\n  <li>\n    <p>a</p>\n  </li>\n</ul>" });
    const broken = await format(bob, "<p>unclosed <b");
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.text).error).toMatch(/^The HTML could not be formatted: Opening tag "b" not terminated/);
  });
});
