/**
 * Stall figures (SECURITY C53): `/healthz` latency and the site's event-loop delay, first on a quiet site,
 * then while the worst stored bodies (3,000 nested blockquotes, 10,000 nested divs, a 200,000-character body,
 * the largest body the bounds accept) and the 20,000-deep admin preview are requested without pause. The
 * site runs in this process (production build, as `npm start` serves it) so `monitorEventLoopDelay` sees its
 * loop; the emulator runs in a child process. Also: the time of the bound check on a full-size body, and of
 * sanitizing the largest accepted body (DOMPurify on jsdom, what one job of the sanitizer thread costs).
 *
 * The hammering runs on a worker thread of its own (`stall-load.ts`), so the loop measured is the site's,
 * not the load generator's. Targets (exit 1 when missed): under load, event loop max delay < 100 ms and
 * `/healthz` p99 < 100 ms. Sanitizing runs on the sanitizer thread, off the loop: its time is reported, once
 * per distinct body. Then (C70) `connections` loops of one signed-in user pressing Format on the largest accepted
 * body, with the same targets: Prettier runs on the formatter thread, two bodies per user at a time. Figures
 * move with the machine's load: run it quiet.
 *
 * Run: `npx tsx scripts/bench/stall.ts [seconds=10] [connections=4]`
 */
import "./lib/production-env.ts"; // first: React's production build, as under `npm start`
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { ID } from "node-appwrite";
import { createAdminServices } from "../../lib/appwrite/client.ts";
import { applySchema, type AppwriteSchema } from "../../lib/appwrite/setup.ts";
import { checkHtmlBounds } from "../../lib/html/bounds.ts";
import { sanitizeHtml } from "../../lib/html/sanitize.ts";
import { stopSanitizerThread } from "../../lib/html/sanitize-thread.ts";
import { stopFormatterThread } from "../../lib/html/format-thread.ts";
import schema from "../../model/appwrite.json" with { type: "json" };
import { ensureBuild } from "../../server/build.ts";
import { ROOT, startEmulatorProcess } from "../dev/processes.ts";
import { STALL_BODIES, writeAroundProduct } from "../dev/stall-bodies.ts";
import { Visitor } from "../dev/visitor.ts";
import { hammerOnThread, STALL_ACCOUNT } from "./lib/stall-load.ts";
import { startSite } from "../../server/serve-site.ts";

const TARGET_MS = 100;
const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 4);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
const line = (label: string, figure: string) => console.log(`  ${label.padEnd(48)} ${figure}`);

interface Phase {
  healthP50: number;
  healthP99: number;
  healthMax: number;
  polls: number;
  loopMax: number;
  loopP99: number;
  requests: number;
}

