/**
 * Paths that stay inside the content folder (SECURITY C63; CWE-22 path traversal, CWE-59 link following).
 * A path is inside when it is below the folder as written (no `..` climbing out, not absolute) and also
 * once every symbolic link on the way is followed: `content/images/x.png` pointing at `~/.ssh/id_ed25519`
 * is outside, and so is anything under `content/posts` when `posts` links to a folder elsewhere.
 */
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";

/** A path that would leave its folder: written with `..` or absolute, or through a symbolic link. */
export class OutsideFolderError extends Error {
  override name = "OutsideFolderError";
  constructor(
    /** The path as given (relative to the folder, or absolute). */
    readonly target: string,
    /** The folder it must stay in. */
    readonly folder: string,
    /** `path`: written to climb out; `link`: a symbolic link (or a missing link target) leads out. */
    readonly how: "path" | "link",
  ) {
    super(
      how === "path"
        ? `${target} is outside ${folder}`
        : `${target} is a symbolic link, or is under one, that leads outside ${folder}`,
    );
  }
}

/** True when the absolute path `child` is `parent` itself or below it (both resolved the same way). */
export function isWithin(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  if (relative === "") return true;
  const first = relative.split(path.sep)[0];
  return first !== ".." && !path.isAbsolute(relative);
}

/**
 * The real path of `absolute` with every symbolic link followed; for a path that does not exist yet, the real
 * path of its deepest existing folder joined with the rest.
 * @throws {OutsideFolderError} (`link`) when an entry on the way is a symbolic link to nothing: where it
 *   would lead once created cannot be checked. Other file system errors as thrown.
 */
async function realPathOf(absolute: string, folder: string): Promise<string> {
  try {
    return await realpath(absolute);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const exists = await lstat(absolute).then(
    () => true,
    () => false,
  );
  if (exists) throw new OutsideFolderError(absolute, folder, "link"); // a dangling link
  const parent = path.dirname(absolute);
  if (parent === absolute) return absolute;
  return path.join(await realPathOf(parent, folder), path.basename(absolute));
}

/**
 * Resolves `target` (relative to `folder`, or absolute) and checks that it stays inside `folder`, as written
 * and after following symbolic links (the file itself, if it exists, and every folder on the way). The file
 * need not exist: for one about to be written, its nearest existing folder is checked.
 * @returns the absolute path as written (`folder` resolved, joined with `target`), safe to read or write.
 * @throws {OutsideFolderError} when it leaves `folder`; file system errors other than a missing entry.
 * Source: SECURITY C63 (ASVS v5 5.3.2; CWE-22, CWE-59).
 */
export async function pathInside(folder: string, target: string): Promise<string> {
  const root = path.resolve(folder);
  const absolute = path.resolve(root, target);
  if (!isWithin(root, absolute) || absolute === root) throw new OutsideFolderError(target, folder, "path");
  const realRoot = await realPathOf(root, folder);
  if (!isWithin(realRoot, await realPathOf(absolute, folder))) throw new OutsideFolderError(target, folder, "link");
  return absolute;
}
