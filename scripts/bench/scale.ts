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
 * Reachability (issue #33 item 6: every post reachable): the distinct post URLs of every sitemap part are
 * counted against the generated versions, each locale's RSS feed must carry its 50 newest, and with `walk`
 * every page of `/en/blog?all=1` (each post once, in English) is fetched, 4 at a time, and every generated
 * post must appear on one; the site's resident memory is sampled during that walk (run with `--expose-gc`:
 * the push's garbage is collected first, so the figure is the site's own, under load).
 *
 * Run: `node --expose-gc --import tsx scripts/bench/scale.ts [posts=10000] [push|bulk=push] [requests=40] [ar] [walk]`
 * (after `npm run build`).
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
const walk = process.argv.slice(6).includes("walk");
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

/** The `<loc>` URLs of a sitemap part or index. */
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);

/** The generated posts' slugs (as `generateFiles` writes them). */
const generatedSlugs = () => generatePosts(count, { prefix: "scale", newest: PAST }).map((p) => p.slug);

/**
 * Every generated post reachable: from the sitemap parts (each version), the feeds (the 50 newest a locale),
 * and with `walk` the list pages (`/en/blog?all=1`, every post once). Reports each count beside what it must be.
 */
async function reachability(base: string): Promise<void> {
  const slugs = generatedSlugs();
  let start = performance.now();
  const urls = new Set<string>();
  const parts = locs(await (await fetch(`${base}/sitemap.xml`)).text());
  for (const part of parts) {
    for (const loc of locs(await (await fetch(new URL(new URL(part).pathname, base))).text()))
      urls.add(new URL(loc).pathname);
  }
  const inSitemap = slugs.filter((slug) => urls.has(`/en/blog/${slug}`) && (!arabic || urls.has(`/ar/blog/${slug}`)));
  report(
    `posts in the ${parts.length} sitemap part(s), both versions`,
    `${inSitemap.length}`,
    `${slugs.length}`,
    inSitemap.length === slugs.length,
  );
  report("  reading every sitemap part", `${((performance.now() - start) / 1000).toFixed(1)} s`);
  for (const locale of arabic ? ["en", "ar"] : ["en"]) {
    const feed = await (await fetch(`${base}/${locale}/rss.xml`)).text();
    // The fixture's newer posts come first: the generated ones it carries must be the newest generated.
    const items = feed.split("<item>").length - 1;
    const carried = slugs.filter((slug) => feed.includes(`/${locale}/blog/${slug}<`)).length;
    const newest = slugs.slice(0, carried).every((slug) => feed.includes(`/${locale}/blog/${slug}<`));
    report(`/${locale}/rss.xml: items, the newest generated`, `${items}, ${carried}`, "50", items === 50 && newest);
  }
  if (!walk) return;
  (globalThis as { gc?: () => void }).gc?.();
  const seen = new Set<string>();
  const first = await (await fetch(`${base}/en/blog?all=1`)).text();
  const pages = Math.max(1, ...[...first.matchAll(/[?&]page=(\d+)/g)].map((m) => Number(m[1])));
  let next = 1;
  let peak = process.memoryUsage().rss;
  start = performance.now();
  const walker = async () => {
    while (next <= pages) {
      const page = next++;
      const html = await (await fetch(`${base}/en/blog?${page > 1 ? `page=${page}&` : ""}all=1`)).text();
      for (const m of html.matchAll(/href="\/(?:en|ar)\/blog\/([^"?#/]+)"/g)) seen.add(decodeURIComponent(m[1]!));
      peak = Math.max(peak, process.memoryUsage().rss);
    }
  };
  await Promise.all(Array.from({ length: 4 }, walker));
  const listed = slugs.filter((slug) => seen.has(slug)).length;
  report(`posts on the ${pages} pages of /en/blog?all=1`, `${listed}`, `${slugs.length}`, listed === slugs.length);
  report("  walking them, 4 at a time", `${((performance.now() - start) / 1000).toFixed(1)} s`);
  report("site RSS during the walk (peak, sampled)", mb(peak));
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
            process.stderr.write(
              `  push ${percent} % (${event.done}/${event.total}), RSS ${mb(process.memoryUsage().rss)}\n`,
            );
          },
        });
        const firstSeconds = (performance.now() - start) / 1000;
        if (first.failed > 0) throw new Error(`the push failed for ${first.failed} item(s)`);
        start = performance.now();
        await push(backend.services, { contentDir, lockPath });
        const again = (performance.now() - start) / 1000;
        console.log(`\n${count} posts`);
        report("studio push, first", `${firstSeconds.toFixed(1)} s`);
        report(
          "studio push, again unchanged",
          `${again.toFixed(1)} s`,
          `< ${REPUSH_TARGET_S} s`,
          again < REPUSH_TARGET_S,
        );
        report("RSS after the pushes (push + site)", mb(process.memoryUsage().rss));
        report(
          "peak RSS so far",
          mb(process.resourceUsage().maxRSS * 1024),
          "< 1 GB",
          process.resourceUsage().maxRSS * 1024 < 1e9,
        );
      } else {
        const start = performance.now();
        const posts = generatePosts(count, { prefix: "scale", newest: PAST, bilingual: arabic ? count : 0 });
        await seedPosts(backend.services, posts);
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
      await reachability(site.url);
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
