import type { Store } from "../db/store.ts";
import { formatDatetime, nowDatetime } from "../datetime.ts";
import { AppwriteError } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import { uniqueId } from "../ids.ts";
import type { Operation } from "./document-operations.ts";

/**
 * Where transactions live (AW 1.8 `transactions` and `transactionLogs` collections): a row per transaction
 * and a row per staged operation, in the emulator's SQLite store, created on first use. Shared by
 * `/databases/transactions` and `/tablesdb/transactions`, as on Appwrite.
 */

/** A transaction as stored. `owner` is the user who created it (`null` for an API key or a guest). */
export interface TransactionRecord {
  seq: number;
  id: string;
  createdAt: string;
  updatedAt: string;
  status: "pending" | "committing" | "committed" | "failed";
  operations: number;
  expiresAt: string;
  owner: string | null;
}

/** One staged operation; `api` is the API that staged it (`tablesdb` or `databases`). */
export interface StagedOperation {
  op: Operation;
  stagedAt: string;
  api: string;
}

/** Seconds a transaction lives: default, minimum, maximum (AW `APP_DATABASE_TXN_TTL_*`). */
export const TTL = { default: 300, min: 60, max: 3600 } as const;
/** Most operations one transaction holds (AW `APP_LIMIT_DATABASE_TRANSACTION`). */
export const MAX_OPERATIONS = 100;

const prepared = new WeakSet<Store>();

/** `store` with the transaction tables created. */
export function transactionTables(store: Store): Store {
  if (!prepared.has(store)) {
    store.exec(`
      CREATE TABLE IF NOT EXISTS transactions (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL, status TEXT NOT NULL, operations INTEGER NOT NULL, expires_at TEXT NOT NULL,
        owner TEXT);
      CREATE TABLE IF NOT EXISTS transaction_logs (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        transaction_seq INTEGER NOT NULL REFERENCES transactions(seq) ON DELETE CASCADE,
        staged_at TEXT NOT NULL, api TEXT NOT NULL, operation TEXT NOT NULL);`);
    prepared.add(store);
  }
  return store;
}

/** The columns of `transactions`, aliased to `TransactionRecord`'s fields. */
export const TRANSACTION_COLUMNS =
  "seq, id, created_at AS createdAt, updated_at AS updatedAt, status, operations, expires_at AS expiresAt, owner";

/** Appwrite's `Transaction` model. */
export function transactionModel(t: TransactionRecord): Record<string, unknown> {
  return {
    $id: t.id,
    $createdAt: t.createdAt,
    $updatedAt: t.updatedAt,
    status: t.status,
    operations: t.operations,
    expiresAt: t.expiresAt,
  };
}

/** Create a pending transaction expiring in `ttl` seconds, owned by the calling user if any. */
export function insertTransaction(ctx: RequestContext, ttl: number): TransactionRecord {
  const store = transactionTables(ctx.app.store);
  const now = nowDatetime();
  const expiresAt = formatDatetime(new Date(Date.parse(now) + ttl * 1000));
  const id = uniqueId();
  store
    .stmt(
      "INSERT INTO transactions (id, created_at, updated_at, status, operations, expires_at, owner) VALUES (?, ?, ?, 'pending', 0, ?, ?)",
    )
    .run(id, now, now, expiresAt, ctx.caller.isKey ? null : (ctx.caller.user?.id ?? null));
  return findTransaction(ctx, id);
}

/**
 * Transaction `id` as the caller may see it: API keys see every transaction, users their own (AW reads it
 * with the caller's authorization; a transaction carries its creator's read/update/delete permissions).
 * Throws 404 `transaction_not_found`.
 */
export function findTransaction(ctx: RequestContext, id: string): TransactionRecord {
  const t = transactionTables(ctx.app.store)
    .stmt(`SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE id = ?`)
    .get(id) as TransactionRecord | undefined;
  const mine = t && (ctx.caller.isKey || (t.owner !== null && t.owner === ctx.caller.user?.id));
  if (!t || !mine) throw new AppwriteError("transaction_not_found", undefined, [id]);
  return t;
}

/** Throws 410 `transaction_expired` when `t` is past its `expiresAt`. */
export function assertLive(t: TransactionRecord): void {
  if (Date.now() > Date.parse(t.expiresAt)) throw new AppwriteError("transaction_expired");
}

/** Set the status of `t` (and `$updatedAt`); returns the stored record. */
export function setStatus(ctx: RequestContext, t: TransactionRecord, status: TransactionRecord["status"]) {
  ctx.app.store
    .stmt("UPDATE transactions SET status = ?, updated_at = ? WHERE seq = ?")
    .run(status, nowDatetime(), t.seq);
  return findTransaction(ctx, t.id);
}

/** The operations staged in `t`, in staging order. */
export function stagedOperations(store: Store, t: TransactionRecord): StagedOperation[] {
  const rows = transactionTables(store)
    .stmt("SELECT staged_at, api, operation FROM transaction_logs WHERE transaction_seq = ? ORDER BY seq")
    .all(t.seq) as { staged_at: string; api: string; operation: string }[];
  return rows.map((r) => ({ op: JSON.parse(r.operation) as Operation, stagedAt: r.staged_at, api: r.api }));
}

/** Append `ops` to `t` (one SQLite transaction) and count them; returns the stored record. */
export function appendOperations(ctx: RequestContext, t: TransactionRecord, ops: Operation[], api: string) {
  const store = ctx.app.store;
  store.transaction(() => {
    const now = nowDatetime();
    const insert = store.stmt(
      "INSERT INTO transaction_logs (transaction_seq, staged_at, api, operation) VALUES (?, ?, ?, ?)",
    );
    for (const op of ops) insert.run(t.seq, now, api, JSON.stringify(op));
    store
      .stmt("UPDATE transactions SET operations = operations + ?, updated_at = ? WHERE seq = ?")
      .run(ops.length, now, t.seq);
  });
  return findTransaction(ctx, t.id);
}

/** Delete `t` and its staged operations. */
export function deleteTransaction(store: Store, t: TransactionRecord): void {
  store.transaction(() => {
    store.stmt("DELETE FROM transaction_logs WHERE transaction_seq = ?").run(t.seq);
    store.stmt("DELETE FROM transactions WHERE seq = ?").run(t.seq);
  });
}
