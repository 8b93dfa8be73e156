import type { Store } from "./store.ts";

/** A bucket (Appwrite `Bucket` model fields, REFERENCE §3). */
export interface BucketRecord {
  seq: number;
  id: string;
  name: string;
  permissions: string[];
  fileSecurity: boolean;
  enabled: boolean;
  maximumFileSize: number;
  allowedFileExtensions: string[];
  compression: string;
  encryption: boolean;
  antivirus: boolean;
  transformations: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A stored file (Appwrite `File` model fields) plus its app-generated name on disk. */
export interface FileRecord {
  seq: number;
  bucketSeq: number;
  id: string;
  name: string;
  permissions: string[];
  signature: string;
  mimeType: string;
  sizeOriginal: number;
  sizeActual: number;
  chunksTotal: number;
  chunksUploaded: number;
  diskName: string;
  createdAt: string;
  updatedAt: string;
}

/** Raw `buckets` row. */
export type BucketRow = Record<string, unknown>;
/** Raw `files` row. */
export type FileRow = Record<string, unknown>;

/** Map a `buckets` row to a record. */
export function toBucket(row: BucketRow): BucketRecord {
  return {
    seq: row["seq"] as number,
    id: row["id"] as string,
    name: row["name"] as string,
    permissions: JSON.parse(row["permissions"] as string) as string[],
    fileSecurity: row["file_security"] === 1,
    enabled: row["enabled"] === 1,
    maximumFileSize: row["maximum_file_size"] as number,
    allowedFileExtensions: JSON.parse(row["allowed_file_extensions"] as string) as string[],
    compression: row["compression"] as string,
    encryption: row["encryption"] === 1,
    antivirus: row["antivirus"] === 1,
    transformations: row["transformations"] === 1,
    createdAt: row["created_at"] as string,
    updatedAt: row["updated_at"] as string,
  };
}

/** Map a `files` row to a record. */
export function toFile(row: FileRow): FileRecord {
  return {
    seq: row["seq"] as number,
    bucketSeq: row["bucket_seq"] as number,
    id: row["id"] as string,
    name: row["name"] as string,
    permissions: JSON.parse(row["permissions"] as string) as string[],
    signature: row["signature"] as string,
    mimeType: row["mime_type"] as string,
    sizeOriginal: row["size_original"] as number,
    sizeActual: row["size_actual"] as number,
    chunksTotal: row["chunks_total"] as number,
    chunksUploaded: row["chunks_uploaded"] as number,
    diskName: row["disk_name"] as string,
    createdAt: row["created_at"] as string,
    updatedAt: row["updated_at"] as string,
  };
}

/** The bucket `id`, or `undefined`. */
export function findBucket(store: Store, id: string): BucketRecord | undefined {
  const row = store.stmt("SELECT * FROM buckets WHERE id = ?").get(id) as BucketRow | undefined;
  return row ? toBucket(row) : undefined;
}

/** Insert a bucket; the caller checks the ID is free. */
export function insertBucket(store: Store, b: Omit<BucketRecord, "seq">): void {
  store
    .stmt(
      "INSERT INTO buckets (id, name, permissions, file_security, enabled, maximum_file_size, allowed_file_extensions, compression, encryption, antivirus, transformations, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .run(
      b.id,
      b.name,
      JSON.stringify(b.permissions),
      b.fileSecurity ? 1 : 0,
      b.enabled ? 1 : 0,
      b.maximumFileSize,
      JSON.stringify(b.allowedFileExtensions),
      b.compression,
      b.encryption ? 1 : 0,
      b.antivirus ? 1 : 0,
      b.transformations ? 1 : 0,
      b.createdAt,
      b.updatedAt,
    );
}

/** Sum of `sizeActual` over a bucket's files (the Bucket model's `totalSize`). */
export function bucketTotalSize(store: Store, bucketSeq: number): number {
  return (
    store.stmt("SELECT COALESCE(SUM(size_actual), 0) AS n FROM files WHERE bucket_seq = ?").get(bucketSeq) as {
      n: number;
    }
  ).n;
}

/** The file `id` in bucket `bucketSeq`, or `undefined`. */
export function findFile(store: Store, bucketSeq: number, id: string): FileRecord | undefined {
  const row = store.stmt("SELECT * FROM files WHERE bucket_seq = ? AND id = ?").get(bucketSeq, id) as
    FileRow | undefined;
  return row ? toFile(row) : undefined;
}

/** Insert a file record (its bytes must already be in place on disk). */
export function insertFile(store: Store, f: Omit<FileRecord, "seq">): void {
  const readRoles = f.permissions.filter((p) => p.startsWith('read("')).map((p) => p.slice(6, -2));
  store
    .stmt(
      "INSERT INTO files (bucket_seq, id, name, permissions, read_roles, signature, mime_type, size_original, size_actual, chunks_total, chunks_uploaded, disk_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .run(
      f.bucketSeq,
      f.id,
      f.name,
      JSON.stringify(f.permissions),
      JSON.stringify(readRoles),
      f.signature,
      f.mimeType,
      f.sizeOriginal,
      f.sizeActual,
      f.chunksTotal,
      f.chunksUploaded,
      f.diskName,
      f.createdAt,
      f.updatedAt,
    );
}

/** Delete the file record with internal sequence `seq`. */
export function deleteFileRecord(store: Store, seq: number): void {
  store.stmt("DELETE FROM files WHERE seq = ?").run(seq);
}

/** Record upload progress or completion of a file (chunked uploads). */
export function updateFileUpload(
  store: Store,
  seq: number,
  fields: { chunksUploaded: number; signature: string; mimeType: string; sizeActual: number; updatedAt: string },
): void {
  store
    .stmt(
      "UPDATE files SET chunks_uploaded = ?, signature = ?, mime_type = ?, size_actual = ?, updated_at = ? WHERE seq = ?",
    )
    .run(fields.chunksUploaded, fields.signature, fields.mimeType, fields.sizeActual, fields.updatedAt, seq);
}

/** Change a file's name and permissions (and its read roles used by list filters). */
export function updateFileMetadata(
  store: Store,
  seq: number,
  fields: { name: string; permissions: string[]; updatedAt: string },
): void {
  const readRoles = fields.permissions.filter((p) => p.startsWith('read("')).map((p) => p.slice(6, -2));
  store
    .stmt("UPDATE files SET name = ?, permissions = ?, read_roles = ?, updated_at = ? WHERE seq = ?")
    .run(fields.name, JSON.stringify(fields.permissions), JSON.stringify(readRoles), fields.updatedAt, seq);
}
