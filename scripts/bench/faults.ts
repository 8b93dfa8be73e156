/**
 * Fault figures (issue #9): what the site answers, and how fast, when its dependencies fail. The emulator
 * and the site run in child processes on loopback (production build; `npm run build` first if `build/` is
 * missing or stale); the figures are printed, not asserted (the tests in `tests/security/faults*.test.ts`,
 * `tests/integration/ai.test.ts` and `tests/integration/emulator/durability.test.ts` assert them).
 *
 *   1. Appwrite down (emulator killed): status and time of `/en`, `/healthz`; recovery without a restart.
 *   2. Appwrite slow (a proxy that holds every request 10 s): status and time of `/en`, alone and with 20 at
 *      once, and `/healthz` meanwhile.
 *   3. Gemini hanging, and Gemini answering 429: status and time of the admin's AI draft route, and how many
 *      calls reached Gemini.
 *   4. The emulator killed with SIGKILL during a burst of writes: `PRAGMA integrity_check` and the number of
 *      acknowledged writes lost.
 *
 * Run: `npx tsx scripts/bench/faults.ts`
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { ID } from "node-appwrite";
import { createAdminServices } from "../../lib/appwrite/client.ts";
import { applySchema, type AppwriteSchema } from "../../lib/appwrite/setup.ts";
import { push } from "../../lib/publish/push.ts";
import schema from "../../model/appwrite.json" with { type: "json" };
import { ensureBuild } from "../../server/build.ts";
import { killDuringWrites } from "../dev/durability.ts";
import { startFakeGemini } from "../dev/fake-gemini.ts";
import { ROOT, startEmulatorProcess, startSiteProcess } from "../dev/processes.ts";
import { Visitor } from "../dev/visitor.ts";

/** The AI budget the figures use (`GEMINI_TIMEOUT_MS`; the product default is 20 s). */
const GEMINI_TIMEOUT_MS = 5000;
/** How long the slow proxy holds each request. */
const SLOW_MS = 10_000;

interface Timed {
  status: number;
  ms: number;
  text: string;
}

async function timed(url: string, init?: RequestInit): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(url, { redirect: "manual", ...init });
  const text = await response.text();
  return { status: response.status, ms: performance.now() - started, text };
}

const line = (label: string, figure: string) => console.log(`  ${label.padEnd(44)} ${figure}`);
const fmt = (t: Pick<Timed, "status" | "ms">) => `${t.status} in ${Math.round(t.ms)} ms`;

/** An HTTP proxy to `target` that holds every request `delayMs` before forwarding it. */
async function startSlowProxy(target: string, delayMs: number): Promise<{ endpoint: string; server: Server }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const timer = setTimeout(() => {
      const forward = request(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => res.destroy());
      req.pipe(forward);
    }, delayMs);
    res.on("close", () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}

async function main(): Promise<void> {
  await ensureBuild(ROOT, { quiet: true });
  const dataDir = await mkdtemp(path.join(tmpdir(), "faults-"));
  const killDir = await mkdtemp(path.join(tmpdir(), "faults-kill-"));
  let emulator = await startEmulatorProcess(dataDir);
  const port = Number(new URL(emulator.endpoint).port);
  const services = createAdminServices(emulator);
  await applySchema(services, schema as AppwriteSchema);
  await push(services, { contentDir: path.join(ROOT, "content") });
  const email = "faults@example.com";
  await services.users.create({ userId: ID.unique(), email, password: "correct horse battery" });

  const gemini = await startFakeGemini();
  const site = await startSiteProcess(emulator, {
    GEMINI_API_KEY: "fake-key",
    GEMINI_BASE_URL: gemini.baseUrl,
    GEMINI_TIMEOUT_MS: String(GEMINI_TIMEOUT_MS),
  });
  const proxy = await startSlowProxy(emulator.endpoint, SLOW_MS);
  const slowSite = await startSiteProcess({ ...emulator, endpoint: proxy.endpoint });
  try {
    console.log(`Fault figures (site and emulator in child processes, loopback; ${new Date().toISOString()})`);

    console.log("\n1. Appwrite down (emulator killed with SIGKILL), site not restarted");
    line("/en with Appwrite up", fmt(await timed(`${site.url}/en`)));
    await emulator.stop("SIGKILL");
    for (const page of ["/en", "/ar/blog"]) {
      const down = await timed(site.url + page);
      const errorPage = /An error occurred|حدث خطأ/.test(down.text) ? "error page" : "NO error page";
      line(`${page} with Appwrite down`, `${fmt(down)} (${errorPage})`);
    }
    const health = await timed(`${site.url}/healthz`);
    line("/healthz with Appwrite down", `${fmt(health)} ${health.text}`);
    const restartedAt = performance.now();
    emulator = await startEmulatorProcess(dataDir, port);
    const back = await timed(`${site.url}/en`);
    line(
      "/en right after Appwrite restarts",
      `${fmt(back)} (${Math.round(performance.now() - restartedAt)} ms after restart began)`,
    );

    console.log(`\n2. Appwrite slow (a proxy holds every request ${SLOW_MS / 1000} s)`);
    line("/en alone", fmt(await timed(`${slowSite.url}/en`)));
    const started = performance.now();
    const many = Array.from({ length: 20 }, () => timed(`${slowSite.url}/en`));
    const healthUnderLoad = await timed(`${slowSite.url}/healthz`);
    const answers = await Promise.all(many);
    const statuses = [...new Set(answers.map((a) => a.status))].join(", ");
    line("20 × /en at once", `statuses ${statuses}; all answered in ${Math.round(performance.now() - started)} ms`);
    line("/healthz while those 20 wait", fmt(healthUnderLoad));

    console.log(`\n3. Gemini failing (AI draft route, GEMINI_TIMEOUT_MS=${GEMINI_TIMEOUT_MS})`);
    const admin = new Visitor(site.url);
    if ((await admin.login(email)).status !== 302) throw new Error("could not sign in to the site");
    for (const [label, reply] of [
      ["Gemini hangs", { hang: true as const }],
      ["Gemini answers 429", { status: 429, error: "Resource exhausted" }],
    ] as const) {
      gemini.script(reply);
      gemini.requests.length = 0;
      const t0 = performance.now();
      const draft = await admin.request("/admin/ai/draft", { method: "POST", form: { kind: "post", topic: "faults" } });
      const ms = performance.now() - t0;
      const error = (JSON.parse(draft.text) as { error?: string }).error ?? "";
      line(label, `${fmt({ status: draft.status, ms })}, ${gemini.requests.length} call(s) to Gemini: "${error}"`);
    }

    console.log("\n4. Emulator killed with SIGKILL after 300 acknowledged writes (16 writers)");
    const kill = await killDuringWrites(killDir);
    line("acknowledged writes", String(kill.acknowledged));
    line("acknowledged writes lost after restart", String(kill.lost.length));
    line("PRAGMA integrity_check after kill / restart", `${kill.integrityAfterKill} / ${kill.integrityAfterRestart}`);
  } finally {
    await Promise.all([site.stop(), slowSite.stop()]);
    proxy.server.closeAllConnections();
    await new Promise((resolve) => proxy.server.close(resolve));
    await gemini.close();
    await emulator.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(killDir, { recursive: true, force: true });
  }
}

await main();
