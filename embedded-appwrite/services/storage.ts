import { rmSync } from "node:fs";
import { join } from "node:path";
import { bucketTotalSize, findBucket, insertBucket, toBucket } from "../db/files.ts";
import type { BucketRecord, BucketRow } from "../db/files.ts";
import { runList } from "../db/list.ts";
import { nowDatetime } from "../datetime.ts";
import { AppwriteError, invalidParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import {
  boolParam,
  customIdParam,
  intParam,
  pathParam,
  queriesParam,
  searchParam,
  stringArrayParam,
  stringParam,
  totalParam,
} from "../http/params.ts";
import type { Router } from "../http/router.ts";
import { aggregatePermissions, CONTAINER_ACTIONS } from "../permissions.ts";
import { compileQueries, SYSTEM_QUERY_FIELDS } from "../queries.ts";
import type { QuerySchema } from "../queries.ts";

/** Default and largest `maximumFileSize` (AW `_APP_STORAGE_LIMIT` default, 30 MB). */
export const STORAGE_LIMIT = 30_000_000;

const BUCKET_QUERIES: QuerySchema = {
  fields: new Map([
    ...SYSTEM_QUERY_FIELDS,
    ["name", { column: "name", type: "string" }],
    ["enabled", { column: "enabled", type: "boolean" }],
    ["fileSecurity", { column: "file_security", type: "boolean" }],
    ["maximumFileSize", { column: "maximum_file_size", type: "integer" }],
    ["encryption", { column: "encryption", type: "boolean" }],
    ["antivirus", { column: "antivirus", type: "boolean" }],
    ["transformations", { column: "transformations", type: "boolean" }],
  ]),
  selectable: false,
};

/** Appwrite `Bucket` model (REFERENCE §3). */
export function bucketModel(ctx: RequestContext, b: BucketRecord): Record<string, unknown> {
  return {
    $id: b.id,
    $createdAt: b.createdAt,
    $updatedAt: b.updatedAt,
    $permissions: b.permissions,
    fileSecurity: b.fileSecurity,
    name: b.name,
    enabled: b.enabled,
    maximumFileSize: b.maximumFileSize,
    allowedFileExtensions: b.allowedFileExtensions,
    compression: b.compression,
    encryption: b.encryption,
    antivirus: b.antivirus,
    transformations: b.transformations,
    totalSize: bucketTotalSize(ctx.app.store, b.seq),
  };
}

/**
 * Load bucket `id`; missing, or disabled for a non-key caller → 404 `storage_bucket_not_found`.
 */
export function loadBucket(ctx: RequestContext, id: string): BucketRecord {
  const bucket = findBucket(ctx.app.store, id);
  if (!bucket || (!bucket.enabled && !ctx.caller.isKey)) throw new AppwriteError("storage_bucket_not_found");
  return bucket;
}

async function createBucket(ctx: RequestContext) {
  const body = await ctx.body();
  const id = customIdParam(body, "bucketId");
  const name = stringParam(body, "name", { required: true, min: 1, max: 128 });
  const permissions = aggregatePermissions(stringArrayParam(body, "permissions") ?? [], CONTAINER_ACTIONS);
  const extensions = (stringArrayParam(body, "allowedFileExtensions", 64) ?? []).map((e) => e.toLowerCase());
  const compression = stringParam(body, "compression", { max: 16 }) ?? "none";
  if (!["none", "gzip", "zstd"].includes(compression)) {
    throw invalidParam("compression", "Value must be one of (none, gzip, zstd)");
  }
  const now = nowDatetime();
  const bucket = {
    id,
    name,
    permissions,
    fileSecurity: boolParam(body, "fileSecurity", false),
    enabled: boolParam(body, "enabled", true),
    maximumFileSize: intParam(body, "maximumFileSize", STORAGE_LIMIT, { min: 1, max: STORAGE_LIMIT }) ?? STORAGE_LIMIT,
    allowedFileExtensions: extensions,
    compression,
    encryption: boolParam(body, "encryption", true),
    antivirus: boolParam(body, "antivirus", true),
    transformations: boolParam(body, "transformations", true),
    createdAt: now,
    updatedAt: now,
  };
  const store = ctx.app.store;
  if (findBucket(store, id)) throw new AppwriteError("storage_bucket_already_exists");
  insertBucket(store, bucket);
  return { status: 201, json: bucketModel(ctx, findBucket(store, id) as BucketRecord) };
}

function getBucket(ctx: RequestContext) {
  const id = pathParam(ctx, "bucketId");
  const bucket = findBucket(ctx.app.store, id);
  if (!bucket) throw new AppwriteError("storage_bucket_not_found");
  return { status: 200, json: bucketModel(ctx, bucket) };
}

function listBuckets(ctx: RequestContext) {
  const q = compileQueries(queriesParam(ctx), BUCKET_QUERIES);
  const search = searchParam(ctx);
  const scope =
    search === undefined
      ? []
      : [
          {
            sql: `name LIKE ? ESCAPE '\\' OR id = ?`,
            params: [`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, search],
          },
        ];
  const { rows, total } = runList<BucketRow>(
    ctx.app.store,
    { table: "buckets", columns: "*", idColumn: "id", seqColumn: "seq", scope, noun: "Bucket" },
    q,
    totalParam(ctx),
  );
  return { status: 200, json: { total, buckets: rows.map((r) => bucketModel(ctx, toBucket(r))) } };
}

/**
 * `PUT /storage/buckets/{bucketId}`: name (required) and the other bucket settings; omitted
 * ones keep their value. 200 Bucket; 404 `storage_bucket_not_found`.
 */
async function updateBucket(ctx: RequestContext) {
  const id = pathParam(ctx, "bucketId");
  const bucket = findBucket(ctx.app.store, id);
  if (!bucket) throw new AppwriteError("storage_bucket_not_found");
  const body = await ctx.body();
  const name = stringParam(body, "name", { required: true, min: 1, max: 128 });
  const requested = stringArrayParam(body, "permissions");
  const extensions = stringArrayParam(body, "allowedFileExtensions", 64);
  const compression = stringParam(body, "compression", { max: 16 }) ?? bucket.compression;
  if (!["none", "gzip", "zstd"].includes(compression)) {
    throw invalidParam("compression", "Value must be one of (none, gzip, zstd)");
  }
  const flag = (key: string, current: boolean) => (boolParam(body, key, current) ? 1 : 0);
  ctx.app.store
    .stmt(
      "UPDATE buckets SET name = ?, permissions = ?, file_security = ?, enabled = ?, maximum_file_size = ?, allowed_file_extensions = ?, compression = ?, encryption = ?, antivirus = ?, transformations = ?, updated_at = ? WHERE seq = ?",
    )
    .run(
      name,
      JSON.stringify(requested ? aggregatePermissions(requested, CONTAINER_ACTIONS) : bucket.permissions),
      flag("fileSecurity", bucket.fileSecurity),
      flag("enabled", bucket.enabled),
      intParam(body, "maximumFileSize", bucket.maximumFileSize, { min: 1, max: STORAGE_LIMIT }) ?? STORAGE_LIMIT,
      JSON.stringify(extensions ? extensions.map((e) => e.toLowerCase()) : bucket.allowedFileExtensions),
      compression,
      flag("encryption", bucket.encryption),
      flag("antivirus", bucket.antivirus),
      flag("transformations", bucket.transformations),
      nowDatetime(),
      bucket.seq,
    );
  return { status: 200, json: bucketModel(ctx, findBucket(ctx.app.store, id) as BucketRecord) };
}

/** `DELETE /storage/buckets/{bucketId}`: 204; its files' records and bytes go too. */
function deleteBucket(ctx: RequestContext) {
  const bucket = findBucket(ctx.app.store, pathParam(ctx, "bucketId"));
  if (!bucket) throw new AppwriteError("storage_bucket_not_found");
  ctx.app.store.stmt("DELETE FROM buckets WHERE seq = ?").run(bucket.seq);
  ctx.app.store.afterCommit(() => rmSync(join(ctx.app.dataDir, "files", bucket.id), { recursive: true, force: true }));
  return { status: 204, empty: true as const };
}

/**
 * Storage buckets (`POST/GET /storage/buckets`, `GET/PUT/DELETE /storage/buckets/{bucketId}`;
 * API key only; REFERENCE §4 "Storage"). Files are served by `files.ts` and `file-serving.ts`.
 */
export function register(router: Router): void {
  router.add("POST", "/storage/buckets", "buckets.write", createBucket);
  router.add("GET", "/storage/buckets", "buckets.read", listBuckets);
  router.add("GET", "/storage/buckets/:bucketId", "buckets.read", getBucket);
  router.add("PUT", "/storage/buckets/:bucketId", "buckets.write", updateBucket);
  router.add("DELETE", "/storage/buckets/:bucketId", "buckets.write", deleteBucket);
}
