/**
 * Page quality (issues #8, #18 item 6): Lighthouse in its default mobile mode (Moto G Power viewport,
 * simulated slow 4G and 4× CPU throttling) on `/en`, `/ar`, and a post page and a venture page in each
 * language of the real site (production build, embedded server with `content/` pushed, in a child process).
 * Prints the four category scores (targets: performance ≥ 95, the others 100) with FCP, LCP, CLS and TBT per
 * page (target: LCP ≤ 1.5 s on `/en` and `/ar`), and under the table every audit that costs a page points.
 * The JSON reports go to `test-output/lighthouse/`.
 *
 * Chromium is Debian's (`CHROME_PATH`, default `/usr/bin/chromium`), headless, one fresh profile per page.
 *
 * Run: `npx tsx scripts/bench/page-quality.ts [runs=3]`: each figure is the median of the runs (on a busy
 * machine one run varies by several points), with the range of the performance scores; the findings and the
 * saved report are those of the median-performance run.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { loadLighthouse, runLighthouse, type LighthouseResult } from "./lib/lighthouse.ts";
import { ROOT, firstLink, startSite } from "./lib/site.ts";

const runs = Math.max(1, Number(process.argv[2] ?? 3));
const chromePath = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const outDir = path.join(ROOT, "test-output", "lighthouse");
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const TARGETS: Record<(typeof CATEGORIES)[number], number> = {
  performance: 95,
  accessibility: 100,
  "best-practices": 100,
  seo: 100,
};
/** Largest Contentful Paint target on the home pages, in ms (issue 18 item 6). */
const LCP_TARGET_MS = 1500;
const LCP_PAGES = new Set(["/en", "/ar"]);

/**
 * One Lighthouse run of `url` in a fresh headless Chromium; the report as an object. A run Lighthouse itself
 * reports as broken (e.g. NO_NAVSTART, a trace lost on a busy machine) is retried, up to 3 attempts.
 */
async function audit(url: string): Promise<LighthouseResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await auditOnce(url);
    } catch (error) {
      if (!(error instanceof LighthouseRunError) || attempt >= 3) throw error;
      console.log(`  (${error.message}; retrying)`);
    }
  }
}

class LighthouseRunError extends Error {}

async function auditOnce(url: string): Promise<LighthouseResult> {
  const lhr = await runLighthouse(url, { chromePath, categories: CATEGORIES });
  if (lhr.runtimeError) throw new LighthouseRunError(`Lighthouse: ${lhr.runtimeError.message} (${url})`);
  return lhr;
}

const score = (lhr: LighthouseResult, id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
const numeric = (lhr: LighthouseResult, id: string) => lhr.audits[id]?.numericValue ?? NaN;

/** The median of `values` (the mean of the middle two for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The audits that cost points in a category below its target: weighted audits scoring < 1, and opportunities. */
function findings(lhr: LighthouseResult): string[] {
  const lines: string[] = [];
  for (const category of CATEGORIES) {
    if (score(lhr, category) >= 100) continue;
    for (const ref of lhr.categories[category]!.auditRefs) {
      const a = lhr.audits[ref.id]!;
      const savings = a.details?.overallSavingsMs ?? 0;
      const costs = ref.weight > 0 && a.score !== null && a.score < 1;
      const opportunity =
        category === "performance" && ref.weight === 0 && a.score !== null && a.score < 0.9 && savings > 0;
      if (!costs && !opportunity) continue;
      const value = a.displayValue ? ` — ${a.displayValue}` : "";
      const label = costs ? `score ${a.score!.toFixed(2)}, weight ${ref.weight}` : `saves ~${Math.round(savings)} ms`;
      lines.push(`  [${category}] ${a.id}: ${a.title}${value} (${label})`);
    }
  }
  return lines;
}

async function main(): Promise<void> {
  const site = await startSite();
  try {
    const pages = ["/en", "/ar"];
    for (const locale of ["en", "ar"])
      for (const list of ["blog", "ventures"])
        pages.push(
          await firstLink(`${site.url}/${locale}/${list}`, new RegExp(`href="(/${locale}/${list}/[a-z0-9-]+)"`)),
        );
    await mkdir(outDir, { recursive: true });
    console.log(
      `Lighthouse ${(await loadLighthouse()).version}, mobile, simulated throttling; ${runs} run(s) per page; site ${site.url}`,
    );

    const rows: { page: string; lhr: LighthouseResult; results: LighthouseResult[]; range: string }[] = [];
    for (const page of pages) {
      const results: LighthouseResult[] = [];
      for (let i = 0; i < runs; i++) results.push(await audit(site.url + page));
      results.sort((a, b) => score(a, "performance") - score(b, "performance"));
      const lhr = results[Math.floor(results.length / 2)]!;
      const range =
        runs > 1 ? `${score(results[0]!, "performance")}-${score(results.at(-1)!, "performance")}` : "1 run";
      const name = page.replace(/^\//, "").replaceAll("/", "-");
      await writeFile(path.join(outDir, `${name}.json`), JSON.stringify(lhr, null, 1));
      rows.push({ page, lhr, results, range });
    }

    const width = Math.max(...pages.map((p) => p.length));
    const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`.padStart(7);
    console.log(`\n${"page".padEnd(width)}  perf (runs)  a11y  best   seo      FCP      LCP    CLS     TBT`);
    let missed = false;
    for (const { page, results, range } of rows) {
      const of = (pick: (lhr: LighthouseResult) => number) => median(results.map(pick));
      const [perf, ...others] = CATEGORIES.map((c) => Math.round(of((lhr) => score(lhr, c))));
      const lcp = of((lhr) => numeric(lhr, "largest-contentful-paint"));
      missed ||= CATEGORIES.some((c) => of((lhr) => score(lhr, c)) < TARGETS[c]);
      missed ||= LCP_PAGES.has(page) && lcp > LCP_TARGET_MS;
      console.log(
        `${page.padEnd(width)}  ${String(perf).padStart(4)} ${`(${range})`.padEnd(7)} ${others.map((s) => String(s).padStart(5)).join(" ")}  ${seconds(of((lhr) => numeric(lhr, "first-contentful-paint")))}  ${seconds(lcp)}  ${of((lhr) => numeric(lhr, "cumulative-layout-shift")).toFixed(3)}  ${`${Math.round(of((lhr) => numeric(lhr, "total-blocking-time")))} ms`.padStart(6)}`,
      );
    }
    console.log(
      `targets (medians): performance ≥ 95, accessibility, best practices and SEO 100, LCP ≤ ${LCP_TARGET_MS / 1000} s on ${[...LCP_PAGES].join(" and ")}${missed ? " — NOT all met" : " — met"}`,
    );
    for (const { page, lhr } of rows) {
      const lines = findings(lhr);
      if (lines.length) console.log(`\n${page}:\n${lines.join("\n")}`);
    }
    console.log(`\nReports: ${path.relative(ROOT, outDir)}/*.json`);
    if (missed) process.exitCode = 1;
  } finally {
    await site.stop();
  }
}

await main();
