/**
 * Lighthouse for the benchmarks that need it (`page-quality.ts`, `lcp-compare.ts`), from its own package
 * (`scripts/bench/lighthouse/`), installed on first use: Lighthouse and its dependencies are ~175 packages and
 * ~13,000 files that `npm install` (the quick start, and CI before any test) would otherwise unpack for two
 * benchmarks (issue #27 item 4: 7–12 s of CI's install, measured with and without them).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** Lighthouse's package, with its own lock file (`npm install --prefix` it to update). */
const PACKAGE_DIR = path.resolve(import.meta.dirname, "..", "lighthouse");

/** The parts of a Lighthouse report (LHR, Lighthouse 12) the benchmarks read. */
export interface LighthouseResult {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] } | undefined>;
  audits: Record<
    string,
    | {
        id: string;
        title: string;
        score: number | null;
        numericValue?: number;
        displayValue?: string;
        details?: { overallSavingsMs?: number };
      }
    | undefined
  >;
  runtimeError?: { code: string; message: string };
}

interface LighthouseModule {
  lighthouse(
    url: string,
    flags: { port: number; output: "json"; logLevel: "error"; onlyCategories: string[] },
  ): Promise<{ lhr: LighthouseResult } | undefined>;
  launch(options: { chromePath: string; chromeFlags: string[] }): Promise<{ port: number; kill(): void }>;
  version: string;
}

let loaded: Promise<LighthouseModule> | undefined;

/**
 * Lighthouse and chrome-launcher, at the versions of `scripts/bench/lighthouse/package-lock.json`; the first
 * call installs them there (`npm install`, from the npm registry; locked versions apply) and says so. Not `npm ci`:
 * as at the root (`.ci/run`), npm's lock file leaves out packages `npm ci` then asks for.
 * @throws {Error} when the install fails (its output is shown above), naming the command to run by hand.
 */
export function loadLighthouse(): Promise<LighthouseModule> {
  loaded ??= (async () => {
    if (!existsSync(path.join(PACKAGE_DIR, "node_modules", "lighthouse"))) {
      console.log(
        `Installing Lighthouse for the benchmarks, once (npm install in ${path.relative(process.cwd(), PACKAGE_DIR)})…`,
      );
      const npm = spawnSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: PACKAGE_DIR, stdio: "inherit" });
      if (npm.status !== 0)
        throw new Error(`Installing Lighthouse failed: run \`npm install --prefix ${PACKAGE_DIR}\` and try again.`);
    }
    // A computed specifier: the package is typed here (LighthouseModule), not resolved by the type check,
    // which runs without it.
    const entry = pathToFileURL(path.join(PACKAGE_DIR, "index.js")).href;
    return (await import(entry)) as LighthouseModule;
  })();
  return loaded;
}

/**
 * One Lighthouse run (mobile, simulated throttling: its defaults) of `url` in a fresh headless Chromium at
 * `chromePath`, limited to `categories`.
 * @returns the report, or Lighthouse's own `runtimeError` in it (e.g. NO_NAVSTART, a trace lost on a busy
 *   machine) for the caller to retry.
 * @throws {Error} when Lighthouse returns nothing, or Chromium does not start.
 */
export async function runLighthouse(
  url: string,
  options: { chromePath: string; categories: readonly string[] },
): Promise<LighthouseResult> {
  const { lighthouse, launch } = await loadLighthouse();
  const chrome = await launch({
    chromePath: options.chromePath,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: [...options.categories],
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    return result.lhr;
  } finally {
    chrome.kill();
  }
}
