/**
 * The site with 10,000 posts (issue #18 item 3). The embedded server in its own process, `content/` pushed,
 * the site (production build, page cache off: every request renders) in this one; first the figures with the
 * fixture's posts, then N generated posts are added, by `studio push` of N files (timed, and the unchanged
 * re-push timed: target < 10 s) or with `bulk` by TablesDB `createRows`, 100 rows a request. Then:
 * `/en/blog` HTML size (target ≤ 150 kB) and p50 render (target < 100 ms), a deep page, a post page's p50
 * beside its p50 with the fixture's posts (target ratio ≤ 1.5), the sitemap index and its first part, RSS.
 * Prints each figure beside its target; exits 1 when one is missed. Not a test: figures for the issue's table.
 *
 * With `ar` (issue #33 item 6), each generated post also gets its Arabic version (`x.ar.md`, 2 rows a post), the
 * push prints its progress, the last list page is measured beside the first, and this process's resident memory
 * (push and site share it) is printed after the push and at its peak. Item 6's run: `scale.ts 100000 push 40 ar`
 * (targets: list pages p50 < 100 ms with the cache off, re-push < 30 s, memory < 1 GB).
 *
 * Run: `npx tsx scripts/bench/scale.ts [posts=10000] [push|bulk=push] [requests=40] [ar]` (after `npm run build`).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAdminServices, type AdminServices } from "../../lib/appwrite/client.ts";
import { applySchema, type AppwriteSchema } from "../../lib/appwrite/setup.ts";
import { push } from "../../lib/publish/push.ts";
import schema from "../../model/appwrite.json" with { type: "json" };
import { startSite } from "../../server/serve-site.ts";
import { generatePosts, seedPosts } from "./lib/seed-posts.ts";
import { startChild, type Target } from "./lib/emulator-child.ts";
import { ROOT } from "./lib/site.ts";

const count = Number(process.argv[2] ?? 10_000);
const mode = process.argv[3] === "bulk" ? "bulk" : "push";
const requests = Number(process.argv[4] ?? 40);
const arabic = process.argv[5] === "ar";
/** Issue #18 item 3: < 10 s for 10,000; issue #33 item 6: < 30 s for 100,000 (200,000 rows with `ar`). */
const REPUSH_TARGET_S = count >= 100_000 ? 30 : 10;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
/** The newest generated post's date: in the past, so every post is published, not scheduled (decision 0009). */
const PAST = new Date("2025-12-31T00:00:00Z");

/** Starts the embedded server (`embedded-appwrite/main.ts`) in a child process; resolves to its services and a stop. */
async function startEmulator(): Promise<{
  services: AdminServices;
  target: Target;
  stop(): Promise<void>;
}> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "scale-bench-"));
  const { child, target } = await startChild(dataDir);
  const stop = async () => {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    await rm(dataDir, { recursive: true, force: true });
  };
  const services = createAdminServices(target);
  await applySchema(services, schema as AppwriteSchema);
  return { services, target, stop };
}

/** Writes `n` post files (`posts/scale-<i>.md`) with distinct published dates, newest first. */
async function generateFiles(dir: string, n: number): Promise<void> {
  await mkdir(path.join(dir, "posts"), { recursive: true });
  const posts = generatePosts(n, { prefix: "scale", newest: PAST });
  for (let i = 0; i < posts.length; i += 200) {
    await Promise.all(
      posts
        .slice(i, i + 200)
        .map((p) =>
          writeFile(
            path.join(dir, "posts", `${p.slug}.md`),
            `---\ntitle: ${p.title}\nexcerpt: ${p.title}, generated for the scale bench.\nauthorName: Bench\n` +
              `publishedDate: ${p.publishedDate.slice(0, 10)}\n---\n## Section\n\nParagraph with **bold** text.\n`,
          ).then(() =>
            arabic
              ? writeFile(
                  path.join(dir, "posts", `${p.slug}.ar.md`),
                  `---\ntitle: مقالة ${p.title}\nexcerpt: مقالة مولدة لقياس الحجم.\nauthorName: Bench\n---\n## قسم\n\nفقرة فيها نص **عريض**.\n`,
                )
              : undefined,
          ),
        ),
    );
  }
}

/** p50 in ms of `requests` sequential GETs of `url` (after five unmeasured ones), and the body size in bytes. */
async function measure(url: string): Promise<{ p50: number; bytes: number; status: number }> {
  let bytes = 0;
  let status = 0;
  for (let i = 0; i < 5; i++) await (await fetch(url)).arrayBuffer();
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    const start = performance.now();
    const response = await fetch(url);
    const body = await response.arrayBuffer();
    times.push(performance.now() - start);
    bytes = body.byteLength;
    status = response.status;
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)]!, bytes, status };
}

let missed = 0;
function report(label: string, value: string, target?: string, ok?: boolean): void {
  if (ok === false) missed++;
  const verdict = ok === undefined ? "" : ok ? "  ok" : "  MISSED";
  console.log(`  ${label.padEnd(44)} ${value.padStart(12)}${target ? `   target ${target}` : ""}${verdict}`);
}

