/**
 * The CDN purge hook (issue #32 item 3): after every write of a venture or post (publish, unpublish,
 * schedule, promotion, save, delete; from the admin, `studio` or the scheduler: the one writer calls it,
 * `lib/publish/writer.ts`), the surrogate keys of what changed (`lib/http/surrogate-keys.ts`: the item's key
 * and its kind's list key) are POSTed to `CDN_PURGE_URL` as `{"keys": ["post:my-post", "list:post"]}`
 * (`Content-Type: application/json`, `Authorization: Bearer <CDN_PURGE_TOKEN>` when set). Point it at a
 * small function that calls your CDN's purge-by-tag API (Fastly, Cloudflare, Bunny…): docs/deployment.md.
 *
 * Best effort, never in the writer's way: writes within 50 ms share one POST, sent after the write returned;
 * a failure or a timeout (5 s) is logged (one line on stderr) and forgotten: the cached pages then expire
 * within `CDN_MAX_AGE` + `CDN_STALE_WHILE_REVALIDATE` seconds anyway.
 */
import { keysOfWrite } from "../http/surrogate-keys.ts";
import type { ContentKind } from "../../model/model.ts";

/** Writes within this many ms share one purge request. */
const BATCH_MS = 50;
/** Longest a purge request may take, in ms. */
const PURGE_TIMEOUT_MS = 5_000;

const pending = new Set<string>();
let timer: ReturnType<typeof setTimeout> | null = null;
const inflight = new Set<Promise<void>>();

/** Where the hook writes its lines (stderr, so `studio`'s output and `--json` stay clean). */
const log = (line: string) => process.stderr.write(`${line}\n`);

/** The purge URL and token from the environment (read at each write: `loadDeployConfig` validates them at boot). */
function target(): { url: string; token: string | undefined } | null {
  const url = process.env.CDN_PURGE_URL?.trim();
  if (!url || !/^https?:\/\//.test(url)) return null;
  return { url, token: process.env.CDN_PURGE_TOKEN?.trim() || undefined };
}

/** Whether a purge URL is configured (the writer skips the extra read a delete's slug needs otherwise). */
export function purgeConfigured(): boolean {
  return target() !== null;
}

async function send(keys: string[]): Promise<void> {
  const where = target();
  if (!where) return;
  try {
    const response = await fetch(where.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        ...(where.token ? { Authorization: `Bearer ${where.token}` } : {}),
      },
      body: JSON.stringify({ keys }),
      signal: AbortSignal.timeout(PURGE_TIMEOUT_MS),
    });
    await response.arrayBuffer().catch(() => undefined);
    if (response.ok) log(`CDN purge: ${keys.join(" ")} (${response.status})`);
    else log(`CDN purge refused (${response.status}) for ${keys.join(" ")}; those pages expire within CDN_MAX_AGE.`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log(`CDN purge failed (${reason}) for ${keys.join(" ")}; those pages expire within CDN_MAX_AGE.`);
  }
}

function flushNow(): void {
  timer = null;
  if (pending.size === 0) return;
  const keys = [...pending];
  pending.clear();
  const request = send(keys);
  inflight.add(request);
  void request.finally(() => inflight.delete(request));
}

/**
 * Queues a purge of the pages showing items of `kind` with these slugs (old and new when a slug changed).
 * Does nothing when `CDN_PURGE_URL` is unset; never throws, never waits.
 */
export function purgeAfterWrite(kind: ContentKind, slugs: Iterable<string | null | undefined>): void {
  if (!target()) return;
  for (const key of keysOfWrite(kind, slugs)) pending.add(key);
  timer ??= setTimeout(flushNow, BATCH_MS);
}

/** Sends what is queued now and resolves when every purge request sent so far has ended (tests, `studio`). */
export async function flushPurges(): Promise<void> {
  if (timer) clearTimeout(timer);
  flushNow();
  await Promise.all([...inflight]);
}
