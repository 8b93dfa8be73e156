/**
 * Where the project is (issue #34: `studio` run outside the project folder created an empty database in the
 * current folder). The project folder is the nearest folder at or above the current one holding a
 * `package.json` named `venture-studio`, or a `content/` folder.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { AbortError, EXIT } from "../lib/errors.ts";

/** The package name that marks the project folder (package.json). */
export const PROJECT_PACKAGE_NAME = "venture-studio";

function isProject(dir: string): boolean {
  const manifest = path.join(dir, "package.json");
  if (existsSync(manifest)) {
    try {
      if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === PROJECT_PACKAGE_NAME) return true;
    } catch {
      // not JSON: not ours
    }
  }
  try {
    return statSync(path.join(dir, "content")).isDirectory();
  } catch {
    return false;
  }
}

/** The project folder at or above `from` (absolute), or null when there is none up to the filesystem root. */
export function findProjectRoot(from: string): string | null {
  let dir = path.resolve(from);
  for (;;) {
    if (isProject(dir)) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * The absolute `DATA_DIR` of the embedded server: an absolute one as it is; a relative one from the project
 * folder found above `cwd`.
 * @throws {AbortError} (exit 3) when it is relative and no project folder is found: nothing is created.
 */
export function resolveDataDir(dataDir: string, cwd: string): string {
  if (path.isAbsolute(dataDir)) return dataDir;
  const root = findProjectRoot(cwd);
  if (root) return path.resolve(root, dataDir);
  throw new AbortError(
    `${cwd} is not inside the project folder (no package.json named ${PROJECT_PACKAGE_NAME} nor a content/ folder here or above), ` +
      `so studio does not know where the embedded server's data (DATA_DIR=${dataDir}) lives; nothing was created.`,
    {
      exitCode: EXIT.backend,
      nextSteps:
        "cd into the project folder, or set DATA_DIR to an absolute path, or APPWRITE_ENDPOINT (with its project and key) for a real Appwrite.",
    },
  );
}
