/**
 * The checks `studio push` makes before it writes anything (SECURITY C59): the content folder exists and holds
 * content files, and a prune does not delete more than half of what was pushed without confirmation.
 */
import { stat } from "node:fs/promises";
import path from "node:path";
import type { Models } from "node-appwrite";
import { CONTENT_KINDS, type ContentKind } from "../../model/content.ts";
import { CONTENT_KIND_NAMES, kindFolders } from "../../model/model.ts";
import { readContent, type ContentSet, type ReadContentOptions } from "../content/read.ts";
import { AbortError, EXIT } from "../errors.ts";
import type { ProjectLock } from "./lock.ts";
import type { AdminServices } from "../appwrite/client.ts";
import { ExportError, imageFileIdsOf, writeExport, type ExportReport } from "./export.ts";
import type { PlannedItem } from "./plan.ts";

/**
 * The content folder does not exist or holds no venture or post file: most likely a typo in `--dir`, and
 * pushing it (with `--prune`) would delete everything (SECURITY C59). Nothing was written.
 */
export class ContentFolderError extends AbortError {
  override name = "ContentFolderError";
  constructor(message: string) {
    super(message, { exitCode: EXIT.usage });
  }
}

/** A prune would delete more than `MAX_PRUNE_SHARE` of what was pushed, without `allowMassDelete`. */
export class MassDeleteError extends AbortError {
  override name = "MassDeleteError";
  constructor(message: string) {
    super(message, { exitCode: EXIT.usage });
  }
}

/** The share of the pushed items a prune may delete without `allowMassDelete`: half. */
export const MAX_PRUNE_SHARE = 0.5;

/**
 * Reads and validates the content folder, refusing one that is missing or has no content file at all
 * (valid, invalid or draft) in `ventures/` or `posts/`.
 * @throws {ContentFolderError} naming the folder looked at and what to do; nothing has been written.
 */
export async function readContentFolder(contentDir: string, options: ReadContentOptions = {}): Promise<ContentSet> {
  const absolute = path.resolve(contentDir);
  const exists = await stat(absolute).then(
    (s) => s.isDirectory(),
    () => false,
  );
  const folders = CONTENT_KIND_NAMES.map((kind) => `${CONTENT_KINDS[kind].folder}/`).join(" or ");
  if (!exists) {
    throw new ContentFolderError(
      `The content folder ${absolute} does not exist (looked for ${folders} in it); nothing was written or deleted. ` +
        `Pass --dir <folder> with your content folder (default: content, relative to the current directory).`,
    );
  }
  const content = await readContent(absolute, options);
  if (content.items.length === 0 && content.issues.length === 0) {
    throw new ContentFolderError(
      `The content folder ${absolute} has no .md or .html file in ${folders}; nothing was written or deleted. ` +
        `Check --dir (it must be the folder holding ${kindFolders("and")}); to remove everything, delete the items in the admin.`,
    );
  }
  return content;
}

/**
 * Refuses a prune that deletes more than `MAX_PRUNE_SHARE` of the `tracked` items (those pushed from these
 * files) unless `allow` (SECURITY C59: a wrong `--dir`, or a checkout missing files, must not empty the site).
 * @throws {MassDeleteError} saying how many, and which flag confirms it.
 */
export function checkMassDelete(deletions: number, tracked: number, allow: boolean, contentDir: string): void {
  if (allow || deletions === 0 || deletions <= tracked * MAX_PRUNE_SHARE) return;
  throw new MassDeleteError(
    `push --prune would delete ${deletions} of the ${tracked} item(s) pushed from ${path.resolve(contentDir)} ` +
      `(more than half); nothing was written or deleted. Check --dir and that the files are there; if these ` +
      `deletions are intended, run it again with --allow-mass-delete.`,
  );
}

/** Items of `project` (the lock) that are still the same documents in Appwrite. */
export function trackedCount(
  project: ProjectLock,
  remote: Record<ContentKind, Map<string, Models.DefaultRow>>,
): number {
  let n = 0;
  for (const kind of Object.keys(CONTENT_KINDS) as ContentKind[]) {
    for (const [key, entry] of Object.entries(project[kind])) if (remote[kind].get(key)?.$id === entry.id) n++;
  }
  return n;
}

/**
 * Writes what the plan deletes (documents and the images they point at) to an export in `exportDir`
 * before anything is written (SECURITY C48).
 * @throws {ExportError} when there are deletions and no `exportDir`, or the export cannot be written.
 */
export async function exportDeletions(
  services: AdminServices,
  planned: PlannedItem[],
  exportDir: string | undefined,
): Promise<ExportReport | null> {
  const deletions = planned.filter((p) => p.entry.action === "delete" && p.remote);
  if (deletions.length === 0) return null;
  if (!exportDir) {
    throw new ExportError(
      "push would delete items but was given no folder for the export to write first; nothing was deleted.",
    );
  }
  return writeExport(services, {
    dir: exportDir,
    reason: "prune",
    documents: deletions.map((p) => ({ kind: p.entry.kind, document: p.remote! })),
    fileIds: deletions.flatMap((p) => imageFileIdsOf(p.entry.kind, p.remote!)),
  });
}
