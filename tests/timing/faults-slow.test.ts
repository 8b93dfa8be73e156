/**
 * SECURITY C51: with an Appwrite that accepts connections but never answers, public pages answer 503 within
 * the upstream timeout (3 s) + 1 s, without unhandled rejections, and /healthz stays fast under 20 slow
 * requests at once.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSite, type RunningSite } from "../../server/serve-site.ts";
import { ROOT } from "../helpers/fixtures.ts";

let hanging: Server;
let site: RunningSite;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  hanging = createServer(() => {}); // never answers
  await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
  process.env.APPWRITE_ENDPOINT = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/v1`;
  process.env.APPWRITE_PROJECT_ID = "slow";
  process.env.APPWRITE_API_KEY = "slow-key";
  site = await startSite({ root: ROOT, port: 0 });
  process.on("unhandledRejection", onUnhandled);
});
afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  await site.close();
  hanging.closeAllConnections();
  await new Promise((resolve) => hanging.close(resolve));
});

describe("Appwrite slow (C51)", () => {
  it("answers 503 within 4 s, and /healthz stays fast while 20 slow requests are in flight", async () => {
    const started = performance.now();
    const slow = Array.from({ length: 20 }, () => fetch(`${site.url}/en`).then((r) => r.status));
    const healthStarted = performance.now();
    const health = await fetch(`${site.url}/healthz`);
    const healthMs = performance.now() - healthStarted;
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok", appwrite: "down" });
    expect(healthMs).toBeLessThan(2000);

    expect(await Promise.all(slow)).toEqual(Array(20).fill(503));
    expect(performance.now() - started).toBeLessThan(4000 + 1000);
    expect(unhandled).toEqual([]);
  });
});
