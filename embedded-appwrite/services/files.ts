import { randomBytes } from "node:crypto";
import { renameSync, rmSync } from "node:fs";
import { extname, join } from "node:path";
import { deleteFileRecord, findFile, insertFile, toFile, updateFileMetadata } from "../db/files.ts";
import type { BucketRecord, FileRecord, FileRow } from "../db/files.ts";
import { runList } from "../db/list.ts";
import type { Condition } from "../db/list.ts";
import { nowDatetime } from "../datetime.ts";
import { AppwriteError } from "../errors.ts";
import { makePrivateDir } from "../private-data.ts";
import type { RequestContext } from "../http/context.ts";
import { readMultipart } from "../http/multipart.ts";
import {
  customIdParam,
  isUid,
  pathParam,
  queriesParam,
  searchParam,
  stringArrayParam,
  stringParam,
  totalParam,
} from "../http/params.ts";
import type { Router } from "../http/router.ts";
import {
  aggregatePermissions,
  assertGrantable,
  defaultPermissions,
  isAllowed,
  RECORD_ACTIONS,
} from "../permissions.ts";
import type { Action } from "../permissions.ts";
import { compileQueries, SYSTEM_QUERY_FIELDS } from "../queries.ts";
import { publishFile } from "../realtime/events.ts";
import type { QuerySchema } from "../queries.ts";
import { CHUNK_SIZE, parseContentRange, storeChunk } from "./chunked-upload.ts";
import { sniffMimeType } from "./mime-sniff.ts";
import { loadBucket } from "./storage.ts";

const FILE_QUERIES: QuerySchema = {
  fields: new Map([
    ...SYSTEM_QUERY_FIELDS,
    ["name", { column: "name", type: "string" }],
    ["signature", { column: "signature", type: "string" }],
    ["mimeType", { column: "mime_type", type: "string" }],
    ["sizeOriginal", { column: "size_original", type: "integer" }],
    ["chunksTotal", { column: "chunks_total", type: "integer" }],
    ["chunksUploaded", { column: "chunks_uploaded", type: "integer" }],
  ]),
  selectable: false,
};

/** Appwrite `File` model (REFERENCE §3). */
export function fileModel(bucket: BucketRecord, f: FileRecord): Record<string, unknown> {
  return {
    $id: f.id,
    bucketId: bucket.id,
    $createdAt: f.createdAt,
    $updatedAt: f.updatedAt,
    $permissions: f.permissions,
    name: f.name,
    signature: f.signature,
    mimeType: f.mimeType,
    sizeOriginal: f.sizeOriginal,
    sizeActual: f.sizeActual,
    chunksTotal: f.chunksTotal,
    chunksUploaded: f.chunksUploaded,
    encryption: false,
    compression: "none",
  };
}

/** Directory holding a bucket's files. */
export function bucketDir(ctx: RequestContext, bucket: BucketRecord): string {
  return join(ctx.app.dataDir, "files", bucket.id);
}

/**
 * Load a file the caller may act on (REFERENCE §6 "files"): bucket grant, else with
 * `fileSecurity` the file's own grant (else 404 `storage_file_not_found`); with
 * `fileSecurity` off and no bucket grant → 401 `user_unauthorized`.
 */
export function loadFile(ctx: RequestContext, action: Action): { bucket: BucketRecord; file: FileRecord } {
  const bucket = loadBucket(ctx, pathParam(ctx, "bucketId"));
  const id = pathParam(ctx, "fileId");
  const bucketGrant = isAllowed(ctx.caller, bucket.permissions, action);
  if (!bucketGrant && !bucket.fileSecurity) throw new AppwriteError("user_unauthorized");
  const file = findFile(ctx.app.store, bucket.seq, id);
  if (!file) throw new AppwriteError("storage_file_not_found");
  if (!bucketGrant && !isAllowed(ctx.caller, file.permissions, action)) {
    if (action === "read") throw new AppwriteError("storage_file_not_found");
    throw new AppwriteError("user_unauthorized");
  }
  return { bucket, file };
}

