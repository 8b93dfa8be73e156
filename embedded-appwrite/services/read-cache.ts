import type { Store } from "../db/store.ts";
import type { RequestContext } from "../http/context.ts";
import type { Reply } from "../http/router.ts";

/**
 * Replies of document/row reads (get, list) an API key repeats while the database is unchanged (issue #33
 * item 4): a kept reply costs one SQLite statement (`Store.changeMark`) instead of the route's lookups and
 * queries. Keyed by the request target (path and query string, so the API's names, the IDs, the queries and
 * `total` are all in it). Only API keys use it: they read everything (REFERENCE §6), so the reply does not
 * depend on who asks; a user's or guest's read goes through the permission checks each time.
 *
 * The mark is read before the route reads (its own snapshot): a reply kept under mark M reflects the
 * database at or after M, and is reused only while the mark is still M, i.e. no row was written on this
 * connection and no other connection committed since, so it equals what the route would answer.
 */

/**
 * `EMULATOR_READ_CACHE=off` (read when the server starts) answers every read from the route: for measuring the
 * uncached path (`scripts/bench/emulator-floor.ts`) or ruling the cache out when debugging.
 */
export const READ_CACHE = process.env["EMULATOR_READ_CACHE"] !== "off";

/** Replies kept per store before the cache is emptied. */
const MAX_REPLIES = 1000;
/** Bytes kept per store before the cache is emptied; a larger reply is not kept. */
const MAX_BYTES = 16 * 1024 * 1024;
const MAX_REPLY_BYTES = 1024 * 1024;

interface Kept {
  mark: string;
  bytes: Buffer;
}

class ReplyCache {
  readonly replies = new Map<string, Kept>();
  held = 0;

  keep(key: string, kept: Kept): void {
    if (kept.bytes.length > MAX_REPLY_BYTES) return;
    const replaced = this.replies.get(key)?.bytes.length ?? 0;
    if (this.replies.size >= MAX_REPLIES || this.held - replaced + kept.bytes.length > MAX_BYTES) {
      this.replies.clear();
      this.held = 0;
    } else {
      this.held -= replaced;
    }
    this.replies.set(key, kept);
    this.held += kept.bytes.length;
  }
}

const caches = new WeakMap<Store, ReplyCache>();

function cacheOf(store: Store): ReplyCache {
  let cache = caches.get(store);
  if (!cache) {
    cache = new ReplyCache();
    caches.set(store, cache);
  }
  return cache;
}

/**
 * Answer the read route `read` for `ctx`, or the reply it gave an API key for the same request target while
 * the database has not changed since. Reads by other callers, with a `transactionId` (staged writes), or
 * inside an open SQLite transaction go to `read` as they are. Only 200 replies written as bytes are kept.
 */
export function keptRead(
  ctx: RequestContext,
  read: (ctx: RequestContext) => Reply | Promise<Reply>,
): Reply | Promise<Reply> {
  const store = ctx.app.store;
  const target = ctx.req.url;
  // A TablesDB row read reaches the legacy route (rowNames set) after its own `keptRead` at the TablesDB route.
  const skip = ctx.rowNames === true || ctx.query["transactionId"] !== undefined || store.db.inTransaction;
  if (!READ_CACHE || !ctx.caller.isKey || target === undefined || skip) return read(ctx);
  const cache = cacheOf(store);
  const mark = store.changeMark();
  const kept = cache.replies.get(target);
  if (kept !== undefined && kept.mark === mark) return { status: 200, jsonBytes: kept.bytes };
  const keep = (reply: Reply): Reply => {
    if (reply.status === 200 && "jsonBytes" in reply) cache.keep(target, { mark, bytes: reply.jsonBytes });
    return reply;
  };
  const reply = read(ctx);
  return reply instanceof Promise ? reply.then(keep) : keep(reply);
}
