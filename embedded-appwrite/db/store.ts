import Database from "better-sqlite3";
import type { Statement } from "better-sqlite3";
import { join } from "node:path";
import { createPrivateDir, ensurePrivateFile } from "../private-data.ts";

const METADATA_SCHEMA = `
CREATE TABLE IF NOT EXISTS databases (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  enabled INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS collections (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  database_seq INTEGER NOT NULL REFERENCES databases(seq) ON DELETE CASCADE,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  enabled INTEGER NOT NULL,
  document_security INTEGER NOT NULL,
  permissions TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (database_seq, id)
);
CREATE TABLE IF NOT EXISTS attributes (
  collection_seq INTEGER NOT NULL REFERENCES collections(seq) ON DELETE CASCADE,
  key TEXT NOT NULL,
  position INTEGER NOT NULL,
  type TEXT NOT NULL,
  format TEXT NOT NULL,
  size INTEGER NOT NULL,
  required INTEGER NOT NULL,
  array INTEGER NOT NULL,
  default_json TEXT,
  min TEXT,
  max TEXT,
  encrypt INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (collection_seq, key)
);
CREATE TABLE IF NOT EXISTS indexes (
  collection_seq INTEGER NOT NULL REFERENCES collections(seq) ON DELETE CASCADE,
  key TEXT NOT NULL,
  position INTEGER NOT NULL,
  type TEXT NOT NULL,
  attributes TEXT NOT NULL,
  orders TEXT NOT NULL,
  lengths TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (collection_seq, key)
);
CREATE TABLE IF NOT EXISTS buckets (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  permissions TEXT NOT NULL,
  file_security INTEGER NOT NULL,
  enabled INTEGER NOT NULL,
  maximum_file_size INTEGER NOT NULL,
  allowed_file_extensions TEXT NOT NULL,
  compression TEXT NOT NULL,
  encryption INTEGER NOT NULL,
  antivirus INTEGER NOT NULL,
  transformations INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS files (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  bucket_seq INTEGER NOT NULL REFERENCES buckets(seq) ON DELETE CASCADE,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  permissions TEXT NOT NULL,
  read_roles TEXT NOT NULL,
  signature TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  size_original INTEGER NOT NULL,
  size_actual INTEGER NOT NULL,
  chunks_total INTEGER NOT NULL,
  chunks_uploaded INTEGER NOT NULL,
  disk_name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (bucket_seq, id)
);
CREATE INDEX IF NOT EXISTS files_created ON files (bucket_seq, created_at);
CREATE TABLE IF NOT EXISTS users (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  email TEXT UNIQUE,
  phone TEXT UNIQUE,
  password_hash TEXT,
  status INTEGER NOT NULL,
  labels TEXT NOT NULL,
  prefs TEXT NOT NULL,
  targets TEXT NOT NULL,
  email_verification INTEGER NOT NULL,
  phone_verification INTEGER NOT NULL,
  mfa INTEGER NOT NULL,
  registration TEXT NOT NULL,
  password_update TEXT NOT NULL,
  accessed_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  user_seq INTEGER NOT NULL REFERENCES users(seq) ON DELETE CASCADE,
  secret_hash TEXT NOT NULL UNIQUE,
  provider TEXT NOT NULL,
  provider_uid TEXT NOT NULL,
  ip TEXT NOT NULL,
  factors TEXT NOT NULL,
  expire TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_seq, seq);
CREATE TABLE IF NOT EXISTS providers (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  provider TEXT NOT NULL,
  type TEXT NOT NULL,
  enabled INTEGER NOT NULL,
  credentials TEXT NOT NULL,
  options TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  provider_type TEXT NOT NULL,
  topics TEXT NOT NULL,
  users TEXT NOT NULL,
  targets TEXT NOT NULL,
  data TEXT NOT NULL,
  status TEXT NOT NULL,
  scheduled_at TEXT,
  delivered_at TEXT,
  delivery_errors TEXT,
  delivered_total INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS teams (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  prefs TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS memberships (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  team_seq INTEGER NOT NULL REFERENCES teams(seq) ON DELETE CASCADE,
  user_seq INTEGER NOT NULL REFERENCES users(seq) ON DELETE CASCADE,
  roles TEXT NOT NULL,
  invited TEXT NOT NULL,
  joined TEXT NOT NULL,
  confirm INTEGER NOT NULL,
  secret_hash TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (team_seq, user_seq)
);
CREATE INDEX IF NOT EXISTS memberships_user ON memberships (user_seq, confirm);
CREATE VIEW IF NOT EXISTS team_view AS SELECT teams.*,
  (SELECT COUNT(*) FROM memberships m WHERE m.team_seq = teams.seq AND m.confirm = 1) AS total FROM teams;
CREATE VIEW IF NOT EXISTS membership_view AS SELECT memberships.*, users.id AS user_id, users.name AS user_name,
  users.email AS user_email, users.mfa AS user_mfa, teams.id AS team_id, teams.name AS team_name
  FROM memberships JOIN users ON users.seq = memberships.user_seq JOIN teams ON teams.seq = memberships.team_seq;
CREATE TABLE IF NOT EXISTS schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
INSERT OR IGNORE INTO schema_version (id, version) VALUES (1, 0);
${["databases", "collections", "attributes", "indexes"]
  .flatMap((table) =>
    ["INSERT", "UPDATE", "DELETE"].map(
      (op) => `CREATE TRIGGER IF NOT EXISTS ${table}_${op.toLowerCase()}_version AFTER ${op} ON ${table}
BEGIN UPDATE schema_version SET version = version + 1 WHERE id = 1; END;`,
    ),
  )
  .join("\n")}
`;

const MAX_CACHED_STATEMENTS = 500;
const MAX_CACHED_RECORDS = 1000;

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

  constructor(dataDir: string) {
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
   * Run `fn` inside one SQLite transaction (committed before it returns); inside an open one, in a savepoint
   * (a throw rolls back only `fn`'s writes). One wrapper serves every call: `db.transaction(fn)` per call built
   * four functions and defined their properties each time (issue #33 item 4).
   */
  transaction<T>(fn: () => T): T {
    return this.writeTransaction(fn) as T;
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
    this.statements.clear();
    this.records.clear();
    this.db.close();
  }
}
