/**
 * Two site processes on one embedded server (issue #18 item 4; README "Running several site processes"):
 * how long a `studio push` takes to show on both (their page caches on), over `rounds` pushes, and whether the
 * visitor-form limit holds across them (posts alternating between the two: how many of 12 are stored).
 *
 *   npx tsx scripts/bench/two-sites.ts [rounds=10]
 *
 * Targets: every push visible on both within 2,000 ms; 5 of 12 form posts allowed (the per-IP minute limit).
 * Exits 1 when a target is missed. Needs the production build (`npm run build` or `npm start` once).
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAdminServices } from "../../lib/appwrite/client.ts";
import { applySchema, type AppwriteSchema } from "../../lib/appwrite/setup.ts";
import { push } from "../../lib/publish/push.ts";
import schema from "../../model/appwrite.json" with { type: "json" };
import { ROOT, startEmulatorProcess, startSiteProcess } from "../dev/processes.ts";
import { Visitor } from "../dev/visitor.ts";

const rounds = Number(process.argv[2] ?? 10);
const VISIBLE_MS = 2000;

const dataDir = await mkdtemp(path.join(tmpdir(), "bench-two-sites-"));
const contentDir = await mkdtemp(path.join(tmpdir(), "bench-two-sites-content-"));
await cp(path.join(ROOT, "content"), contentDir, { recursive: true });
const emulator = await startEmulatorProcess(dataDir);
const services = createAdminServices(emulator);
await applySchema(services, schema as AppwriteSchema);
const lockPath = path.join(contentDir, ".lock.json");
await push(services, { contentDir, lockPath });
const sites = await Promise.all([startSiteProcess(emulator), startSiteProcess(emulator)]);

/** ms from now until every site's `pathname` contains `text` (polling every 20 ms), or Infinity past 10 s. */
async function visibleOnAll(pathname: string, text: string): Promise<number> {
  const started = performance.now();
  const pending = new Set(sites);
  while (pending.size && performance.now() - started < 10_000) {
    for (const site of [...pending]) {
      if ((await (await fetch(site.url + pathname)).text()).includes(text)) pending.delete(site);
    }
    if (pending.size) await new Promise((r) => setTimeout(r, 20));
  }
  return pending.size ? Infinity : performance.now() - started;
}

try {
  const file = path.join(contentDir, "ventures", "clinic-ledger.md");
  const original = await readFile(file, "utf8");
  const times: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const site of sites) await fetch(site.url + "/en/ventures"); // cached on both
    const name = `Clinic Ledger ${round}`;
    await writeFile(file, original.replace(/^name: .*$/m, `name: ${name}`));
    await push(services, { contentDir, lockPath });
    times.push(await visibleOnAll("/en/ventures", name));
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const worst = times[times.length - 1]!;
  console.log(
    `push visible on both sites (${rounds} pushes): median ${median.toFixed(0)} ms, worst ${worst.toFixed(0)} ms (target ≤ ${VISIBLE_MS} ms)`,
  );

  let allowed = 0;
  for (let i = 0; i < 12; i++) {
    const reply = await new Visitor(sites[i % 2]!.url).request("/en/contact", {
      method: "POST",
      form: { name: "Bench", email: "bench@example.com", message: `Post ${i}` },
    });
    if (reply.status === 200) allowed++;
  }
  console.log(
    `form posts alternating between the two sites: ${allowed} of 12 allowed (target 5, the per-IP minute limit)`,
  );
  if (worst > VISIBLE_MS || allowed !== 5) process.exitCode = 1;
} finally {
  await Promise.all(sites.map((s) => s.stop()));
  await emulator.stop();
  await Promise.all([rm(dataDir, { recursive: true, force: true }), rm(contentDir, { recursive: true, force: true })]);
}
