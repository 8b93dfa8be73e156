/**
 * `GET /readyz` (issue #32 item 1): whether a load balancer should send this site process traffic. Ready
 * (200) when Appwrite answers within a second and its schema is current (every database, table, column,
 * index and bucket of `model/appwrite.json` exists: `lib/appwrite/schema-check.ts`); 503 otherwise, with
 * what is wrong. `/healthz` stays the liveness check (the process answers) and says 200 either way.
 *
 * The answer is remembered for `ttlMs` (default 5 s) and concurrent probes share one check, so probes from
 * several balancers cost Appwrite at most one schema read per interval. The body names tables and columns,
 * nothing secret (no endpoint, no key).
 */
import type { ServerResponse } from "node:http";
import { createAdminServices, type AppwriteTarget } from "../../lib/appwrite/client.ts";
import { schemaDifferences } from "../../lib/appwrite/schema-check.ts";
import type { AppwriteSchema } from "../../lib/appwrite/setup.ts";

export interface Readiness {
  ready: boolean;
  /** Whether Appwrite's `/health/version` answered 2xx within a second. */
  appwrite: "up" | "down";
  /** `current`, `outdated` (see `missing`; run `studio setup`), or `unknown` while Appwrite is down. */
  schema: "current" | "outdated" | "unknown";
  /** What the schema lacks (with `outdated`). */
  missing?: string[];
  /** Why the schema could not be read while Appwrite answered (e.g. the API key lacks a scope). */
  error?: string;
}

/** How long one readiness answer is reused, in ms. */
export const READINESS_TTL_MS = 5_000;

/**
 * A readiness check of `target` against `schema`: call it for the current answer (never rejects).
 * @param ttlMs how long an answer is reused (default `READINESS_TTL_MS`; tests pass 0).
 */
export function readinessCheck(
  target: AppwriteTarget,
  schema: AppwriteSchema,
  ttlMs = READINESS_TTL_MS,
): () => Promise<Readiness> {
  const services = createAdminServices(target);
  let last: { at: number; answer: Promise<Readiness> } | null = null;
  const check = async (): Promise<Readiness> => {
    const up = await fetch(`${target.endpoint}/health/version`, { signal: AbortSignal.timeout(1000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (!up) return { ready: false, appwrite: "down", schema: "unknown" };
    try {
      const missing = await schemaDifferences(services, schema);
      return missing.length === 0
        ? { ready: true, appwrite: "up", schema: "current" }
        : { ready: false, appwrite: "up", schema: "outdated", missing };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const reason = `the schema could not be read${typeof code === "number" ? ` (Appwrite answered ${code})` : ""}`;
      return { ready: false, appwrite: "up", schema: "unknown", error: `${reason}; check the API key's scopes` };
    }
  };
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= ttlMs) last = { at: now, answer: check() };
    return last.answer;
  };
}

/** Writes `readiness` as the `/readyz` answer: 200 or 503, JSON, never cached. */
export function sendReadiness(res: ServerResponse, readiness: Readiness, head: boolean): void {
  const body = JSON.stringify(readiness);
  res.writeHead(readiness.ready ? 200 : 503, {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(head ? undefined : body);
}
