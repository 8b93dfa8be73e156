import { createHash, randomBytes } from "node:crypto";
import { appendFileSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { findFile, insertFile, updateFileUpload } from "../db/files.ts";
import type { BucketRecord, FileRecord } from "../db/files.ts";
import type { Store } from "../db/store.ts";
import { nowDatetime } from "../datetime.ts";
import { AppwriteError } from "../errors.ts";
import { makePrivateDir } from "../private-data.ts";
import type { UploadedPart } from "../http/multipart.ts";

/** Chunk size of the SDKs and the server (REFERENCE §4 "Chunked upload protocol"). */
export const CHUNK_SIZE = 5 * 1024 * 1024;

/** A parsed `Content-Range: bytes <start>-<end>/<total>` header. */
export interface ContentRange {
  start: number;
  end: number;
  total: number;
}

/**
 * Parse `Content-Range`; `undefined` when absent. Throws 400 `storage_invalid_content_range`
 * when unparsable, when `end >= total`, or when `start > end` (AW `Files/Create.php`).
 */
export function parseContentRange(header: string | string[] | undefined): ContentRange | undefined {
  if (header === undefined) return undefined;
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(Array.isArray(header) ? (header[0] ?? "") : header);
  const [start, end, total] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [NaN, NaN, NaN];
  if (!match || start > end || end >= total) throw new AppwriteError("storage_invalid_content_range");
  return { start, end, total };
}

/** Where a bucket's files live on disk. */
export interface ChunkTarget {
  bucket: BucketRecord;
  bucketDir: string;
  tempDir: string;
}

/**
 * Store one chunk of a chunked upload. The first chunk creates the file record with
 * `chunksTotal = ceil(total / 5 MiB)`; every chunk (in any order, possibly in parallel) is kept
 * as `<diskName>.chunks/<n>` until all are present, then they are joined into place, and
 * `signature` (MD5), `mimeType` and `sizeActual` are set. Re-posting to a complete file returns
 * it unchanged with status 200. `sniff` detects the MIME type of the joined file.
 */
export async function storeChunk(
  store: Store,
  target: ChunkTarget,
  upload: { id: string; name: string; permissions: string[]; part: UploadedPart; range: ContentRange },
  sniff: (path: string) => Promise<string>,
): Promise<{ status: number; file: FileRecord }> {
  const { bucket, bucketDir, tempDir } = target;
  const chunksTotal = Math.ceil(upload.range.total / CHUNK_SIZE);
  let record = findFile(store, bucket.seq, upload.id);
  if (record && record.chunksUploaded >= record.chunksTotal) return { status: 200, file: record };
  const now = nowDatetime();
  if (!record) {
    insertFile(store, {
      bucketSeq: bucket.seq,
      id: upload.id,
      name: upload.name,
      permissions: upload.permissions,
      signature: "",
      mimeType: "",
      sizeOriginal: upload.range.total,
      sizeActual: 0,
      chunksTotal,
      chunksUploaded: 0,
      diskName: randomBytes(16).toString("hex"),
      createdAt: now,
      updatedAt: now,
    });
    record = findFile(store, bucket.seq, upload.id) as FileRecord;
  }
  const partsDir = join(bucketDir, `${record.diskName}.chunks`);
  makePrivateDir(partsDir);
  renameSync(upload.part.tempPath, join(partsDir, String(Math.floor(upload.range.start / CHUNK_SIZE) + 1)));
  const uploaded = readdirSync(partsDir).length;
  const progress = { chunksUploaded: uploaded, signature: "", mimeType: "", sizeActual: 0, updatedAt: now };
  updateFileUpload(store, record.seq, progress);
  if (uploaded < record.chunksTotal) return { status: 201, file: findFile(store, bucket.seq, upload.id) as FileRecord };

  // Every chunk is present: join them synchronously so no other request sees a partial file.
  const joined = join(tempDir, `${randomBytes(16).toString("hex")}.part`);
  const hash = createHash("md5");
  let size = 0;
  for (let n = 1; n <= record.chunksTotal; n++) {
    const bytes = readFileSync(join(partsDir, String(n)));
    hash.update(bytes);
    size += bytes.length;
    appendFileSync(joined, bytes, { mode: 0o600 });
  }
  const finalPath = join(bucketDir, record.diskName);
  renameSync(joined, finalPath);
  rmSync(partsDir, { recursive: true, force: true });
  const signature = hash.digest("hex");
  updateFileUpload(store, record.seq, { ...progress, signature, sizeActual: size });
  const mimeType = await sniff(finalPath);
  updateFileUpload(store, record.seq, { ...progress, signature, sizeActual: size, mimeType, updatedAt: nowDatetime() });
  return { status: 201, file: findFile(store, bucket.seq, upload.id) as FileRecord };
}
