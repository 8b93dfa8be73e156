/**
 * The data folder is private (SECURITY C73; ASVS v5 13.3.2): `DATA_DIR` holds Argon2 hashes, e-mail
 * addresses, drafts, contact messages (`emulator.sqlite` and SQLite's `-wal`/`-shm` beside it), uploads
 * (`files/`), the API key (`project.json`, `emulator.lock`), the preview secret, the sync lock and exports. It
 * is created 0700 and what it holds 0600 (folders 0700), and an existing one is tightened when the server
 * starts: group and other lose every permission, the owner keeps theirs. Backups get the same modes.
 */
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** Mode of a private folder: the owner only. */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of a private file: the owner reads and writes. */
export const PRIVATE_FILE_MODE = 0o600;

/** Removes group and other permissions from `path` (not following a link) when it has any. */
function tightenOne(path: string, mode: number): void {
  if ((mode & 0o077) !== 0) chmodSync(path, mode & 0o700);
}

/**
 * Tightens everything under `dir` (not `dir` itself): files and folders lose group and other permissions.
 * Symbolic links are left as they are and not followed. Entries that vanish meanwhile are skipped.
 * @returns how many entries were changed.
 */
function tightenTree(dir: string): number {
  let changed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  for (const name of names) {
    const path = join(dir, name);
    let stats;
    try {
      stats = lstatSync(path);
    } catch {
      continue;
    }
    if (stats.isSymbolicLink()) continue;
    if ((stats.mode & 0o077) !== 0) {
      tightenOne(path, stats.mode);
      changed++;
    }
    if (stats.isDirectory()) changed += tightenTree(path);
  }
  return changed;
}

/**
 * Creates the folder `dir` with mode 0700 when it is missing (missing parents get the usual mode); an existing
 * one is left as it is (`preparePrivateDir` tightens it).
 * @returns its absolute path.
 * @throws file system errors (EACCES, ENOTDIR…) as `mkdirSync` throws them.
 */
export function createPrivateDir(dir: string): string {
  const absolute = resolve(dir);
  mkdirSync(dirname(absolute), { recursive: true });
  try {
    mkdirSync(absolute, { mode: PRIVATE_DIR_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return absolute;
}

/**
 * Creates the private folder `dir` (0700; missing parents get the usual mode), or tightens an existing one and
 * everything in it: what a server does when it starts (SECURITY C73).
 * @returns how many existing entries (the folder included) had group or other permissions removed.
 * @throws file system errors (EACCES, ENOTDIR…) as `mkdirSync`/`chmodSync` throw them.
 */
export function preparePrivateDir(dir: string): number {
  const absolute = createPrivateDir(dir);
  const stats = lstatSync(absolute);
  let changed = 0;
  if (!stats.isSymbolicLink() && (stats.mode & 0o077) !== 0) {
    tightenOne(absolute, stats.mode);
    changed++;
  }
  return changed + tightenTree(absolute);
}

/**
 * Creates a private folder below a private folder (`files/<bucket>`, `files/.tmp`): 0700, parents too.
 * @throws file system errors as `mkdirSync` throws them.
 */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Makes sure `file` exists with mode 0600 before another library opens it: SQLite creates a database 0644,
 * but opens an existing one as it is and gives its `-wal` and `-shm` files the database's mode. An existing
 * file is tightened, never truncated.
 * @throws file system errors as `openSync`/`chmodSync` throw them.
 */
export function ensurePrivateFile(file: string): void {
  closeSync(openSync(file, "a", PRIVATE_FILE_MODE));
  tightenOne(file, lstatSync(file).mode);
}
