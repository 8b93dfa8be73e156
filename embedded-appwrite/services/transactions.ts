import { findDocument } from "../db/documents.ts";
import { AppwriteError, invalidParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { boolParam, intParam, isUid, pathParam } from "../http/params.ts";
import type { Reply, RouteScope, Router } from "../http/router.ts";
import { applyOperation, atomically, HeldEvents, holding, isBulk, simulate } from "./document-operations.ts";
import type { Operation } from "./document-operations.ts";
import { loadCollection } from "./models.ts";
import { operationsParam } from "./transaction-input.ts";
import {
  appendOperations,
  assertLive,
  deleteTransaction,
  findTransaction,
  insertTransaction,
  MAX_OPERATIONS,
  setStatus,
  stagedOperations,
  transactionModel,
  TTL,
} from "./transaction-store.ts";
import type { StagedOperation, TransactionRecord } from "./transaction-store.ts";
import { rename, ROW_KEYS, translateError } from "./tables-db-names.ts";
import { listTransactions } from "./transaction-list.ts";

/**
 * Transactions (AW 1.8 `Databases/Transactions/*`, `/v1/databases/transactions` and
 * `/v1/tablesdb/transactions`): a transaction collects operations, staged through `createOperations` or
 * through any document/row write called with `transactionId`, and applies them all in one SQLite
 * transaction on commit, or none of them (rollback, expiry, or the first failing operation). Reads with
 * `transactionId` see the staged writes. Staging replays the earlier operations and the new ones in a
 * rolled-back SQLite transaction, so a staged write that cannot apply fails at once with the error it would
 * fail with; a row changed by someone else after its operation was staged fails the commit with 409
 * `transaction_conflict`, as does a duplicate ID or unique value.
 */

type Api = "databases" | "tablesdb";

/** The API a request came through: staged operations are delivered with its models and error names. */
function apiOf(ctx: RequestContext): Api {
  return /^\/v1\/tablesdb(\/|$|\?)/.test(ctx.req.url ?? "") ? "tablesdb" : "databases";
}

/**
 * Apply `staged` in order on `ctx` (inside the caller's SQLite transaction). With `conflicts`, an update,
 * upsert, delete or increment/decrement of a document that changed after its operation was staged (and not
 * by an earlier operation of the same transaction) throws 409 `transaction_conflict`.
 */
function replay(ctx: RequestContext, staged: StagedOperation[], conflicts: boolean, held?: HeldEvents): void {
  const touched = new Set<string>();
  for (const { op, stagedAt, api } of staged) {
    if (held) held.tag = api;
    const table = `${op.databaseId}/${op.collectionId}`;
    const ref = `${table}/${op.documentId ?? ""}`;
    if (conflicts && op.action !== "create" && !isBulk(op.action) && !touched.has(ref) && !touched.has(table)) {
      const doc = findDocument(ctx.app.store, loadCollection(ctx, op.databaseId, op.collectionId), op.documentId ?? "");
      if (doc && doc.updatedAt > stagedAt) throw new AppwriteError("transaction_conflict");
    }
    applyOperation(ctx, op);
    touched.add(isBulk(op.action) ? table : ref);
  }
}

/** A pending, live transaction the caller may use for staging (400 `Invalid or non‑pending transaction`). */
function pending(ctx: RequestContext, id: string): TransactionRecord {
  const t = findTransaction(ctx, id);
  if (t.status !== "pending") throw new AppwriteError("general_bad_request", "Invalid or non‑pending transaction");
  assertLive(t);
  return t;
}

/** Stage `ops` in transaction `id` after checking each applies; returns what each would answer. */
function stage(ctx: RequestContext, id: string, ops: Operation[]): { t: TransactionRecord; replies: Reply[] } {
  const t = pending(ctx, id);
  if (t.operations + ops.length > MAX_OPERATIONS) {
    throw new AppwriteError(
      "transaction_limit_exceeded",
      `Transaction already has ${t.operations} operations, adding ${ops.length} would exceed the maximum of ${MAX_OPERATIONS}`,
    );
  }
  const prior = stagedOperations(ctx.app.store, t);
  const replies = simulate(ctx, (inner) => {
    replay(inner, prior, false);
    return ops.map((op) => applyOperation(inner, op));
  });
  return { t: appendOperations(ctx, t, ops, apiOf(ctx)), replies };
}

/**
 * A document/row write route's last step: apply `op` at once (all or nothing, events after the commit), or,
 * when `body.transactionId` is set, stage it there and answer what it would answer (a bulk write answers
 * `{total: 0, documents: []}`, as Appwrite cannot tell yet how many documents it will change).
 */
export function execute(ctx: RequestContext, op: Operation, body: Record<string, unknown>): Reply {
  const transactionId = body["transactionId"];
  if (transactionId === undefined || transactionId === null)
    return atomically(ctx, (inner) => applyOperation(inner, op));
  if (typeof transactionId !== "string" || !isUid(transactionId)) {
    throw invalidParam(
      "transactionId",
      "Parameter must contain at most 36 chars. Valid chars are a-z, A-Z, 0-9, period, hyphen, and underscore. Can't start with a special char",
    );
  }
  const reply = stage(ctx, transactionId, [op]).replies[0] as Reply;
  return isBulk(op.action) ? { status: reply.status, json: { total: 0, documents: [] } } : reply;
}

/**
 * A document/row read route: with a `transactionId` query parameter naming a pending transaction, `read`
 * sees its staged writes (AW "read uncommitted changes within the transaction"); otherwise the store as is.
 */
export function readThrough(ctx: RequestContext, read: (ctx: RequestContext) => Reply): Reply {
  const id = ctx.query["transactionId"];
  if (id === undefined || id === "") return read(ctx);
  if (typeof id !== "string" || !isUid(id)) throw invalidParam("transactionId", "Value must be a valid UID");
  const t = findTransaction(ctx, id);
  if (t.status !== "pending") return read(ctx);
  const staged = stagedOperations(ctx.app.store, t);
  return simulate(ctx, (inner) => {
    replay(inner, staged, false);
    return read(inner);
  });
}

/** Commit `t`: every operation or none; delivers the events after the commit, each with its API's model. */
function commit(ctx: RequestContext, t: TransactionRecord): TransactionRecord {
  const staged = stagedOperations(ctx.app.store, t);
  const held = new HeldEvents(ctx.app.events);
  try {
    ctx.app.store.transaction(() => replay(holding(ctx, held), staged, true, held));
  } catch (error) {
    setStatus(ctx, t, "failed");
    const conflict =
      error instanceof AppwriteError &&
      (error.type === "document_already_exists" || error.type === "document_unique_constraint_violation");
    throw conflict ? new AppwriteError("transaction_conflict") : error;
  }
  for (const { event, tag } of held.held) {
    ctx.app.events.publish(tag === "tablesdb" ? { ...event, payload: rename(event.payload, ROW_KEYS) } : event);
  }
  return setStatus(ctx, t, "committed");
}

async function createHandler(ctx: RequestContext): Promise<Reply> {
  const ttl = intParam(await ctx.body(), "ttl", TTL.default, TTL) ?? TTL.default;
  return { status: 201, json: transactionModel(insertTransaction(ctx, ttl)) };
}

function getHandler(ctx: RequestContext): Reply {
  return { status: 200, json: transactionModel(findTransaction(ctx, pathParam(ctx, "transactionId"))) };
}

async function updateHandler(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  const doCommit = boolParam(body, "commit", false);
  const doRollback = boolParam(body, "rollback", false);
  if (!doCommit && !doRollback)
    throw new AppwriteError("general_bad_request", "Either commit or rollback must be true");
  if (doCommit && doRollback) {
    throw new AppwriteError("general_bad_request", "Cannot commit and rollback at the same time");
  }
  const t = findTransaction(ctx, pathParam(ctx, "transactionId"));
  if (t.status !== "pending") throw new AppwriteError("transaction_not_ready");
  assertLive(t);
  const done = doCommit ? commit(ctx, t) : setStatus(ctx, t, "failed");
  return { status: 200, json: transactionModel(done) };
}

function deleteHandler(ctx: RequestContext): Reply {
  deleteTransaction(ctx.app.store, findTransaction(ctx, pathParam(ctx, "transactionId")));
  return { status: 204, empty: true };
}

async function operationsHandler(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  const ops = operationsParam(ctx, body, apiOf(ctx) === "tablesdb");
  return { status: 201, json: transactionModel(stage(ctx, pathParam(ctx, "transactionId"), ops).t) };
}

/** `handler` answering with TablesDB's error names when called through `/tablesdb`. */
function named(handler: (ctx: RequestContext) => Reply | Promise<Reply>) {
  return async (ctx: RequestContext): Promise<Reply> => {
    try {
      return await handler(ctx);
    } catch (error) {
      throw error instanceof AppwriteError && apiOf(ctx) === "tablesdb" ? translateError(error) : error;
    }
  };
}

/**
 * Transaction routes under `/databases` and `/tablesdb` (any caller: keys see every transaction, users
 * their own): create (201, `ttl` 60–3600 s, default 300), list, get, update (`commit` or `rollback`, 200),
 * delete (204), create operations (201, at most 100 operations per transaction). Registered before the
 * database routes, whose `:databaseId` would otherwise read `transactions` as an ID.
 */
export function register(router: Router): void {
  for (const [prefix, read, write] of [
    ["/databases", "documents.read", "documents.write"],
    ["/tablesdb", ["rows.read", "documents.read"], ["rows.write", "documents.write"]],
  ] as [string, RouteScope, RouteScope][]) {
    const base = `${prefix}/transactions`;
    router.add("POST", base, write, named(createHandler));
    router.add("GET", base, read, named(listTransactions));
    router.add("GET", `${base}/:transactionId`, read, named(getHandler));
    router.add("PATCH", `${base}/:transactionId`, write, named(updateHandler));
    router.add("DELETE", `${base}/:transactionId`, write, named(deleteHandler));
    router.add("POST", `${base}/:transactionId/operations`, write, named(operationsHandler));
  }
}
