/**
 * The site over real HTTP for tests that need no browser: the embedded server with `content/` pushed, and
 * the production build served on a free loopback port. Plus a small client that keeps a cookie
 * (`scripts/dev/visitor.ts`, shared with the fault figures).
 */
import path from "node:path";
import { push } from "../../lib/publish/push.ts";
import { startSite, type RunningSite } from "../../server/serve-site.ts";
import { ROOT, startBackend, type Backend } from "./stack.ts";

export interface SiteStack {
  backend: Backend;
  site: RunningSite;
  close(): Promise<void>;
}

/** Starts the backend, pushes `content/`, points the site at it and serves it. */
export async function startSiteStack(): Promise<SiteStack> {
  const backend = await startBackend();
  const result = await push(backend.services, { contentDir: path.join(ROOT, "content") });
  if (result.failed > 0) throw new Error(`pushing content/ failed for ${result.failed} item(s)`);
  process.env.APPWRITE_ENDPOINT = backend.emulator.endpoint;
  process.env.APPWRITE_PROJECT_ID = backend.emulator.projectId;
  process.env.APPWRITE_API_KEY = backend.emulator.apiKey;
  const site = await startSite({ root: ROOT, port: 0 });
  return {
    backend,
    site,
    close: async () => {
      await site.close();
      await backend.close();
    },
  };
}

export { Visitor, type Reply } from "../../scripts/dev/visitor.ts";

/** A page as shown: its HTML without scripts (the hydration data carries every message of the page's namespaces). */
export const markupOf = (html: string) => html.replace(/<script\b[\s\S]*?<\/script>/gi, "");
