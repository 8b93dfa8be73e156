/**
 * Benchmark of a re-push with nothing changed (issue #33 item 5: "re-push of 1,000 unchanged items < 1 s"),
 * beside the raw SDK loop that lists the same rows page by page (`listRows`, 100 a page, cursor pagination):
 * the least any re-push must do to know what Appwrite holds. N generated posts are pushed once into a fresh
 * embedded server in its own process; then re-push and the raw list loop alternate, best of each. The load
 * (`os.loadavg()`) is printed: on a shared machine only the ratio measured in the same run means anything.
 *
 * Run: `npx tsx scripts/bench/repush-bench.ts [N=1000] [rounds=5] [ar]`
 * Profile the client: `node --cpu-prof --import tsx scripts/bench/repush-bench.ts 1000 3`; the re-pushes alone:
 * `REPUSH_PROF=<file.cpuprofile>` (node:inspector, started after the first push).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { Query } from "node-appwrite";
import { createAdminServices } from "../../lib/appwrite/client.ts";
import { applySchema, type AppwriteSchema } from "../../lib/appwrite/setup.ts";
import { push } from "../../lib/publish/push.ts";
import schema from "../../model/appwrite.json" with { type: "json" };
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { startChild } from "./lib/emulator-child.ts";
import { writePostFiles } from "./lib/generate-posts.ts";

const count = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 5);
/** `ar`: each post also has its Arabic version (2 rows a post, issue #33 item 6). */
const arabic = process.argv[4] === "ar";
const items = arabic ? count * 2 : count;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return (performance.now() - start) / 1000;
}

async function main(): Promise<void> {
  const contentDir = await mkdtemp(path.join(tmpdir(), "repush-bench-content-"));
  const dataDir = await mkdtemp(path.join(tmpdir(), "repush-bench-"));
  await writePostFiles(contentDir, count, arabic);
  const lockPath = path.join(contentDir, "studio-lock.json");
  const { child, target } = await startChild(dataDir);
  try {
    const services = createAdminServices(target);
    await applySchema(services, schema as AppwriteSchema);
    const firstStart = performance.now();
    const first = await push(services, { contentDir, lockPath });
    const firstSeconds = (performance.now() - firstStart) / 1000;
    if (first.created !== items) throw new Error(`expected ${items} created, got ${first.created}`);
    console.log(
      `re-push benchmark: ${items} items pushed in ${firstSeconds.toFixed(1)} s (peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}); ${rounds} rounds`,
    );

    const rawList = async () => {
      let cursor: string | undefined;
      let seen = 0;
      for (;;) {
        const page = await services.tablesDB.listRows({
          databaseId: DATABASE_ID,
          tableId: CONTENT_MODEL.post.collectionId,
          queries: [Query.limit(100), ...(cursor ? [Query.cursorAfter(cursor)] : [])],
          total: false,
        });
        seen += page.rows.length;
        if (page.rows.length < 100) break;
        cursor = page.rows.at(-1)!.$id;
      }
      if (seen !== items) throw new Error(`listed ${seen}, expected ${items}`);
    };
    const rePush = async () => {
      const result = await push(services, { contentDir, lockPath });
      if (result.unchanged !== items) throw new Error(`expected ${items} unchanged, got ${JSON.stringify(result)}`);
    };
    const raw: number[] = [];
    const again: number[] = [];
    const profile = process.env["REPUSH_PROF"];
    const session = profile ? new Session() : null;
    if (session) {
      session.connect();
      await session.post("Profiler.enable");
      await session.post("Profiler.start");
    }
    for (let round = 0; round < rounds; round++) {
      raw.push(await timed(rawList));
      again.push(await timed(rePush));
    }
    if (session) {
      const { profile: taken } = await session.post("Profiler.stop");
      await writeFile(profile!, JSON.stringify(taken));
      session.disconnect();
    }
    const rawBest = Math.min(...raw);
    const best = Math.min(...again);
    console.log(
      `rounds: raw list ${raw.map((t) => t.toFixed(3)).join(", ")} s; re-push ${again.map((t) => t.toFixed(3)).join(", ")} s`,
    );
    console.log(`raw SDK listRows loop (100 a page): ${rawBest.toFixed(3)} s`);
    console.log(
      `re-push, nothing changed:          ${best.toFixed(3)} s  (${(best / rawBest).toFixed(1)}× the raw list; target < 1 s for 1,000)`,
    );
    console.log(`peak RSS of this process (push, no site): ${mb(process.resourceUsage().maxRSS * 1024)}`);
    console.log(
      `load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" / ")} (1, 5, 15 min; 2 cores)`,
    );
    if (count <= 1000 && best >= 1) process.exitCode = 1;
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    await rm(dataDir, { recursive: true, force: true });
    await rm(contentDir, { recursive: true, force: true });
  }
}

await main();
