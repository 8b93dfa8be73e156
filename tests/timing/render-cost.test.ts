/**
 * SECURITY C53: no stored content can stall the process. The worst bodies (3,000 nested blockquotes, 10,000
 * nested divs, a 200,000-character body, the largest body the bounds accept) are written straight through
 * REST with the API key (around the product), their pages and the admin's preview are requested repeatedly
 * while `/healthz` is polled, and the site's event loop (in this process) is watched with
 * `monitorEventLoopDelay`. Write paths (the admin form) refuse over-bound bodies with a localized message; the
 * pages show them as escaped text. Figures on a quiet machine: `npx tsx scripts/bench/stall.ts`.
 *
 * The thresholds are generous (a loaded CI machine adds its own pauses): before C53 the same run blocked the
 * loop for 1.7 s (blockquotes) to 76 s (preview), so it still fails by a wide margin on the old code.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { ID } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HTML_BOUNDS } from "../../lib/html/bounds.ts";
import { LIMITS } from "../../model/limits.ts";
import { createAdminServices, type AdminServices } from "../../lib/appwrite/client.ts";
import { applySchema, type AppwriteSchema } from "../../lib/appwrite/setup.ts";
import { stopSanitizerThread } from "../../lib/html/sanitize-thread.ts";
import schema from "../../model/appwrite.json" with { type: "json" };
import { startEmulatorProcess, type EmulatorProcess } from "../../scripts/dev/processes.ts";
import { hammerOnThread } from "../../scripts/bench/lib/stall-load.ts";
import { STALL_BODIES, writeAroundProduct } from "../../scripts/dev/stall-bodies.ts";
import { startSite, type RunningSite } from "../../server/serve-site.ts";
import { ROOT } from "../helpers/fixtures.ts";
import { Visitor } from "../helpers/site.ts";

/**
 * Longest the event loop may be blocked, and the p99 of /healthz, in ms. The target is 100 (checked on a quiet
 * machine by `scripts/bench/stall.ts`, or here with `C53_MAX_BLOCKED_MS=100`); the default leaves room for a
 * loaded CI machine, whose scheduler alone pauses a process for hundreds of milliseconds.
 */
const MAX_BLOCKED_MS = Number(process.env.C53_MAX_BLOCKED_MS ?? 500);
/**
 * `/healthz` p99, in ms: twice that, since each poll also makes a round trip to the emulator (`/health/version`),
 * a process that serves the same 200,000-character documents meanwhile on the same two cores.
 */
const MAX_HEALTH_P99_MS = Number(process.env.C53_MAX_HEALTH_P99_MS ?? 2 * MAX_BLOCKED_MS);

const BODIES = STALL_BODIES;

