/**
 * The files phase of a transfer (issue #32 item 4): every file of a bucket, with its id, name and permissions,
 * copied byte for byte (download from the source, upload to the target). A file on the target that differs
 * (bytes, name, type or permissions) is replaced; files are immutable in Appwrite, so replacing is delete and
 * create. Only missing or different files are written.
 */
import { Query, type Models } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { listPages, PAGE_SIZE } from "../appwrite/paginate.ts";
import { canonicalFile } from "./canonical.ts";
import { countsFor, type PhaseCounts, type PhaseOptions } from "./events.ts";
import type { TransferSide } from "./side.ts";
import { isNotFound } from "../appwrite/client.ts";

/** Every page of a bucket's files on `side`. */
export function filePages(side: TransferSide, bucketId: string): AsyncGenerator<Models.File[]> {
  return listPages((queries) => side.services.storage.listFiles({ bucketId, queries }).then((page) => page.files));
}

async function filesById(side: TransferSide, bucketId: string, ids: string[]): Promise<Map<string, Models.File>> {
  try {
    const page = await side.services.storage.listFiles({
      bucketId,
      queries: [Query.equal("$id", ids), Query.limit(Math.min(ids.length, PAGE_SIZE))],
    });
    return new Map(page.files.map((file) => [file.$id, file]));
  } catch (error) {
    if (isNotFound(error)) return new Map(); // the bucket is not there yet (a dry run before the schema)
    throw error;
  }
}

/**
 * Copies bucket `bucketId` from `source` to `target`.
 * @returns what was (or would be) created, replaced (`update`) and left as it was.
 * @throws {AppwriteException} when either side refuses (a missing `files.read`/`files.write` scope: 401).
 */
export async function transferFiles(
  source: TransferSide,
  target: TransferSide,
  bucketId: string,
  options: PhaseOptions,
): Promise<PhaseCounts> {
  const counts = countsFor("files", bucketId);
  const { total } = await source.services.storage.listFiles({ bucketId, queries: [Query.limit(1)] });
  let done = 0;
  for await (const page of filePages(source, bucketId)) {
    const existing = await filesById(
      target,
      bucketId,
      page.map((file) => file.$id),
    );
    for (const file of page) {
      const there = existing.get(file.$id);
      if (there && canonicalFile(there) === canonicalFile(file)) {
        counts.unchanged++;
        continue;
      }
      if (there) counts.update++;
      else counts.create++;
      if (options.dryRun) continue;
      if (there) await target.services.storage.deleteFile({ bucketId, fileId: file.$id });
      const bytes = await source.services.storage.getFileDownload({ bucketId, fileId: file.$id });
      await target.services.storage.createFile({
        bucketId,
        fileId: file.$id,
        file: InputFile.fromBuffer(new Uint8Array(bytes), file.name),
        permissions: file.$permissions,
      });
    }
    done += page.length;
    options.events.onProgress?.({ phase: "files", scope: bucketId, done, total: Math.max(total, done) });
  }
  options.events.onPhase?.(counts);
  return counts;
}
