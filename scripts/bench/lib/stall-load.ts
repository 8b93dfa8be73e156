/**
 * The stall bench's load (SECURITY C53), on a worker thread of its own so that parsing the large answers does
 * not run on the event loop the bench measures. `connections` loops, each in turn: a signed-in page render
 * (never cached), a signed-out page, an over-deep or over-bound admin preview, and an accepted preview body
 * new each time (a full sanitize on the sanitizer thread). Or, with `format` (SECURITY C70), `connections` loops
 * of one signed-in user each posting the largest accepted body to the Format button (`/admin/format`).
 */
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { STALL_BODIES } from "../../dev/stall-bodies.ts";
import { Visitor } from "../../dev/visitor.ts";

export interface StallLoad {
  /** The site's base URL. */
  url: string;
  /** Pages holding the worst stored bodies. */
  pages: string[];
  connections: number;
  /** How long to hammer, in ms. */
  ms: number;
  /** The account the signed-in requests use (default {@link STALL_ACCOUNT}). */
  account?: { email: string; password: string };
  /** Only Format requests of the largest accepted body (C70), instead of the pages and previews. */
  format?: boolean;
}

/** What the load did: how many requests, and how many answered each status. */
export interface StallLoadResult {
  requests: number;
  statuses: Record<number, number>;
}

/** The e-mail and password of the account the load signs in with (created by the bench). */
export const STALL_ACCOUNT = { email: "stall@example.com", password: "correct horse battery" } as const;

/** Runs the load on a new worker thread for `load.ms`; resolves with what it did. */
export function hammerOnThread(load: StallLoad): Promise<StallLoadResult> {
  return new Promise((resolve, reject) => {
    // A worker does not inherit tsx's loader: it registers it, then loads this TypeScript file.
    const boot = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); });`;
    const worker = new Worker(boot, { eval: true, workerData: load });
    worker.once("message", (result: StallLoadResult) => resolve(result));
    worker.once("error", reject);
  });
}

async function hammer(load: StallLoad): Promise<StallLoadResult> {
  const { url, pages, connections, ms, account = STALL_ACCOUNT } = load;
  const admin = new Visitor(url);
  await admin.login(account.email, account.password);
  const statuses: Record<number, number> = {};
  const until = performance.now() + ms;
  let n = 0;
  const one = async (): Promise<void> => {
    const k = n++;
    const page = pages[(k >> 2) % pages.length]!;
    const reply = await (async () => {
      if (load.format)
        return admin.request("/admin/format", { method: "POST", form: { html: STALL_BODIES.worstAccepted } });
      switch (k % 4) {
        case 0: // signed in: never from the page cache, a full render every time
          return admin.request(page);
        case 1:
          return new Visitor(url).request(page);
        case 2:
          return admin.request("/admin/preview-html", {
            method: "POST",
            form: { html: k & 8 ? STALL_BODIES.preview : STALL_BODIES.blockquotes },
          });
        default: // a new accepted body each time: a full sanitize on the sanitizer thread
          return admin.request("/admin/preview-html", {
            method: "POST",
            form: { html: STALL_BODIES.worstAccepted.slice(0, -12) + String(k).padStart(12, "0") },
          });
      }
    })();
    statuses[reply.status] = (statuses[reply.status] ?? 0) + 1;
  };
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) await one();
    }),
  );
  return { requests: n, statuses };
}

if (!isMainThread && parentPort) parentPort.postMessage(await hammer(workerData as StallLoad));