// The emulator runs in a child process (as on its own thread under `npm start`): only the site's work is
// on this event loop.
let dataDir: string;
let emulator: EmulatorProcess;
let services: AdminServices;
let site: RunningSite;
let ada: Visitor;
const PASSWORD = "correct horse battery";

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "render-cost-"));
  emulator = await startEmulatorProcess(dataDir);
  services = createAdminServices(emulator);
  await applySchema(services, schema as AppwriteSchema);
  for (const body of [BODIES.blockquotes, BODIES.divs, BODIES.full, BODIES.worstAccepted]) {
    expect(body.length).toBeLessThanOrEqual(LIMITS.html);
  }
  await writeAroundProduct(services.tablesDB, "venture", "c53-blockquotes", BODIES.blockquotes);
  await writeAroundProduct(services.tablesDB, "venture", "c53-divs", BODIES.divs);
  await writeAroundProduct(services.tablesDB, "post", "c53-full", BODIES.full);
  await writeAroundProduct(services.tablesDB, "post", "c53-worst-accepted", BODIES.worstAccepted);
  await services.users.create({ userId: ID.unique(), email: "c53@example.com", password: PASSWORD, name: "C" });
  process.env.APPWRITE_ENDPOINT = emulator.endpoint;
  process.env.APPWRITE_PROJECT_ID = emulator.projectId;
  process.env.APPWRITE_API_KEY = emulator.apiKey;
  site = await startSite({ root: ROOT, port: 0 });
  ada = new Visitor(site.url);
  expect((await ada.login("c53@example.com", PASSWORD)).status).toBe(302);
}, 180_000);
afterAll(async () => {
  await site?.close();
  await stopSanitizerThread();
  await emulator?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const ventureForm = (caseStudy: string) => ({
  name: "Deep",
  slug: "c53-admin",
  websiteURL: "https://example.com",
  shortDescription: "Short.",
  caseStudy,
});

describe("write paths refuse over-bound bodies (C53)", () => {
  it("refuses 3,000 nested blockquotes in the admin form, in English and Arabic, writing nothing", async () => {
    const en = await ada.request("/admin/ventures/new", { method: "POST", form: ventureForm(BODIES.blockquotes) });
    expect(en.status).toBe(400);
    expect(en.text).toContain(`The HTML is nested too deeply: at most ${HTML_BOUNDS.depth} levels.`);
    const ar = await ada.request("/admin/ventures/new", {
      method: "POST",
      headers: { "Accept-Language": "ar" },
      form: ventureForm(BODIES.blockquotes),
    });
    expect(ar.status).toBe(400);
    expect(ar.text).toContain(`متداخلة بعمق زائد: الحد الأقصى ${HTML_BOUNDS.depth} مستوى`);
    expect((await ada.request("/en/ventures/c53-admin")).status).toBe(404);
  });

  it("refuses an over-bound preview with 400 and a message, and previews an accepted body", async () => {
    const deep = await ada.request("/admin/preview-html", { method: "POST", form: { html: BODIES.preview } });
    expect(deep.status).toBe(400);
    expect(JSON.parse(deep.text)).toEqual({
      error: `The text is too long: at most ${LIMITS.html.toString()} characters.`,
    });
    const quotes = await ada.request("/admin/preview-html", { method: "POST", form: { html: BODIES.blockquotes } });
    expect(JSON.parse(quotes.text).error).toContain("nested too deeply");
    const ok = await ada.request("/admin/preview-html", { method: "POST", form: { html: "<p onclick=x>hi</p>" } });
    expect(JSON.parse(ok.text)).toEqual({ html: "<p>hi</p>" });
  });
});

describe("over-bound bodies written around the product render safely (C53)", () => {
  it.each([["/en/ventures/c53-blockquotes"], ["/en/ventures/c53-divs"], ["/ar/blog/c53-full"]])(
    "shows %s as escaped text, without the payload's markup",
    async (page) => {
      const reply = await new Visitor(site.url).request(page);
      expect(reply.status).toBe(200);
      expect(reply.text).toContain("<p>Deep text</p>");
      expect(reply.text).not.toContain("alert(1)");
      expect(reply.text).not.toContain("onerror");
    },
  );

  it("renders the largest accepted body sanitized", async () => {
    const reply = await ada.request("/en/blog/c53-worst-accepted");
    expect(reply.status).toBe(200);
    expect(reply.text).toContain("<blockquote><blockquote>");
    expect(reply.text).toContain("<em>deep</em>");
    expect(reply.text).not.toContain("<span>s</span>");
  });
});

/**
 * One measurement: for 4 s the worst pages and previews are requested by 3 connections from a worker thread
 * (so parsing the answers does not run on the loop measured), while `/healthz` is polled from this thread.
 */
async function measure(): Promise<{
  maxBlockedMs: number;
  p99: number;
  statuses: Record<number, number>;
  polls: number;
}> {
  const pages = [
    "/en/ventures/c53-blockquotes",
    "/ar/ventures/c53-divs",
    "/en/blog/c53-full",
    "/ar/blog/c53-worst-accepted",
  ];
  const health: number[] = [];
  let done = false;
  const poll = (async () => {
    while (!done) {
      const started = performance.now();
      await (await fetch(`${site.url}/healthz`)).arrayBuffer();
      health.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const load = await hammerOnThread({
    url: site.url,
    pages,
    connections: 3,
    ms: 4000,
    account: { email: "c53@example.com", password: PASSWORD },
  });
  delay.disable();
  done = true;
  await poll;
  const sorted = [...health].sort((a, b) => a - b);
  const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!;
  return { maxBlockedMs: delay.max / 1e6, p99, statuses: load.statuses, polls: sorted.length };
}

describe("no request stalls the event loop (C53)", () => {
  it(`keeps the loop's longest block under ${MAX_BLOCKED_MS} ms and /healthz p99 under ${MAX_HEALTH_P99_MS} ms while the worst bodies are requested`, async () => {
    // A real stall repeats; a pause of a loaded machine's scheduler does not: a second measurement may clear
    // the first (before C53 both took seconds).
    let result = await measure();
    console.log(
      `C53: event loop max delay ${result.maxBlockedMs.toFixed(1)} ms, /healthz p99 ${result.p99.toFixed(1)} ms over ${result.polls} polls`,
    );
    if (result.maxBlockedMs >= MAX_BLOCKED_MS || result.p99 >= MAX_HEALTH_P99_MS) {
      result = await measure();
      console.log(
        `C53 (again): event loop max delay ${result.maxBlockedMs.toFixed(1)} ms, /healthz p99 ${result.p99.toFixed(1)} ms`,
      );
    }
    expect(Object.keys(result.statuses).every((s) => s === "200" || s === "400")).toBe(true);
    expect(result.polls).toBeGreaterThan(5);
    expect(result.maxBlockedMs).toBeLessThan(MAX_BLOCKED_MS);
    expect(result.p99).toBeLessThan(MAX_HEALTH_P99_MS);
  }, 300_000);
});
