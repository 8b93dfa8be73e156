/**
 * Content files `studio` does not read (issue #34: `content/post/x.md` or `content/events/x.md` was ignored
 * without a word): in the content root itself, in subfolders of a kind's folder, and in folders of the root that
 * are not content folders. The folders it reads come from the kinds table (`CONTENT_MODEL`), plus `images/`.
 */
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { contentFileFormat } from "../../model/content.ts";
import { CONTENT_KIND_NAMES, CONTENT_MODEL } from "../../model/model.ts";
import type { ContentIssue } from "./item.ts";

/** The folders of the content root that `studio` reads content files from: each kind's, from the kinds table. */
const CONTENT_FOLDERS: readonly string[] = CONTENT_KIND_NAMES.map((kind) => CONTENT_MODEL[kind].folder);

/** The folder of the kinds table nearest to `name` (a typo's likely meaning), or null when none is close. */
export function nearestFolder(name: string, folders: readonly string[]): string | null {
  let best: { folder: string; distance: number } | null = null;
  for (const folder of folders) {
    const distance = editDistance(name.toLowerCase(), folder);
    if (!best || distance < best.distance) best = { folder, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(best.folder.length / 3)) ? best.folder : null;
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}

/**
 * One warning per content file (`.md`, `.html`) directly in a folder of `root` that is neither a kind's
 * folder nor `images/`, naming the folder, the folders that are read and, for a near miss, the one meant.
 * Hidden folders (`.git`) and `node_modules` are skipped. A missing root yields nothing.
 */
export async function strayFolderWarnings(root: string): Promise<ContentIssue[]> {
  const warnings: ContentIssue[] = [];
  const list = CONTENT_FOLDERS.map((f) => `${f}/`).join(", ");
  for (const entry of await entriesByName(root)) {
    const name = entry.name;
    if (
      !entry.isDirectory() ||
      CONTENT_FOLDERS.includes(name) ||
      name === "images" ||
      name.startsWith(".") ||
      name === "node_modules"
    ) {
      continue;
    }
    let files: string[];
    try {
      files = (await listFiles(path.join(root, name))).filter((file) => contentFileFormat(file));
    } catch {
      continue;
    }
    const meant = nearestFolder(name, CONTENT_FOLDERS);
    for (const file of files) {
      warnings.push({
        file: `${name}/${file}`,
        field: "file",
        message:
          `ignored: ${name}/ is not a content folder (the folders read are ${list}, from the kinds table)` +
          (meant ? `; did you mean ${meant}/? Move it there` : "; move it into one of them") +
          ", or delete it",
      });
    }
  }
  return warnings;
}

/** Content files (.md, .html) `readContent` does not read: in `root` itself, or in subfolders of a kind's folder. */
export async function strayFiles(root: string): Promise<ContentIssue[]> {
  const where = `content files live directly in ${CONTENT_FOLDERS.map((f) => `${f}/`).join(" or ")}`;
  const warnings: ContentIssue[] = [];
  for (const name of await listFiles(root)) {
    if (contentFileFormat(name)) {
      warnings.push({ file: name, field: "file", message: `ignored: ${where}; move it there, or delete it` });
    }
  }
  for (const folder of CONTENT_FOLDERS) {
    for (const file of await nestedContentFiles(path.join(root, folder), folder)) {
      warnings.push({
        file,
        field: "file",
        message: `ignored: subfolders are not read (${where}); move it up, or delete it`,
      });
    }
  }
  warnings.push(...(await strayFolderWarnings(root)));
  return warnings;
}

/** Content files in subfolders (up to 4 deep) of `dir`, as paths under `relative`; none when `dir` is missing. */
async function nestedContentFiles(dir: string, relative: string, depth = 0): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await entriesByName(dir)) {
    const rel = `${relative}/${entry.name}`;
    if (entry.isDirectory() && depth < 4)
      found.push(...(await nestedContentFiles(path.join(dir, entry.name), rel, depth + 1)));
    else if (depth > 0 && entry.isFile() && contentFileFormat(entry.name)) found.push(rel);
  }
  return found;
}

/** The entries of `dir` sorted by name, for warnings in a stable order; none when it cannot be read. */
async function entriesByName(dir: string): Promise<Dirent[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The names of the files (not folders) in `folder`, sorted; none when it does not exist.
 * @throws for I/O errors other than a missing folder.
 */
export async function listFiles(folder: string): Promise<string[]> {
  try {
    const entries = await readdir(folder, { withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}
