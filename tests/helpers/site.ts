/**
 * The site over real HTTP for tests that need no browser: the embedded server with `content/` pushed, and
 * the production build served on a free loopback port. Plus a small client that keeps a cookie
 * (`scripts/dev/visitor.ts`, shared with the fault figures).
 */
import { JSDOM } from "jsdom";
import { vi } from "vitest";
import { startSite, type RunningSite } from "../../server/serve-site.ts";
import { ROOT, startBackend, type Backend } from "./stack.ts";

export interface SiteStack {
  backend: Backend;
  site: RunningSite;
  close(): Promise<void>;
}

/**
 * Starts a backend with `content/` pushed (a copy of the run's site template, tests/helpers/stack.ts), points
 * the site at it and serves it.
 */
export async function startSiteStack(): Promise<SiteStack> {
  const backend = await startBackend("siteTemplate");
  process.env.APPWRITE_ENDPOINT = backend.emulator.endpoint;
  process.env.APPWRITE_PROJECT_ID = backend.emulator.projectId;
  process.env.APPWRITE_API_KEY = backend.emulator.apiKey;
  const site = await startSite({ root: ROOT, port: 0 });
  // jsdom's first document takes seconds on a busy machine (loading it), and the tests parse pages with it
  // between requests to this in-process server: a first parse longer than the server's keep-alive (5 s) made
  // the next fetch reuse a socket the server had closed (ECONNRESET). Pushing content/ used to load it here.
  new JSDOM("<p>warm</p>").window.close();
  return {
    backend,
    site,
    close: async () => {
      await site.close();
      await backend.close();
    },
  };
}

/**
 * Waits until the site's page cache serves (its change feed is live): requests `pathname` until a page is
 * stored, every 50 ms for up to 10 s (vitest's `vi.waitFor`); throws "the page cache never went live".
 */
export async function pageCacheLive(site: RunningSite, pathname = "/en"): Promise<void> {
  await vi.waitFor(
    async () => {
      await (await fetch(`${site.url}${pathname}`)).text();
      if (site.pages!.size === 0) throw new Error("the page cache never went live");
    },
    { timeout: 10_000, interval: 50 },
  );
}

export { Visitor, type Reply } from "../../scripts/dev/visitor.ts";

/**
 * A page's HTML as a DOM to query (jsdom), without the text of its inline stylesheets: the `<style>` elements and
 * their attributes stay (`style[data-href]`), their rules are not parsed. Parsing them (css-tree) was about half
 * of the cost of a page here (~40 of ~80 ms), and no test reads a rule through the DOM.
 */
export function htmlDocument(html: string): Document {
  return new JSDOM(html.replace(/(<style\b[^>]*>)[\s\S]*?<\/style>/gi, "$1</style>")).window.document;
}

/** A page as shown: its HTML without scripts (the hydration data carries every message of the page's namespaces). */
export const markupOf = (html: string) => html.replace(/<script\b[\s\S]*?<\/script>/gi, "");
