/**
 * Creating a folder and its missing parents without Node's `mkdir({ recursive: true })`, which on Node 20
 * retries forever when `mkdir` answers ENOENT for a path whose parent exists (a folder under `/proc`, or on a
 * file system that refuses new entries): `studio push --prune --export-dir /proc/x` spun at 86 % CPU for ten
 * minutes instead of failing (SECURITY C59).
 */
import { mkdir, stat } from "node:fs/promises";
import path from "node:path";

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

/** `mkdir` of one level; true when the folder exists afterwards, false on ENOENT (a parent is missing). */
async function mkdirOne(dir: string, mode: number | undefined): Promise<boolean> {
  try {
    await mkdir(dir, { mode });
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return false;
    if (code === "EEXIST" && (await isDirectory(dir))) return true;
    if (code === "EEXIST") {
      throw Object.assign(new Error(`${dir} exists and is not a folder`), { code: "ENOTDIR", path: dir });
    }
    throw error;
  }
}

/**
 * Creates `dir` and its missing parents (like `mkdir -p`), each at most once: every failure is thrown at
 * once, with the errno `code` of the level that failed (`ENOENT` when a level cannot be created although
 * its parent exists, `ENOTDIR` under a file, `EACCES`, `EROFS`…).
 * @param mode permissions of the folders created (default 0o777 minus the umask).
 */
export async function makeDirectory(dir: string, mode?: number): Promise<void> {
  const absolute = path.resolve(dir);
  if (await mkdirOne(absolute, mode)) return;
  const parent = path.dirname(absolute);
  if (parent === absolute) {
    throw Object.assign(new Error(`cannot create ${absolute}`), { code: "ENOENT", path: absolute });
  }
  await makeDirectory(parent, mode);
  if (!(await mkdirOne(absolute, mode))) {
    throw Object.assign(new Error(`cannot create ${absolute} although ${parent} exists`), {
      code: "ENOENT",
      path: absolute,
    });
  }
}
