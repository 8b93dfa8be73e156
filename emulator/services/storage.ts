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
 * Storage buckets (`POST/GET /storage/buckets`, `GET /storage/buckets/{bucketId}`; API key
 * only; REFERENCE §4 "Storage"). Files are served by `files.ts`.
 */
export function register(router: Router): void {
  router.add("POST", "/storage/buckets", "buckets.write", createBucket);
  router.add("GET", "/storage/buckets", "buckets.read", listBuckets);
  router.add("GET", "/storage/buckets/:bucketId", "buckets.read", getBucket);
}
