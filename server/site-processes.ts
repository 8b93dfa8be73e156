/**
 * Several site processes on one port (`WEB_CONCURRENCY`, issue #18 items 1 and 4): Node's cluster module
 * forks workers that run the launcher's script again; each serves the site from the build (`startSite`) and
 * the primary hands them connections in turn (round-robin, Node's default outside Windows). A render is
 * CPU-bound JavaScript, so one process uses one core: N processes render N pages at once.
 *
 * Each worker is a site process like those of "Running several site processes" (README): its own page cache
 * emptied by Appwrite's Realtime feed, its own scheduler, limits and sessions in Appwrite. A worker that dies
 * after it was ready is replaced; one that dies before fails the start.
 */
import cluster, { type Worker } from "node:cluster";
import { startSite, type SiteOptions } from "./serve-site.ts";

/** What a worker needs to serve the site: `startSite`'s options, passed in its environment as JSON. */
type WorkerOptions = Pick<SiteOptions, "root" | "port" | "host" | "trustProxy">;

const OPTIONS_VARIABLE = "SITE_PROCESS_OPTIONS";

/** Most site processes replaced in one minute; past that, one that dies stays dead (a crash loop). */
export const MAX_REPLACEMENTS = 5;

/** A worker's message once it listens: the port the cluster shares (the first worker's pick when 0 was asked). */
interface Ready {
  siteReady: number;
}

/** The running processes: the shared port, their number, and `close()`, which stops them all. */
export interface SiteProcesses {
  url: string;
  port: number;
  count: number;
  close(): Promise<void>;
}

/** The options that load modules before the entry, each taking a value (Node.js CLI: `--import`, `--require`). */
const LOADER_OPTIONS = new Set(["--import", "--require", "-r", "--loader", "--experimental-loader"]);
/** A module of the tsx package, as a loader option names it (`tsx`, `tsx/esm`, `…/node_modules/tsx/dist/…`). */
const TSX_MODULE = /(?:^|\/)tsx(?:\/|$)/;

/**
 * `execArgv` without the TypeScript loader `npm start` runs under (`--import tsx`, and the `--require` and
 * `--import` of tsx's files that its binary adds): what a bundled entry runs with. Every other option is kept, in
 * order: V8's, `--inspect`, an operator's own preload (`--require dd-trace/init`, an OpenTelemetry `--import`).
 * @param execArgv Node's options, as `process.execArgv` lists them.
 */
export function withoutTypeScriptLoader(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const option = execArgv[i]!;
    const [name, inline] = option.split(/=(.*)/s) as [string, string | undefined];
    if (!LOADER_OPTIONS.has(name)) {
      kept.push(option);
      continue;
    }
    if (inline !== undefined) {
      if (!TSX_MODULE.test(inline)) kept.push(option); // `--import=x`
      continue;
    }
    const value = execArgv[++i]; // `--import x`: the next argument
    if (value === undefined) kept.push(option);
    else if (!TSX_MODULE.test(value)) kept.push(option, value);
  }
  return kept;
}

/**
 * Forks `count` site processes running `entry` (a bundled script that calls `serveSiteProcess`, such as
 * `build/launcher/site-process.js`) with this process's node options but its TypeScript loader
 * (`withoutTypeScriptLoader`),
 * and resolves once every one listens. The environment is inherited: set `APPWRITE_*` before calling.
 * A worker that dies after it was ready is replaced, at most `MAX_REPLACEMENTS` times a minute: past that the
 * site runs on the processes left (a crash loop would only burn the CPU), and `log` says so.
 * @param log one line for the operator: a process replaced, or not replaced (default `console.error`).
 * @param onNoneLeft called when the last process died and none replaces it (the port would only hang):
 *   the caller stops.
 * @throws {Error} when a worker exits before it listens (its code is in the message).
 */
export async function startSiteProcesses(
  count: number,
  entry: string,
  options: WorkerOptions,
  log: (line: string) => void = console.error,
  onNoneLeft: () => void = () => {},
): Promise<SiteProcesses> {
  let stopping = false;
  let port = options.port;
  let live = 0; // processes ready and not exited
  cluster.setupPrimary({ exec: entry, execArgv: withoutTypeScriptLoader(process.execArgv) });
  const replaced: number[] = []; // times of the replacements in the last minute
  const replace = (code: number | null, signal: string | null) => {
    const now = Date.now();
    while (replaced.length > 0 && now - replaced[0]! > 60_000) replaced.shift();
    const cause = signal ?? `exit code ${code}`;
    if (replaced.length >= MAX_REPLACEMENTS) {
      log(`A site process stopped (${cause}); not replaced: ${MAX_REPLACEMENTS} already were this minute.`);
      if (live === 0) onNoneLeft();
      return;
    }
    replaced.push(now);
    log(`A site process stopped (${cause}); another took its place.`);
    fork().catch((error: unknown) => {
      if (stopping) return; // stopped on purpose while it started
      log(`A site process could not take its place: ${(error as Error).message}`);
      if (live === 0) onNoneLeft();
    });
  };
  // Every worker asks for the same port, 0 included: the cluster binds it once and shares it.
  const fork = (): Promise<Worker> =>
    new Promise((resolve, reject) => {
      const worker = cluster.fork({ [OPTIONS_VARIABLE]: JSON.stringify(options) });
      worker.once("message", (message: Ready) => {
        port = message.siteReady;
        live += 1;
        worker.removeListener("exit", early);
        worker.once("exit", (code, signal) => {
          live -= 1;
          if (!stopping) replace(code, signal);
        });
        resolve(worker);
      });
      const early = (code: number | null, signal: string | null) =>
        reject(new Error(`a site process exited before it was ready (${signal ?? `code ${code}`})`));
      worker.once("exit", early);
    });

  await Promise.all(Array.from({ length: count }, fork)).catch(async (error: unknown) => {
    stopping = true;
    await stopAll();
    throw error;
  });

  async function stopAll(): Promise<void> {
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve();
            worker.once("exit", () => resolve());
            worker.kill("SIGTERM");
          }),
      ),
    );
  }

  const host = options.host ?? "127.0.0.1";
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    count,
    close: async () => {
      stopping = true;
      await stopAll();
    },
  };
}

/**
 * The worker's side: serves the site with the options its primary passed, tells the primary its port, and
 * closes cleanly on SIGTERM or SIGINT (Ctrl-C reaches every process of the terminal's group).
 * @throws {Error} when called outside a process forked by `startSiteProcesses`.
 */
export async function serveSiteProcess(): Promise<void> {
  const raw = process.env[OPTIONS_VARIABLE];
  if (!cluster.isWorker || raw === undefined) throw new Error("serveSiteProcess runs only in a forked site process");
  const site = await startSite(JSON.parse(raw) as WorkerOptions);
  const stop = () => void site.close().then(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  process.send!({ siteReady: site.port } satisfies Ready);
}
