/**
 * Backup and restore of an emulator `DATA_DIR` (`emulator.sqlite`, `project.json`, `files/`).
 *
 *   tsx embedded-appwrite/backup.ts backup  <DATA_DIR> <dest>
 *   tsx embedded-appwrite/backup.ts restore <backup> <DATA_DIR>
 *
 * `backup` is safe while the emulator runs: the database is copied with SQLite's online backup
 * API (a consistent snapshot under WAL), and stored files are immutable once renamed into place.
 * `restore` refuses to touch a `DATA_DIR` that a live emulator serves. Both leave the folder they write 0700
 * and every file in it 0600 (SECURITY C73: a backup holds what the data folder holds).
 */
import Database from "better-sqlite3";
import { copyFileSync, cpSync, existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createPrivateDir, ensurePrivateFile, makePrivateDir, preparePrivateDir } from "./private-data.ts";

const DB_FILE = "emulator.sqlite";

/** What a backup or restore did. */
export interface BackupReport {
  /** Files (bytes of uploads) copied. */
  files: number;
  /** Stored files the database names but that vanished while copying (deleted mid-backup). */
  missing: string[];
  /** `PRAGMA integrity_check` of the resulting database. */
  integrity: string;
}

function integrity(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    return (db.pragma("integrity_check", { simple: true }) as string) ?? "";
  } finally {
    db.close();
  }
}

function copyIfPresent(from: string, to: string): boolean {
  try {
    copyFileSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/**
 * Back up `dataDir` into the new or empty folder `dest`: copy every stored file, take an online
 * snapshot of the database, then copy the files the snapshot names that appeared meanwhile.
 * Throws when `dest` is not empty or `dataDir` has no database.
 */
export async function backupDataDir(dataDir: string, dest: string): Promise<BackupReport> {
  const source = join(dataDir, DB_FILE);
  if (!existsSync(source)) throw new Error(`No emulator database in ${dataDir}.`);
  if (existsSync(dest) && readdirSync(dest).length > 0) throw new Error(`Backup folder ${dest} is not empty.`);
  preparePrivateDir(dest);
  makePrivateDir(join(dest, "files"));
  let copied = 0;
  const filesDir = join(dataDir, "files");
  const buckets = existsSync(filesDir) ? readdirSync(filesDir).filter((b) => b !== ".tmp") : [];
  for (const bucket of buckets) {
    makePrivateDir(join(dest, "files", bucket));
    for (const name of readdirSync(join(filesDir, bucket))) {
      if (name.endsWith(".chunks")) continue;
      if (copyIfPresent(join(filesDir, bucket, name), join(dest, "files", bucket, name))) copied++;
    }
  }
  ensurePrivateFile(join(dest, DB_FILE)); // SQLite would create the snapshot 0644
  const live = new Database(source, { fileMustExist: true });
  try {
    await live.backup(join(dest, DB_FILE));
  } finally {
    live.close();
  }
  const snapshot = new Database(join(dest, DB_FILE), { readonly: true });
  const rows = snapshot
    .prepare(
      "SELECT buckets.id AS bucket, files.disk_name AS disk FROM files JOIN buckets ON buckets.seq = files.bucket_seq WHERE files.chunks_uploaded >= files.chunks_total",
    )
    .all() as { bucket: string; disk: string }[];
  snapshot.close();
  const missing: string[] = [];
  for (const { bucket, disk } of rows) {
    const target = join(dest, "files", bucket, disk);
    if (existsSync(target)) continue;
    makePrivateDir(join(dest, "files", bucket));
    if (copyIfPresent(join(filesDir, bucket, disk), target)) copied++;
    else missing.push(`${bucket}/${disk}`);
  }
  if (existsSync(join(dataDir, "project.json")))
    copyFileSync(join(dataDir, "project.json"), join(dest, "project.json"));
  preparePrivateDir(dest); // copies keep their source's mode: files of an older, looser DATA_DIR
  return { files: copied, missing, integrity: integrity(join(dest, DB_FILE)) };
}

function liveLock(dataDir: string): number | null {
  try {
    const { pid } = JSON.parse(readFileSync(join(dataDir, "emulator.lock"), "utf8")) as { pid: number };
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/**
 * Restore a backup made by `backupDataDir` into `dataDir`, replacing its database, files and
 * project identity. Throws when a live emulator holds `dataDir` (its `emulator.lock` names a
 * running process) or the backup's database fails `PRAGMA integrity_check`.
 */
export function restoreDataDir(backup: string, dataDir: string): BackupReport {
  const check = integrity(join(backup, DB_FILE));
  if (check !== "ok") throw new Error(`The backup's database is damaged: ${check}`);
  const pid = liveLock(dataDir);
  if (pid !== null) throw new Error(`An emulator (pid ${pid}) serves ${dataDir}; stop it before restoring.`);
  createPrivateDir(dataDir);
  for (const suffix of ["", "-wal", "-shm"]) rmSync(join(dataDir, `${DB_FILE}${suffix}`), { force: true });
  rmSync(join(dataDir, "files"), { recursive: true, force: true });
  copyFileSync(join(backup, DB_FILE), join(dataDir, DB_FILE));
  cpSync(join(backup, "files"), join(dataDir, "files"), { recursive: true });
  if (existsSync(join(backup, "project.json")))
    copyFileSync(join(backup, "project.json"), join(dataDir, "project.json"));
  preparePrivateDir(dataDir);
  const files = readdirSync(join(dataDir, "files")).reduce(
    (n, bucket) => n + readdirSync(join(dataDir, "files", bucket)).length,
    0,
  );
  return { files, missing: [], integrity: integrity(join(dataDir, DB_FILE)) };
}

async function main(argv: string[]): Promise<number> {
  const [command, from, to] = argv;
  if ((command !== "backup" && command !== "restore") || !from || !to) {
    console.error("Usage: tsx embedded-appwrite/backup.ts backup <DATA_DIR> <dest> | restore <backup> <DATA_DIR>");
    return 2;
  }
  const report =
    command === "backup" ? await backupDataDir(resolve(from), resolve(to)) : restoreDataDir(resolve(from), resolve(to));
  console.log(JSON.stringify({ command, from, to, ...report }));
  return report.integrity === "ok" && report.missing.length === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
