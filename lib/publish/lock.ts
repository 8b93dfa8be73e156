/**
 * The sync lock (issue #7, ARCHITECTURE decision 7): per Appwrite project and per slug, what `studio push`
 * or `studio pull` last agreed with Appwrite: the document's `$id` and `$updatedAt`, and a hash of the
 * content. A remote `$updatedAt` that differs from the lock means someone (the admin) edited the item since;
 * push then stops for that item instead of overwriting the edit.
 *
 * The file is JSON with sorted keys so it diffs cleanly in git; it is written atomically.
 */
import { createHash, randomBytes } from "node:crypto";
import { open, readFile, rename, unlink } from "node:fs/promises";
import path from "node:path";
import type { ContentKind } from "../../model/content.ts";
import { CONTENT_KIND_NAMES } from "../../model/model.ts";
import { AbortError, EXIT } from "../errors.ts";

/** What was agreed for one item at the last push or pull. */
export interface LockEntry {
  /** Appwrite document `$id`. */
  id: string;
  /** The document's `$updatedAt` right after that push or pull. */
  updatedAt: string;
  /** `contentHash` of the item's fields at that moment. */
  hash: string;
  /**
   * `remoteFingerprint` of the document at that moment: a later `$updatedAt` with the same fingerprint (the
   * schedule publishing it) is not an edit. Absent in entries written before it existed.
   */
  remote?: string;
  /**
   * `bodyDigest` of the file's body as pushed (it passed the body bounds then): the next push's `readContent`
   * does not render an unchanged body again to check them (issue #33 item 5). Absent in older entries.
   */
  body?: string;
  /** The image as it was synced: SHA-256 of the local file's bytes and the URL stored in Appwrite. */
  image?: { sha256: string; url: string };
  /**
   * The body's local images as synced (issue #30 item 4): SHA-256 of each file's bytes → the media URL the
   * stored body has for it (`/media/<fileId>`). Pull records the files it found in Appwrite (an image the
   * admin uploaded), so push writes the same URL instead of uploading a copy. Absent without body images.
   */
  bodyImages?: Record<string, string>;
  /**
   * The files the item's hash was read from when it was pushed (its own first, then the default-locale file a
   * version took fields from, then its local images), a digest of their stats (none when they were too recent
   * to trust; 64 bits) and a SHA-256 of their bytes (its first 128 bits), as one string (`push-read.ts`,
   * `encodeSource`): a re-push does not parse a file whose stat, or else whose bytes, are the same (issue #33
   * item 6). Absent, or in another form: read it.
   */
  source?: string;
}

export type ProjectLock = Record<ContentKind, Record<string, LockEntry>>;

export interface LockFile {
  version: 1;
  /** Keyed by Appwrite project id. */
  projects: Record<string, ProjectLock>;
}

/** Thrown when the lock file exists but is not a lock this version understands. */
export class LockFileError extends AbortError {
  override name = "LockFileError";
  constructor(message: string) {
    super(message, { exitCode: EXIT.invalidContent });
  }
}

/** A project's entries with every kind of the table empty. */
const emptyProject = (): ProjectLock => Object.fromEntries(CONTENT_KIND_NAMES.map((kind) => [kind, {}])) as ProjectLock;

/**
 * Reads the lock at `path`; a missing file is an empty lock.
 * @throws {LockFileError} when the file is not valid JSON or not version 1.
 */
export async function readLock(path: string): Promise<LockFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, projects: {} };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LockFileError(`${path} is not valid JSON; restore it from git, or delete it to start over.`);
  }
  const lock = parsed as Partial<LockFile>;
  if (lock.version !== 1 || typeof lock.projects !== "object" || lock.projects === null) {
    throw new LockFileError(`${path} is not a studio lock file (version 1); restore it from git, or delete it.`);
  }
  return lock as LockFile;
}

/**
 * The entries of one project, created empty when absent, with every kind of the table (a lock written before a
 * kind existed gets it empty); the returned object is part of `lock`.
 */
