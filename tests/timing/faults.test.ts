/**
 * SECURITY C50: with Appwrite down, public pages answer 503 with the error page within 2 s, the site process
 * stays up, and it serves again without a restart once Appwrite is back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../embedded-appwrite/server.ts";
import { EMBEDDED_SESSION_SECONDS } from "../../embedded-appwrite/embedded.ts";
import { startSiteStack, type SiteStack } from "../helpers/site.ts";

let stack: SiteStack;
beforeAll(async () => {
  stack = await startSiteStack();
});
afterAll(async () => stack.close());

describe("Appwrite down (C50)", () => {
  it("answers 503 quickly, keeps running, reports it on /healthz, and recovers when Appwrite returns", async () => {
    expect((await fetch(`${stack.site.url}/en`)).status).toBe(200);
    const port = Number(new URL(stack.backend.emulator.endpoint).port);
    await stack.backend.emulator.close();

    for (const path of ["/en", "/ar/blog", "/en/ventures/clinic-ledger", "/sitemap.xml"]) {
      const started = performance.now();
      const reply = await fetch(stack.site.url + path);
      expect(reply.status, path).toBe(503);
      expect(performance.now() - started, path).toBeLessThan(2000);
      const html = await reply.text();
      if (path !== "/sitemap.xml") {
        expect(html).toContain(
          path.startsWith("/ar") ? "حدث خطأ. يرجى المحاولة لاحقًا." : "An error occurred. Please try again later.",
        );
        expect(html).not.toMatch(/at \w+ \(|\/work\/|node_modules|127\.0\.0\.1:\d+\/v1|standard_/); // no stack, path, endpoint or key (C28)
      }
    }
    const health = await fetch(`${stack.site.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok", appwrite: "down" });

    const restarted = await startEmulator({
      dataDir: stack.backend.dataDir,
      port,
      sessionDuration: EMBEDDED_SESSION_SECONDS,
    });
    stack.backend.emulator = restarted;
    expect((await fetch(`${stack.site.url}/en`)).status).toBe(200);
    expect(await (await fetch(`${stack.site.url}/healthz`)).json()).toEqual({ status: "ok", appwrite: "up" });
  });
});
