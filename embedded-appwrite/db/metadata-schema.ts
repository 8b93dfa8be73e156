/**
 * The embedded server's metadata tables (databases, collections, attributes, indexes, buckets, files, users,
 * sessions, messaging providers and messages, teams, memberships) and the `schema_version` counter the
 * metadata triggers bump (`Store.cached`). Each collection's rows live in their own table (`documents.ts`,
 * `ddl.ts`). Every statement is `IF NOT EXISTS`: run on every open.
 */
export const METADATA_SCHEMA = `
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
