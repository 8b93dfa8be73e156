import Database from "better-sqlite3";
import type { Statement } from "better-sqlite3";
import { join } from "node:path";
import { createPrivateDir, ensurePrivateFile } from "../private-data.ts";
import { METADATA_SCHEMA } from "./metadata-schema.ts";

const MAX_CACHED_STATEMENTS = 500;
const MAX_CACHED_RECORDS = 1000;

export interface StoreOptions {
  /**
   * Group commit (issue #33 item 4): the writes of one event-loop turn share one SQLite transaction, committed
   * when the turn ends (`setImmediate`), so one WAL sync covers every write a burst of requests made instead of
   * one each. Each `transaction` call is a savepoint inside it (a throw rolls back only its own writes). Whoever
   * answers a client waits for `committed()` first, and work that must follow the commit (realtime events) goes
   * through `afterCommit`, so nothing is acknowledged before it is durable. Off by default: a caller that commits
   * in a loop without yielding (a script, a benchmark's floor) gets one commit a `transaction` as before.
   */
  groupCommit?: boolean;
}

/** The open group transaction of this turn (`StoreOptions.groupCommit`). */
interface OpenGroup {
  done: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
  after: (() => void)[];
  timer: NodeJS.Immediate;
}

/**
 * The emulator's SQLite database (`DATA_DIR/emulator.sqlite`): WAL journal,
 * `synchronous=FULL` so an acknowledged write survives a crash, foreign keys on.
 * Metadata tables hold databases, collections, attributes, indexes, buckets, files, users,
 * sessions, teams, memberships, messaging providers and messages;
 * each collection's documents live in their own table (see `documents.ts`).
 */
export class Store {
  readonly db: Database.Database;
  private readonly statements = new Map<string, Statement>();
  private readonly records = new Map<string, { version: number; value: unknown }>();
  private readonly versionStatement: Statement;
  private readonly changeStatement: Statement;
  private readonly readTransaction: (fn: () => unknown) => unknown;
  /** One transaction wrapper for every `transaction` call (better-sqlite3 builds four functions per wrapper). */
  private readonly writeTransaction: (fn: () => unknown) => unknown;
  private readonly groupCommit: boolean;
  private group: OpenGroup | undefined;
  /** Group transactions rolled back so far (`commitMark`). */
  private failedGroups = 0;

  constructor(dataDir: string, options: StoreOptions = {}) {
    this.groupCommit = options.groupCommit === true;
    createPrivateDir(dataDir);
    // 0600 before SQLite opens it: its -wal and -shm files take the database's mode (SECURITY C73).
    ensurePrivateFile(join(dataDir, "emulator.sqlite"));
    this.db = new Database(join(dataDir, "emulator.sqlite"));
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = FULL");
    this.db.pragma("foreign_keys = ON");
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(METADATA_SCHEMA);
    const patterns = new Map<string, RegExp>();
    // `X REGEXP Y` calls regexp(Y, X); patterns were validated when the query was compiled.
    this.db.function("regexp", { deterministic: true }, (pattern: unknown, value: unknown) => {
      if (typeof pattern !== "string" || typeof value !== "string") return 0;
      let regex = patterns.get(pattern);
      if (!regex) {
        if (patterns.size > 200) patterns.clear();
        regex = new RegExp(pattern, "u");
        patterns.set(pattern, regex);
      }
      return regex.test(value) ? 1 : 0;
    });
    this.versionStatement = this.db.prepare("SELECT version FROM schema_version WHERE id = 1").pluck();
    // The schema_version read makes the statement open the read snapshot before data_version is read.
    this.changeStatement = this.db
      .prepare(
        "SELECT total_changes() || ':' || (SELECT data_version FROM pragma_data_version) || ':' || (SELECT version FROM schema_version WHERE id = 1)",
      )
      .pluck();
    this.readTransaction = this.db.transaction((fn: () => unknown) => fn());
    this.writeTransaction = this.db.transaction((fn: () => unknown) => fn());
  }

  /**
   * A metadata record (database, collection with its attributes and indexes) memoised under `key`
   * until the schema changes: triggers on the metadata tables bump `schema_version` on every insert,
   * update or delete, so a cached record is never stale, whoever changed it. `load` runs on a miss;
   * `undefined` is not cached. Callers must treat the returned record as immutable.
   */
  cached<T>(key: string, load: () => T | undefined): T | undefined {
    const version = this.versionStatement.get() as number;
    const hit = this.records.get(key);
    if (hit && hit.version === version) return hit.value as T;
    const value = load();
    if (value === undefined) return undefined;
    if (this.records.size >= MAX_CACHED_RECORDS) this.records.clear();
    this.records.set(key, { version, value });
    return value;
  }

