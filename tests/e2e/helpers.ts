/**
 * The real stack for browser tests: the embedded server with `content/` pushed, the site from the production
 * build, and Debian's Chromium driven by playwright-core.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";
import { vi } from "vitest";
import type { RunningSite } from "../../server/serve-site.ts";
import { startSiteStack } from "../helpers/site.ts";
import { ROOT, type Backend } from "../helpers/stack.ts";

export { ROOT };

/**
 * Debian's Chromium: its headless shell (package `chromium-headless-shell`, the same source built without the
 * desktop browser's UI layers; what Playwright itself drives headless) when installed, which costs a browser
 * test about a quarter less CPU than the full browser in headless mode; else the full browser.
 */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  (existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium");
/**
 * The full browser (package `chromium`), for the tests of what a reader sees letter by letter (screenshots
 * compared with baselines, layout shift when the web fonts swap in): the headless shell rasterizes text
 * differently (1–3.5 % of the pixels of an Arabic page) and lays out the fallback faces differently, so only
 * the browser readers use tells whether the type is right.
 */
export const FULL_CHROMIUM = process.env.FULL_CHROMIUM_PATH ?? "/usr/bin/chromium";
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };
export const SCREENSHOTS = path.join(ROOT, "test-output", "screenshots");

export interface Stack {
  backend: Backend;
  site: RunningSite;
  browser: Browser;
  /** A new page in a fresh context (no shared cookies or storage). */
  page(options?: BrowserContextOptions): Promise<Page>;
  close(): Promise<void>;
}

/** The browsers this worker process launched, by executable: kept across its files (`startStack`). */
const BROWSERS = Symbol.for("venture-studio.tests.browsers");
const launched: Map<string, Promise<Browser>> = ((globalThis as { [BROWSERS]?: Map<string, Promise<Browser>> })[
  BROWSERS
] ??= new Map());

/**
 * The worker's running Chromium at `executablePath`, launched on first need. The e2e files share a worker
 * process (`isolate: false`); each file's contexts are closed when its stack closes, and the browser exits
 * with the process (playwright-core kills what it launched on exit). One launch a worker instead of one a
 * file (issue #27 item 4).
 */
function browserAt(executablePath: string): Promise<Browser> {
  let browser = launched.get(executablePath);
  if (!browser) {
    browser = chromium.launch({
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    });
    launched.set(executablePath, browser);
    browser.then(
      (running: Browser) => running.once("disconnected", () => launched.delete(executablePath)),
      () => launched.delete(executablePath),
    );
  }
  return browser;
}

/**
 * Starts the emulator, pushes `content/`, serves the site and opens contexts in Chromium: the headless
 * shell, or with `{ browser: "full" }` the full browser (`FULL_CHROMIUM`). `close()` closes every context of
 * the browser (those a test made with `stack.browser.newContext` too), the site and the emulator.
 */
export async function startStack(options: { browser?: "headless-shell" | "full" } = {}): Promise<Stack> {
  const { backend, site } = await startSiteStack();
  const browser = await browserAt(options.browser === "full" ? FULL_CHROMIUM : CHROMIUM);
  return {
    backend,
    site,
    browser,
    async page(options = {}) {
      const context = await browser.newContext({ baseURL: site.url, viewport: DESKTOP, ...options });
      return context.newPage();
    },
    async close() {
      await Promise.allSettled(browser.contexts().map((c) => c.close()));
      await site.close();
      await backend.close().catch(() => {}); // a test may have stopped the emulator already
    },
  };
}

/** Waits until React has hydrated the page (the forms switch to their own checks then). */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.querySelector("form[novalidate]") !== null || !document.querySelector("form"),
    undefined,
    // Polled on a timer: animation frames do not run for pages in the background.
    { polling: 50 },
  );
  await page.waitForLoadState("networkidle");
}

/**
 * axe-core's results for the page as it is: WCAG 2.1 A/AA and best practices, violations only with their
 * elements (passes counted by rule). Run in axe's "legacy" frame mode: the pages have no cross-origin frames
 * (same-origin ones are still checked), and the default mode opens a blank page per run to merge the frames'
 * results, which measured ~270 ms more a run here (issue #27 item 4).
 */
export function axeResults(page: Page): ReturnType<AxeBuilder["analyze"]> {
  return new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .options({ resultTypes: ["violations"] })
    .setLegacyMode(true)
    .analyze();
}

/**
 * The serious and critical axe-core violations of the page as it is (`axeResults`, the rules `pages.test.ts`
 * checks the public pages with), one line each: rule, impact and the elements' selectors.
 */
export async function axeSerious(page: Page): Promise<string[]> {
  const results = await axeResults(page);
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/**
 * Before a page's first load: holds its requests whose URL matches `fonts` until `release()` (a web font
 * arriving late) and counts them (`requested()`), and sums the page's layout shifts (Layout Instability API,
 * buffered from the load) for `layoutShift(page)`.
 */
export async function holdFonts(page: Page, fonts: RegExp): Promise<{ release(): void; requested(): number }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let requested = 0;
  await page.route(fonts, async (route) => {
    requested++;
    await gate;
    await route.continue();
  });
  await page.addInitScript(() => {
    (window as unknown as { shifts: number }).shifts = 0;
    new PerformanceObserver((entries) => {
      for (const entry of entries.getEntries())
        (window as unknown as { shifts: number }).shifts += (entry as unknown as { value: number }).value;
    }).observe({ type: "layout-shift", buffered: true });
  });
  return { release, requested: () => requested };
}

/** The cumulative layout shift summed since the load by `holdFonts`' observer. */
export function layoutShift(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { shifts: number }).shifts);
}

/**
 * Starts collecting the CSP violation reports that reach the in-process site (its `/csp-report` endpoint logs
 * each as a `[csp] …` line on `console.warn`; SECURITY C21). The returned function waits `settleMs` (a browser
 * sends a report a moment after the violation), stops collecting and resolves with the lines.
 */
export function cspReports(settleMs = 500): () => Promise<string[]> {
  const warn = vi.spyOn(console, "warn");
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    const lines = warn.mock.calls.map((call) => String(call[0])).filter((line) => line.startsWith("[csp]"));
    warn.mockRestore();
    return lines;
  };
}