/**
 * `POST /storage/buckets/{bucketId}/files` (multipart; one request ≤ 5 MiB, or chunks with
 * `Content-Range`/`X-Appwrite-Id` handled by `chunked-upload.ts`). Checks bucket
 * `create` (401), size against `maximumFileSize` (400 `storage_invalid_file_size`, "File size
 * not allowed"), extension (400 `storage_file_type_unsupported`, "File extension not allowed"),
 * empty file (400 `storage_file_empty`), duplicate ID (409). The extension is checked on the name, the
 * stored `mimeType` comes from the content alone (`mime-sniff.ts`, as Appwrite's libmagic; SECURITY C61).
 * The bytes go to a temp file and are renamed into place only once every check passed; a rejected upload
 * leaves nothing.
 */
async function createFile(ctx: RequestContext) {
  const bucket = loadBucket(ctx, pathParam(ctx, "bucketId"));
  if (!isAllowed(ctx.caller, bucket.permissions, "create")) throw new AppwriteError("user_unauthorized");
  const range = parseContentRange(ctx.req.headers["content-range"]);
  if (range && range.total > bucket.maximumFileSize) {
    throw new AppwriteError("storage_invalid_file_size", "File size not allowed");
  }
  const limit = range ? CHUNK_SIZE : Math.min(bucket.maximumFileSize, CHUNK_SIZE);
  const tempDir = join(ctx.app.dataDir, "files", ".tmp");
  // One byte over the limit is read so that an oversized part is detectable.
  const { fields, file } = await readMultipart(ctx.req, tempDir, limit + 1);
  const cleanup = () => {
    if (file) rmSync(file.tempPath, { force: true });
  };
  try {
    const headerId = ctx.req.headers["x-appwrite-id"];
    if (typeof headerId === "string" && !isUid(headerId)) throw new AppwriteError("storage_invalid_appwrite_id");
    const id = typeof headerId === "string" ? headerId : customIdParam(fields, "fileId");
    const requested = stringArrayParam(fields, "permissions");
    const permissions =
      requested === undefined ? defaultPermissions(ctx.caller) : aggregatePermissions(requested, RECORD_ACTIONS);
    assertGrantable(ctx.caller, permissions);
    if (!file || file.size === 0) throw new AppwriteError("storage_file_empty");
    if (file.truncated || file.size > limit) {
      throw new AppwriteError("storage_invalid_file_size", "File size not allowed");
    }
    if (range && file.size !== range.end - range.start + 1) throw new AppwriteError("storage_invalid_content_range");
    const extension = extname(file.filename).slice(1).toLowerCase();
    if (bucket.allowedFileExtensions.length > 0 && !bucket.allowedFileExtensions.includes(extension)) {
      throw new AppwriteError("storage_file_type_unsupported", "File extension not allowed");
    }
    const store = ctx.app.store;
    if (range && range.end + 1 - range.start !== range.total) {
      const dir = bucketDir(ctx, bucket);
      makePrivateDir(dir);
      const target = { bucket, bucketDir: dir, tempDir };
      const upload = { id, name: file.filename, permissions, part: file, range };
      const { status, file: stored } = await storeChunk(store, target, upload, sniffMimeType);
      const model = fileModel(bucket, stored);
      if (stored.chunksUploaded === stored.chunksTotal) publishFile(ctx.app.events, bucket, model, "create");
      return { status, json: model };
    }
    if (findFile(store, bucket.seq, id)) throw new AppwriteError("storage_file_already_exists");
    const mimeType = await sniffMimeType(file.tempPath);
    const diskName = randomBytes(16).toString("hex");
    const dir = bucketDir(ctx, bucket);
    makePrivateDir(dir);
    const finalPath = join(dir, diskName);
    renameSync(file.tempPath, finalPath);
    const now = nowDatetime();
    try {
      insertFile(store, {
        bucketSeq: bucket.seq,
        id,
        name: file.filename,
        permissions,
        signature: file.md5,
        mimeType,
        sizeOriginal: file.size,
        sizeActual: file.size,
        chunksTotal: 1,
        chunksUploaded: 1,
        diskName,
        createdAt: now,
        updatedAt: now,
      });
    } catch (error) {
      rmSync(finalPath, { force: true });
      if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE")
        throw new AppwriteError("storage_file_already_exists");
      throw error;
    }
    const model = fileModel(bucket, findFile(store, bucket.seq, id) as FileRecord);
    publishFile(ctx.app.events, bucket, model, "create");
    return { status: 201, json: model };
  } finally {
    cleanup();
  }
}