  /**
   * A mark of the database's state: equal marks mean no row was written on this connection
   * (`total_changes()`) and no other connection committed (`PRAGMA data_version`) in between (SQLite
   * "PRAGMA data_version", "total_changes()"). Read it as the first statement of a `read` transaction: the
   * mark then describes that transaction's snapshot. Written rows that were rolled back change it too (a
   * false "changed", never a false "unchanged"). For reply caches (`document-json.ts`).
   */
  changeMark(): string {
    return this.changeStatement.get() as string;
  }

  /**
   * A prepared statement for `sql`, cached by its text. Values must always be bound as
   * parameters; identifiers in `sql` must have been validated by the caller.
   */
  stmt(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= MAX_CACHED_STATEMENTS) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Run DDL (`CREATE`/`ALTER`/`DROP`) and drop cached statements, whose plans may be stale. */
  exec(sql: string): void {
    this.statements.clear();
    this.db.exec(sql);
  }

  /**
   * Run `fn` inside one SQLite transaction; inside an open one, in a savepoint (a throw rolls back only `fn`'s
   * writes). Without group commit the transaction is committed before this returns; with it (`StoreOptions`),
   * `fn` is a savepoint of the turn's group transaction, durable once `committed()` resolves. One wrapper serves
   * every call: `db.transaction(fn)` per call built four functions and defined their properties each time.
   */
  transaction<T>(fn: () => T): T {
    if (this.groupCommit && !this.db.inTransaction) {
      // A group still open here lost its transaction (SQLite rolled it back): its waiters fail now, not never.
      if (this.group) this.commitGroup();
      this.openGroup();
    }
    return this.writeTransaction(fn) as T;
  }

  /**
   * While this turn's group transaction is open: a promise that resolves once it is committed (rejects when the
   * commit failed and its writes were rolled back). `undefined` when nothing waits to be committed: every
   * write made so far is durable. An answer to a client (which may carry or reflect this turn's writes) is
   * sent only after it settles.
   */
  committed(): Promise<void> | undefined {
    return this.group?.done;
  }

  /**
   * A mark of the group commits so far, for `failedSince`: taken before work that may write in more than one
   * turn (a handler that awaits I/O between writes), whose earlier turns `committed()` no longer covers.
   */
  commitMark(): number {
    return this.failedGroups;
  }

  /** Whether a turn's writes were rolled back since `mark` (`commitMark`): then some of them may have been yours. */
  failedSince(mark: number): boolean {
    return this.failedGroups !== mark;
  }

  /** Run `fn` once this turn's writes are committed (now, when no group is open; never, when the commit fails). */
  afterCommit(fn: () => void): void {
    if (this.group) this.group.after.push(fn);
    else fn();
  }

  private openGroup(): void {
    this.db.exec("BEGIN IMMEDIATE");
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Rejections are read by whoever awaits `committed()`; with nobody waiting, a failed commit is only logged.
    done.catch(() => undefined);
    this.group = { done, resolve, reject, after: [], timer: setImmediate(() => this.commitGroup()) };
  }

  /** Commit the open group transaction (at the end of its turn, or before the store closes). */
  private commitGroup(): void {
    const group = this.group;
    if (!group) return;
    this.group = undefined;
    clearImmediate(group.timer);
    try {
      // SQLite rolls a transaction back by itself on some errors (SQLITE_FULL, SQLITE_IOERR, …): the savepoints
      // released since then did not keep their writes, so the turn failed.
      if (!this.db.inTransaction) throw new Error("the turn's transaction was rolled back before its commit");
      this.db.exec("COMMIT");
    } catch (error) {
      console.error("[emulator] committing the writes of a turn failed; they were rolled back", error);
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      this.failedGroups += 1;
      group.reject(error);
      return;
    }
    group.resolve();
    for (const fn of group.after) {
      try {
        fn();
      } catch (error) {
        console.error("[emulator] work after a commit failed", error);
      }
    }
  }

  /**
   * Run the synchronous `fn` inside one (deferred) transaction, or as is inside an open one: its reads
   * share one snapshot and one lock cycle, where each statement on its own starts a read transaction
   * (file-lock and stat system calls, about as long as a small query). For read-only work such as a list.
   */
  read<T>(fn: () => T): T {
    return this.db.inTransaction ? fn() : (this.readTransaction(fn) as T);
  }

  /** Close the database (checkpointing the WAL). */
  close(): void {
    this.commitGroup();
    this.statements.clear();
    this.records.clear();
    this.db.close();
  }
}