/** Polls /healthz (one at a time, 10 ms apart) for `ms` while `load` runs; measures the event loop. */
async function phase(url: string, ms: number, load: (until: number) => Promise<number>): Promise<Phase> {
  const until = performance.now() + ms;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const health: number[] = [];
  const poll = (async () => {
    while (performance.now() < until) {
      const started = performance.now();
      await (await fetch(`${url}/healthz`)).arrayBuffer();
      health.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const [requests] = await Promise.all([load(until), poll]);
  delay.disable();
  const sorted = health.sort((a, b) => a - b);
  return {
    healthP50: percentile(sorted, 0.5),
    healthP99: percentile(sorted, 0.99),
    healthMax: sorted.at(-1) ?? NaN,
    polls: sorted.length,
    loopMax: delay.max / 1e6,
    loopP99: delay.percentile(99) / 1e6,
    requests,
  };
}

async function main(): Promise<void> {
  await ensureBuild(ROOT, { quiet: true });
  const dataDir = await mkdtemp(path.join(tmpdir(), "stall-"));
  const emulator = await startEmulatorProcess(dataDir);
  const services = createAdminServices(emulator);
  await applySchema(services, schema as AppwriteSchema);

  // Written straight through REST with the API key, around the product's checks.
  await writeAroundProduct(services.tablesDB, "venture", "stall-blockquotes", STALL_BODIES.blockquotes);
  await writeAroundProduct(services.tablesDB, "venture", "stall-divs", STALL_BODIES.divs);
  await writeAroundProduct(services.tablesDB, "post", "stall-full", STALL_BODIES.full);
  await writeAroundProduct(services.tablesDB, "post", "stall-worst-accepted", STALL_BODIES.worstAccepted);
  await services.users.create({
    userId: ID.unique(),
    email: STALL_ACCOUNT.email,
    password: STALL_ACCOUNT.password,
    name: "S",
  });

  process.env.APPWRITE_ENDPOINT = emulator.endpoint;
  process.env.APPWRITE_PROJECT_ID = emulator.projectId;
  process.env.APPWRITE_API_KEY = emulator.apiKey;
  const site = await startSite({ root: ROOT, port: 0 });
  const admin = new Visitor(site.url);
  await admin.login(STALL_ACCOUNT.email, STALL_ACCOUNT.password);
  const misses: string[] = [];
  let formatStatuses: Record<number, number> = {};
  try {
    console.log(
      `Stall figures (C53): ${seconds} s per phase, ${connections} connections hammering, site in this process`,
    );
    const pages: string[] = [
      "/en/ventures/stall-blockquotes",
      "/ar/ventures/stall-divs",
      "/en/blog/stall-full",
      "/ar/blog/stall-worst-accepted",
    ];
    // Warm-up: the sanitizer thread's start and each page's first render (V8 compiling the paths it takes,
    // each body's one-off fallback or sanitize) are not what is measured; every later request is.
    for (const page of pages) {
      await admin.request(page);
      await new Visitor(site.url).request(page);
    }
    await new Visitor(site.url).request("/en");

    const quiet = await phase(site.url, seconds * 1000, async () => 0);

    const loaded = await phase(site.url, seconds * 1000, async (until) => {
      const done = await hammerOnThread({ url: site.url, pages, connections, ms: until - performance.now() });
      return done.requests;
    });

    const formatting = await phase(site.url, seconds * 1000, async (until) => {
      const done = await hammerOnThread({
        url: site.url,
        pages,
        connections,
        ms: until - performance.now(),
        format: true,
      });
      formatStatuses = done.statuses;
      return done.requests;
    });

    for (const [name, p] of [
      ["quiet (baseline)", quiet],
      ["hammering the worst bodies", loaded],
      [`${connections} Format loops of one user, largest accepted body (C70)`, formatting],
    ] as const) {
      console.log(
        `\n  ${name}${p.requests ? `: ${p.requests} requests (${(p.requests / seconds).toFixed(1)}/s)` : ""}`,
      );
      line(
        "/healthz p50 / p99 / max",
        `${p.healthP50.toFixed(1)} / ${p.healthP99.toFixed(1)} / ${p.healthMax.toFixed(1)} ms (${p.polls} polls)`,
      );
      line("event loop delay p99 / max", `${p.loopP99.toFixed(1)} / ${p.loopMax.toFixed(1)} ms`);
    }
    line("Format answers by status", JSON.stringify(formatStatuses));
    console.log("");
    line("/healthz p99 loaded vs quiet", `×${(loaded.healthP99 / quiet.healthP99).toFixed(1)}`);
    if (loaded.loopMax >= TARGET_MS)
      misses.push(`event loop max delay ${loaded.loopMax.toFixed(1)} ms ≥ ${TARGET_MS} ms`);
    if (loaded.healthP99 >= TARGET_MS) misses.push(`/healthz p99 ${loaded.healthP99.toFixed(1)} ms ≥ ${TARGET_MS} ms`);
    if (formatting.loopMax >= TARGET_MS)
      misses.push(`event loop max delay while formatting ${formatting.loopMax.toFixed(1)} ms ≥ ${TARGET_MS} ms`);
    if (formatting.healthP99 >= TARGET_MS)
      misses.push(`/healthz p99 while formatting ${formatting.healthP99.toFixed(1)} ms ≥ ${TARGET_MS} ms`);

    const time = (f: () => unknown, runs: number) =>
      median(
        Array.from({ length: runs }, () => {
          const started = performance.now();
          f();
          return performance.now() - started;
        }),
      );
    const boundsFull = time(() => checkHtmlBounds(STALL_BODIES.worstAccepted), 10);
    const boundsDeep = time(() => checkHtmlBounds(STALL_BODIES.divs), 10);
    sanitizeHtml("<p>warm</p>");
    const sanitizeWorst = time(() => sanitizeHtml(STALL_BODIES.worstAccepted), 5);
    // Off the event loop: what one job of the sanitizer thread costs, once per distinct body (then cached).
    line("bound check, largest accepted body (median)", `${boundsFull.toFixed(1)} ms`);
    line("bound check, 10,000 nested divs (median)", `${boundsDeep.toFixed(1)} ms`);
    line("sanitize largest accepted body, off the loop (median)", `${sanitizeWorst.toFixed(1)} ms (once per body)`);
  } finally {
    await site.close();
    await stopSanitizerThread();
    await stopFormatterThread();
    await emulator.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  if (misses.length > 0) {
    console.log(`\n  MISSED: ${misses.join("; ")}`);
    process.exitCode = 1;
  } else console.log("\n  all targets met");
}

await main();
