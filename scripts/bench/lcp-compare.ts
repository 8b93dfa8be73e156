/**
 * The LCP budget side by side (issue #33 item 7, #35 item 1: Lighthouse mobile LCP ≤ 1.3 s, median of 3, on
 * `/ar`, `/en`, an Arabic post and an Arabic venture, CLS 0): this checkout and another one (`--base <dir>`,
 * e.g. a worktree of main) run at once, each its own production site, and Lighthouse audits the four pages
 * on both, interleaved (base, this; then this, base; …), so the shared machine's load weighs on both alike.
 * Each round prints the load average; the table gives medians with the range of LCP.
 *
 * Run: `npx tsx scripts/bench/lcp-compare.ts [runs=3] [--base /work/main]`. Without `--base`, only this
 * checkout. Chromium is Debian's (`CHROME_PATH`), headless, a fresh profile per audit, as page-quality.ts.
 */
import { loadavg } from "node:os";
import path from "node:path";
import { runLighthouse, type LighthouseResult } from "./lib/lighthouse.ts";
import { ROOT, startSite, type BenchSite } from "./lib/site.ts";

const args = process.argv.slice(2);
const baseAt = args.indexOf("--base");
const baseRoot = baseAt >= 0 ? path.resolve(args[baseAt + 1] ?? "") : undefined;
const runs = Math.max(1, Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== "--base") ?? 3));
const chromePath = process.env.CHROME_PATH ?? "/usr/bin/chromium";
/** The budget, in ms (issue #33 item 7). */
const LCP_BUDGET_MS = 1300;
/** The pages of the budget: the two homes, and an Arabic post and venture with a body in Naskh. */
const PAGES = ["/en", "/ar", "/ar/blog/shared-services-the-back-office-you-do-not-build", "/ar/ventures/tender-forge"];

/** One Lighthouse mobile run (performance only) of `url` in a fresh headless Chromium; retried when broken. */
async function audit(url: string): Promise<LighthouseResult> {
  for (let attempt = 1; ; attempt++) {
    const lhr = await runLighthouse(url, { chromePath, categories: ["performance"] });
    if (!lhr.runtimeError) return lhr;
    if (attempt >= 3) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
  }
}

const metric = (lhr: LighthouseResult, id: string) => lhr.audits[id]?.numericValue ?? NaN;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const load = () => loadavg()[0]!.toFixed(1);

async function main(): Promise<void> {
  const builds: { name: string; site: BenchSite }[] = [];
  try {
    if (baseRoot) builds.push({ name: "base", site: await startSite({}, baseRoot) });
    builds.push({ name: "this", site: await startSite({}, ROOT) });
    const results = new Map<string, LighthouseResult[]>();
    const loads: string[] = [];
    for (let run = 0; run < runs; run++) {
      const order = run % 2 ? [...builds].reverse() : builds;
      loads.push(load());
      for (const page of PAGES)
        for (const { name, site } of order) {
          const key = `${name} ${page}`;
          results.set(key, [...(results.get(key) ?? []), await audit(site.url + page)]);
        }
      console.log(`round ${run + 1} of ${runs} done, load average ${loads.at(-1)} → ${load()}`);
    }
    console.log(
      `\nLighthouse mobile, medians of ${runs}; load average at the rounds' starts: ${loads.join(", ")} (2 cores)`,
    );
    console.log(`${"build page".padEnd(70)}  perf    FCP     LCP (range)          CLS     TBT`);
    let over = false;
    for (const page of PAGES)
      for (const { name } of builds) {
        const all = results.get(`${name} ${page}`)!;
        const of = (id: string) => median(all.map((lhr) => metric(lhr, id)));
        const lcps = all.map((lhr) => metric(lhr, "largest-contentful-paint"));
        const lcp = of("largest-contentful-paint");
        if (name === "this") over ||= lcp > LCP_BUDGET_MS || of("cumulative-layout-shift") > 0;
        const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
        console.log(
          `${`${name} ${page}`.padEnd(70)}  ${String(Math.round(median(all.map((l) => (l.categories.performance?.score ?? 0) * 100)))).padStart(4)}  ${s(of("first-contentful-paint"))}  ${s(lcp)} (${s(Math.min(...lcps))}–${s(Math.max(...lcps))})  ${of("cumulative-layout-shift").toFixed(4)}  ${Math.round(of("total-blocking-time"))} ms`,
        );
      }
    console.log(
      `budget: LCP ≤ ${LCP_BUDGET_MS / 1000} s and CLS 0 on every page (this checkout)${over ? " — NOT met" : " — met"}`,
    );
    if (over) process.exitCode = 1;
  } finally {
    await Promise.all(builds.map(({ site }) => site.stop()));
  }
}

await main();
