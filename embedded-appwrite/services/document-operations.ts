import { appWithEvents, contextWith } from "../http/context.ts";
import type { RequestContext } from "../http/context.ts";
import type { Reply } from "../http/router.ts";
import { EventBus } from "../realtime/bus.ts";
import type { RealtimeEvent } from "../realtime/bus.ts";
import { createMany, deleteMany, documentsParam, updateMany, upsertMany } from "./document-bulk.ts";
import { countOne, createOne, deleteOne, patchOne, upsertOne } from "./document-write.ts";
import { loadCollection } from "./models.ts";

/**
 * Every document write as one value (an `Operation`), so that a route applies it at once and a transaction
 * (`transactions.ts`) stages it, replays it to read its uncommitted state, and applies it on commit: the
 * same code in all three cases. The actions are Appwrite's transaction log actions (AW 1.8
 * `Transactions/Operations/Create.php`).
 */

/** Appwrite's operation actions: single-document ones, then the bulk ones (API keys only). */
export const ACTIONS = [
  "create",
  "update",
  "upsert",
  "delete",
  "increment",
  "decrement",
  "bulkCreate",
  "bulkUpdate",
  "bulkUpsert",
  "bulkDelete",
] as const;

/** One operation action. */
export type Action = (typeof ACTIONS)[number];

/**
 * A document write. `body` is what the single-document route reads: `{data, permissions}` for create,
 * update and upsert; `{value, min|max}` for increment/decrement (of attribute `key`); `{documents}` for
 * bulk create/upsert; `{data, queries}` for bulk update; `{queries}` for bulk delete.
 */
export interface Operation {
  action: Action;
  databaseId: string;
  collectionId: string;
  /** The document, for every single-document action (create has it resolved from `unique()`). */
  documentId?: string;
  /** The numeric attribute of increment/decrement. */
  key?: string;
  body: Record<string, unknown>;
}

/** True for the bulk actions, which only API keys may run. */
export function isBulk(action: Action): boolean {
  return action.startsWith("bulk");
}

/**
 * Apply `op` synchronously with the caller's permissions (no `await`, so several operations can share one
 * SQLite transaction). Throws what the matching route throws (404 `database_not_found`,
 * `collection_not_found`, `document_not_found`, 400 `document_invalid_structure`, 401 `user_unauthorized`, …).
 */
export function applyOperation(ctx: RequestContext, op: Operation): Reply {
  const collection = loadCollection(ctx, op.databaseId, op.collectionId);
  const id = op.documentId ?? "";
  switch (op.action) {
    case "create":
      return createOne(ctx, collection, id, op.body);
    case "update":
      return patchOne(ctx, collection, id, op.body);
    case "upsert":
      return upsertOne(ctx, collection, id, op.body);
    case "delete":
      return deleteOne(ctx, collection, id);
    case "increment":
    case "decrement":
      return countOne(ctx, collection, id, op.key ?? "", op.action === "increment" ? 1 : -1, op.body);
    case "bulkCreate":
      return createMany(ctx, collection, documentsParam(op.body));
    case "bulkUpsert":
      return upsertMany(ctx, collection, documentsParam(op.body));
    case "bulkUpdate":
      return updateMany(ctx, collection, op.body);
    case "bulkDelete":
      return deleteMany(ctx, collection, op.body);
  }
}

/**
 * Holds the events of writes that have not committed yet; `tag` marks each with the API that staged the
 * write, so a commit can deliver it with the model of that API.
 */
export class HeldEvents extends EventBus {
  readonly held: { event: RealtimeEvent; tag: string }[] = [];
  tag = "";

  constructor(private readonly live: EventBus) {
    super();
  }

  override publish(event: RealtimeEvent): void {
    this.held.push({ event, tag: this.tag });
  }

  override get active(): boolean {
    return this.live.active;
  }
}

/** `ctx` with its events held in `held` instead of published. */
export function holding(ctx: RequestContext, held: HeldEvents): RequestContext {
  return contextWith(ctx, { app: appWithEvents(ctx.app, held) });
}

/**
 * Run `fn` inside one SQLite transaction, all or nothing (a throw rolls every write back), and publish the
 * events of its writes only once it has committed.
 */
export function atomically<T>(ctx: RequestContext, fn: (ctx: RequestContext) => T): T {
  const held = new HeldEvents(ctx.app.events);
  const result = ctx.app.store.transaction(() => fn(holding(ctx, held)));
  for (const { event } of held.held) ctx.app.events.publish(event);
  return result;
}

const ROLLBACK = Symbol("rollback");

/**
 * Run `fn` inside a SQLite transaction that is always rolled back, and return what it returned: the
 * database as `fn` saw it (e.g. with a transaction's staged writes applied) is never seen by anyone else,
 * as nothing awaits in between. Its events are dropped.
 */
export function simulate<T>(ctx: RequestContext, fn: (ctx: RequestContext) => T): T {
  let result: { value: T } | undefined;
  try {
    ctx.app.store.transaction(() => {
      result = { value: fn(holding(ctx, new HeldEvents(ctx.app.events))) };
      throw ROLLBACK;
    });
  } catch (error) {
    if (error !== ROLLBACK) throw error;
  }
  return (result as { value: T }).value;
}