export function projectLock(lock: LockFile, projectId: string): ProjectLock {
  const project = (lock.projects[projectId] ??= emptyProject());
  for (const kind of CONTENT_KIND_NAMES) project[kind] ??= {};
  return project;
}

/**
 * `value` with every object's keys in sorted order (arrays keep theirs): what the lock's text and its digests are
 * made from, so the same lock gives the same bytes whatever order it was built in.
 */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** Levels of the lock written a member at a time: the file, `projects`, a project, a kind (then its entries). */
const STREAMED_LEVELS = 4;
/** Bytes gathered before a write to the file (`writeLock`). */
const WRITE_CHUNK = 1 << 20;

/**
 * The text of `JSON.stringify(sortKeys(value), null, 2)`, in pieces: the lock, its projects, each project and
 * each kind are written a member at a time (`STREAMED_LEVELS`), each entry as one piece, so neither a sorted copy
 * of the whole lock nor its whole text (~90 MB for 200,000 entries, issue #33 item 6) is ever held. `indent`:
 * the line's indentation (JSON strings hold no raw newline, so a member's text is indented by replacing them).
 */
export function* lockChunks(value: unknown, indent = "", level = 0): Generator<string> {
  if (level >= STREAMED_LEVELS || !value || typeof value !== "object" || Array.isArray(value)) {
    const text = JSON.stringify(sortKeys(value), null, 2) ?? "null";
    yield indent ? text.replaceAll("\n", `\n${indent}`) : text;
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined && typeof record[k] !== "function")
    .sort();
  const inner = `${indent}  `;
  yield "{";
  for (let i = 0; i < keys.length; i++) {
    yield `${i ? "," : ""}\n${inner}${JSON.stringify(keys[i])}: `;
    yield* lockChunks(record[keys[i]!], inner, level + 1);
  }
  yield keys.length ? `\n${indent}}` : "}";
}

/**
 * Writes `lock` to `path` atomically: a temporary file beside it, written in ~1 MB pieces (`lockChunks`), keys
 * sorted, fsynced, then renamed over `path` (a push killed meanwhile leaves the old lock whole; SECURITY C47),
 * mode 0600 (SECURITY C73: for the embedded server it lives in `DATA_DIR`, whose files are private). The
 * text is what `JSON.stringify(sortKeys(lock), null, 2)` gives, and a newline.
 * @throws what the file system throws (the temporary file is removed first).
 */
export async function writeLock(path: string, lock: LockFile): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const file = await open(temporary, "w", 0o600);
  try {
    let pending: string[] = [];
    let size = 0;
    for (const chunk of lockChunks(lock)) {
      pending.push(chunk);
      size += chunk.length;
      if (size < WRITE_CHUNK) continue;
      await file.write(pending.join(""));
      pending = [];
      size = 0;
    }
    pending.push("\n");
    await file.write(pending.join(""));
    await file.sync();
    await file.close();
    await rename(temporary, path);
  } catch (error) {
    await file.close().catch(() => {});
    await unlink(temporary).catch(() => {});
    throw error;
  }
}

/**
 * A stable hash of an item's fields (SHA-256 hex of their JSON with sorted keys). The image field is
 * represented by what identifies it locally (the image bytes' SHA-256 or the external URL), so the hash
 * changes when the file changes, not when Appwrite assigns a new URL.
 */
export function contentHash(fields: Record<string, string | null>): string {
  return createHash("sha256")
    .update(JSON.stringify(sortKeys(fields)))
    .digest("hex");
}

/** The lock's file name. */
export const LOCK_FILE_NAME = "studio-lock.json";

/**
 * Where the lock lives: committed beside the content (`content/studio-lock.json`) for a real Appwrite; in
 * `DATA_DIR` for the embedded server, whose data (and so whose sync state) lives there and goes with it.
 */
export function lockPathFor(options: { embedded: boolean; contentDir: string; dataDir: string }): string {
  return path.join(options.embedded ? options.dataDir : options.contentDir, LOCK_FILE_NAME);
}