function listFiles(ctx: RequestContext) {
  const bucket = loadBucket(ctx, pathParam(ctx, "bucketId"));
  const q = compileQueries(queriesParam(ctx), FILE_QUERIES);
  const scope: Condition[] = [{ sql: "bucket_seq = ?", params: [bucket.seq] }];
  if (!isAllowed(ctx.caller, bucket.permissions, "read")) {
    if (!bucket.fileSecurity) throw new AppwriteError("user_unauthorized");
    const roles = [...ctx.caller.roles];
    scope.push({
      sql: `EXISTS (SELECT 1 FROM json_each(read_roles) WHERE value IN (${roles.map(() => "?").join(", ")}))`,
      params: roles,
    });
  }
  const search = searchParam(ctx);
  if (search !== undefined)
    scope.push({ sql: `name LIKE ? ESCAPE '\\'`, params: [`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`] });
  const { rows, total } = runList<FileRow>(
    ctx.app.store,
    { table: "files", columns: "*", idColumn: "id", seqColumn: "seq", scope, noun: "File" },
    q,
    totalParam(ctx),
  );
  return { status: 200, json: { total, files: rows.map((r) => fileModel(bucket, toFile(r))) } };
}

function getFile(ctx: RequestContext) {
  const { bucket, file } = loadFile(ctx, "read");
  return { status: 200, json: fileModel(bucket, file) };
}

/**
 * `PUT …/files/{fileId}` `{name?, permissions?}`: 200 File. Needs bucket or (fileSecurity) file
 * `update` (401 `user_unauthorized`); a non-key caller may only grant roles it holds.
 */
async function updateFile(ctx: RequestContext) {
  const { bucket, file } = loadFile(ctx, "update");
  const body = await ctx.body();
  const name = stringParam(body, "name", { max: 255 }) ?? file.name;
  const requested = stringArrayParam(body, "permissions");
  const permissions = requested === undefined ? file.permissions : aggregatePermissions(requested, RECORD_ACTIONS);
  if (requested !== undefined) assertGrantable(ctx.caller, permissions);
  updateFileMetadata(ctx.app.store, file.seq, { name, permissions, updatedAt: nowDatetime() });
  const model = fileModel(bucket, findFile(ctx.app.store, bucket.seq, file.id) as FileRecord);
  publishFile(ctx.app.events, bucket, model, "update");
  return { status: 200, json: model };
}

function deleteFile(ctx: RequestContext) {
  const { bucket, file } = loadFile(ctx, "delete");
  deleteFileRecord(ctx.app.store, file.seq);
  // The bytes go once the record's deletion is committed (a failed commit keeps both).
  const dir = bucketDir(ctx, bucket);
  ctx.app.store.afterCommit(() => {
    rmSync(join(dir, file.diskName), { force: true });
    rmSync(join(dir, `${file.diskName}.chunks`), { recursive: true, force: true });
  });
  publishFile(ctx.app.events, bucket, fileModel(bucket, file), "delete");
  return { status: 204, empty: true as const };
}

/**
 * Files of a bucket (REFERENCE §4 "Storage", §6): upload (201), list, get, update (PUT
 * name/permissions), delete (204); `file-serving.ts` serves view, download and preview. Guests need bucket `create`/`read`/`delete`
 * or, with `fileSecurity`, the file's own `read`/`delete`.
 */
export function register(router: Router): void {
  const base = "/storage/buckets/:bucketId/files";
  router.add("POST", base, "files.write", createFile);
  router.add("GET", base, "files.read", listFiles);
  router.add("GET", `${base}/:fileId`, "files.read", getFile);
  router.add("DELETE", `${base}/:fileId`, "files.write", deleteFile);
  router.add("PUT", `${base}/:fileId`, "files.write", updateFile);
}
