import { accessSync, constants } from "node:fs";
import { join } from "node:path";
import { AppwriteError, APPWRITE_VERSION, invalidParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { intParam, pathParam } from "../http/params.ts";
import type { Reply, Router } from "../http/router.ts";

/** Queues named by `GET /health/queue/failed/{name}` (AW `health.php`, 1.8.x spec enum). */
const FAILED_QUEUES = new Set([
  "v1-database",
  "v1-deletes",
  "v1-audits",
  "v1-mails",
  "v1-functions",
  "v1-stats-resources",
  "v1-stats-usage",
  "v1-webhooks",
  "v1-certificates",
  "v1-builds",
  "v1-screenshots",
  "v1-messaging",
  "v1-migrations",
]);

const QUEUES = [
  "audits",
  "builds",
  "certificates",
  "databases",
  "deletes",
  "functions",
  "logs",
  "mails",
  "messaging",
  "migrations",
  "stats-resources",
  "stats-usage",
  "webhooks",
];

function ok(json: unknown): Reply {
  return { status: 200, json };
}

/** Time a check; Appwrite's `HealthStatus` `{name, ping (ms), status: "pass"}`. */
function status(name: string, check: () => void): Record<string, unknown> {
  const start = performance.now();
  check();
  return { name, ping: Math.round(performance.now() - start), status: "pass" };
}

/** `GET /health/db`: the metadata store answers a query. */
function db(ctx: RequestContext): Reply {
  const entry = status("database", () => ctx.app.store.stmt("SELECT 1").get());
  return ok({ total: 1, statuses: [entry] });
}

/** `GET /health/storage[/local]`: `DATA_DIR/files` (or `DATA_DIR`) is readable and writable. */
function storage(name: string) {
  return (ctx: RequestContext): Reply => {
    const entry = status(name, () => {
      for (const dir of [ctx.app.dataDir, join(ctx.app.dataDir, "files")]) {
        try {
          accessSync(dir, constants.R_OK | constants.W_OK);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOENT" && dir !== ctx.app.dataDir) continue;
          throw new AppwriteError("general_server_error", `Device ${name} dir is not writable`);
        }
      }
    });
    return ok(entry);
  };
}

/** `GET /health/queue/*`: the emulator has no queues (work is done in the request), so size 0. */
function queue(ctx: RequestContext): Reply {
  const threshold = intParam(ctx.query, "threshold", 5000) ?? 5000;
  const size = 0;
  if (size >= threshold)
    throw new AppwriteError(
      "health_queue_size_exceeded",
      `Queue size threshold hit. Current size is ${size} and threshold is ${threshold}.`,
    );
  return ok({ size });
}

function failedQueue(ctx: RequestContext): Reply {
  const name = pathParam(ctx, "name");
  if (!FAILED_QUEUES.has(name)) {
    throw invalidParam("name", `Value must be one of (${[...FAILED_QUEUES].join(", ")})`);
  }
  return queue(ctx);
}

/**
 * Health (AW `app/controllers/api/health.php`): `GET /health/version` (public) and `GET /ping`
 * (`Pong!` as text/plain; the SDK's `client.ping()` wraps it as `{message}`); with the
 * `health.read` scope (API key): `/health` (`http`), `/health/db`, `/health/cache` and
 * `/health/pubsub` (the in-process record cache and event bus), `/health/storage`,
 * `/health/storage/local`, `/health/time` (no NTP: the local clock, `diff` 0),
 * `/health/anti-virus` (`disabled`) and every `/health/queue/*` (size 0).
 * `/health/certificate` is not served (405).
 */
export function register(router: Router): void {
  router.add("GET", "/health/version", "public", () => ok({ version: APPWRITE_VERSION }));
  router.add("GET", "/ping", "project", () => ({ status: 200, text: "Pong!" }));
  router.add("GET", "/health", "health.read", () => ok({ name: "http", ping: 0, status: "pass" }));
  router.add("GET", "/health/db", "health.read", db);
  router.add("GET", "/health/cache", "health.read", () => ok({ total: 1, statuses: [status("cache", () => {})] }));
  router.add("GET", "/health/pubsub", "health.read", () => ok({ total: 1, statuses: [status("pubsub", () => {})] }));
  router.add("GET", "/health/storage", "health.read", storage("storage"));
  router.add("GET", "/health/storage/local", "health.read", storage("local"));
  router.add("GET", "/health/time", "health.read", () => {
    const now = Math.floor(Date.now() / 1000);
    return ok({ remoteTime: now, localTime: now, diff: 0 });
  });
  router.add("GET", "/health/anti-virus", "health.read", () => ok({ version: "", status: "disabled" }));
  for (const name of QUEUES) router.add("GET", `/health/queue/${name}`, "health.read", queue);
  router.add("GET", "/health/queue/failed/:name", "health.read", failedQueue);
}