async function main(): Promise<void> {
  console.log(`scale benchmark: ${count} posts added by ${mode === "push" ? "studio push" : "bulk createRows"}`);
  const backend = await startEmulator();
  const contentDir = await mkdtemp(path.join(tmpdir(), "scale-bench-content-"));
  try {
    const fixture = await push(backend.services, { contentDir: path.join(ROOT, "content") });
    if (fixture.failed > 0) throw new Error("pushing content/ failed");
    process.env.APPWRITE_ENDPOINT = backend.target.endpoint;
    process.env.APPWRITE_PROJECT_ID = backend.target.projectId;
    process.env.APPWRITE_API_KEY = backend.target.apiKey;
    const site = await startSite({ root: ROOT, port: 0, pageCache: false });
    try {
      const postUrl = `${site.url}/en/blog/what-is-a-micro-service-agency`;
      // A first, discarded pass warms the JIT, so the 9-post figures are not a cold start's.
      for (const url of [`${site.url}/en/blog`, postUrl]) await measure(url);
      const before = { blog: await measure(`${site.url}/en/blog`), post: await measure(postUrl) };
      if (before.post.status !== 200) throw new Error(`${postUrl} answered ${before.post.status}`);

      if (mode === "push") {
        await generateFiles(contentDir, count);
        const lockPath = path.join(contentDir, "studio-lock.json");
        let start = performance.now();
        let shown = -1;
        const first = await push(backend.services, {
          contentDir,
          lockPath,
          onEvent: (event) => {
            if (event.type !== "item") return;
            const percent = Math.floor((event.done / event.total) * 20) * 5;
            if (percent === shown) return;
            shown = percent;
            process.stderr.write(`  push ${percent} % (${event.done}/${event.total}), RSS ${mb(process.memoryUsage().rss)}\n`);
          },
        });
        const firstSeconds = (performance.now() - start) / 1000;
        if (first.failed > 0) throw new Error(`the push failed for ${first.failed} item(s)`);
        start = performance.now();
        await push(backend.services, { contentDir, lockPath });
        const again = (performance.now() - start) / 1000;
        console.log(`\n${count} posts`);
        report("studio push, first", `${firstSeconds.toFixed(1)} s`);
        report("studio push, again unchanged", `${again.toFixed(1)} s`, `< ${REPUSH_TARGET_S} s`, again < REPUSH_TARGET_S);
        report("RSS after the pushes (push + site)", mb(process.memoryUsage().rss));
        report("peak RSS so far", mb(process.resourceUsage().maxRSS * 1024), "< 1 GB", process.resourceUsage().maxRSS * 1024 < 1e9);
      } else {
        const start = performance.now();
        await seedPosts(backend.services, generatePosts(count, { prefix: "scale", newest: PAST }));
        console.log(`\n${count} posts`);
        report("bulk createRows", `${((performance.now() - start) / 1000).toFixed(1)} s`);
      }

      const blog = await measure(`${site.url}/en/blog`);
      const firstPage = await (await fetch(`${site.url}/en/blog`)).text();
      const pages = Math.max(...[...firstPage.matchAll(/\?page=(\d+)/g)].map((m) => Number(m[1])));
      const deep = await measure(`${site.url}/en/blog?page=${Math.max(2, pages - 1)}`);
      const last = await measure(`${site.url}/en/blog?page=${Math.max(2, pages)}`);
      const arBlog = await measure(`${site.url}/ar/blog`);
      const post = await measure(postUrl);
      const index = await measure(`${site.url}/sitemap.xml`);
      const part = await measure(`${site.url}/sitemap/1.xml`);
      const rss = await measure(`${site.url}/en/rss.xml`);
      const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
      const ms = (n: number) => `${n.toFixed(1)} ms`;
      report("/en/blog HTML", kb(blog.bytes), "≤ 150 kB", blog.bytes <= 150_000);
      report("/en/blog p50 (cache off)", ms(blog.p50), "< 100 ms", blog.p50 < 100);
      report(
        `/en/blog?page=${Math.max(2, pages - 1)} of ${pages} p50 (cache off)`,
        ms(deep.p50),
        "< 100 ms",
        deep.p50 < 100,
      );
      report(`/en/blog?page=${Math.max(2, pages)} (last) p50 (cache off)`, ms(last.p50), "< 100 ms", last.p50 < 100);
      report("/ar/blog p50 (cache off)", ms(arBlog.p50), "< 100 ms", arBlog.p50 < 100);
      report("/en/blog p50 with the fixture's 9 posts", ms(before.blog.p50));
      report("post page p50 (cache off)", ms(post.p50));
      report("post page p50 with the fixture's 9 posts", ms(before.post.p50));
      const ratio = post.p50 / before.post.p50;
      report("post page ratio (N posts / 9 posts)", ratio.toFixed(2), "≤ 1.5", ratio <= 1.5);
      report("/sitemap.xml (index) p50", ms(index.p50));
      report(`/sitemap/1.xml p50, ${kb(part.bytes)}`, ms(part.p50), undefined, part.status === 200);
      report("/en/rss.xml p50", ms(rss.p50));
      report("site + push process RSS after the requests", mb(process.memoryUsage().rss));
    } finally {
      await site.close();
    }
  } finally {
    await backend.stop();
    await rm(contentDir, { recursive: true, force: true });
  }
  if (missed > 0) process.exitCode = 1;
}

await main();
