/**
 * What `studio push` reads of the content folder (issue #33 item 6: 100,000 posts × 2 languages, 200,000 files,
 * in < 1 GB, and a re-push of them unchanged < 30 s).
 *
 * Planning holds a small record per item (`PushStub`), not the parsed item: its identity, the source hash the
 * plan compares with the lock's, its body's digest, its draft flag and the date its state is decided from, and
 * its images (featured and body, as read). The body and the rest of the front matter are dropped as soon as the
 * item is validated; the write reads the file again (`loadItem`), validates it again and refuses it when it is no
 * longer what was planned (edited meanwhile).
 *
 * The re-push: the lock records for each item written the files its hash depends on (its own and, for a
 * version in another locale, its default-locale sibling's), with their size, mtime, ctime and inode, and a
 * SHA-256 of their bytes (`LockEntry.source`); its local images are among those files. A file whose stat matches is not read at all (`byStat`); one whose
 * stat differs (a `git checkout`, a `touch`) is read and hashed, and when the bytes are the same it is not
 * parsed either (`byHash`; the new stat is recorded). The SHA-256 recorded is of the bytes that were parsed
 * (not read again), and the stats are taken after: a stat is recorded only when the files' mtime and ctime are
 * older than `RACY_MS` then, so an edit within the same clock tick (which leaves the mtime unchanged at the file
 * system's granularity), or between the parse and the stat, is never mistaken for no change; ctime cannot be
 * set back by tools such as `touch -d`. A file with warnings (HTML the sanitizer removes) has no `source`:
 * it is read at every push, so its warnings are printed every time.
 */
import { createHash } from "node:crypto";
import { readFile as readFileCallback, stat as statCallback } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { ContentKind } from "../../model/content.ts";
import { PUBLISH_AT_COLUMN, dateField } from "../../model/lifecycle.ts";
import { CONTENT_KIND_NAMES, DEFAULT_CONTENT_LOCALE, parseVersionKey } from "../../model/model.ts";
import { bodyDigest } from "../content/body-digest.ts";
import { readContentRecords, readItem, type ContentIssue, type ContentItem, type KeepContext } from "../content/read.ts";
import { inheritFrom } from "../content/versions.ts";
import type { LockEntry, ProjectLock } from "./lock.ts";
import { sourceHash } from "./plan.ts";
import { readContentFolder } from "./push-guards.ts";

const readFile = promisify(readFileCallback);
const stat = promisify(statCallback);

/** A file's stat is trusted only once its mtime and ctime are at least this old when read (see above). */
export const RACY_MS = 2_000;

/** What a planned item holds instead of its parsed file until it is written. */
export interface StubInfo {
  /** `sourceHash` of the item as validated. */
  hash: string;
  /** `bodyDigest` of its body. */
  body: string;
  /** The default-locale file this version took fields from. */
  base: string | null;
  /** What the lock records of its files (`encodeSource`; null: not recorded, a file with warnings). */
  source: string | null;
  /** How the file was known unchanged without parsing it; absent: it was read and validated. */
  by?: "stat" | "hash";
  /** The content folder (absolute), where `loadItem` reads the file again. */
  root: string;
  /** `loadItem` completed the stub with the parsed item. */
  loaded?: true;
}

/**
 * A `ContentItem` without its body (`""`) and with only the front matter its state is decided from: what the
 * plan reads of an item (identity, draft, format, images, the date), and `stub`. Never rendered: the write loads
 * the item again (`loadItem`).
 */
export type PushStub = ContentItem & { stub: StubInfo };

export function isStub(item: ContentItem | null): item is PushStub {
  return item !== null && "stub" in item;
}

/** How many files were known unchanged by their stat, by their bytes' hash, or read and validated. */
export interface ReadCounts {
  byStat: number;
  byHash: number;
  parsed: number;
}

export interface PushRead {
  items: PushStub[];
  issues: ContentIssue[];
  warnings: ContentIssue[];
  counts: ReadCounts;
}

interface FileStat {
  line: string;
  /** The newest of mtime and ctime, in ms. */
  changed: number;
}

async function statOf(root: string, file: string): Promise<FileStat> {
  const s = await stat(path.join(root, file), { bigint: true });
  return {
    line: `${file}|${s.size}|${s.mtimeNs}|${s.ctimeNs}|${s.ino}`,
    changed: Number((s.mtimeNs > s.ctimeNs ? s.mtimeNs : s.ctimeNs) / 1_000_000n),
  };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The `sha` of a source: of each file's path and the SHA-256 of its bytes, in order. */
function sourceSha(files: readonly string[], digests: readonly string[]): string {
  const hash = createHash("sha256");
  files.forEach((file, i) => hash.update(file).update("\0").update(digests[i]!).update("\0"));
  return hash.digest("hex");
}

/** `sourceSha` of the files as they are now. */
async function bytesHash(root: string, files: readonly string[]): Promise<string> {
  return sourceSha(files, await Promise.all(files.map(async (file) => sha256(await readFile(path.join(root, file))))));
}

/** What `LockEntry.source` says, decoded. */
interface Source {
  /** The item's own file first, then its default-locale sibling (`base`), then its local images. */
  files: string[];
  /** A digest of the files' stats (`path|size|mtimeNs|ctimeNs|ino` lines), or "-": too recent to trust. */
  stat: string;
  /** SHA-256 of the files' bytes. */
  sha: string;
  draft: boolean;
  base: string | null;
}

/**
 * `LockEntry.source` as one short string (a lock of 200,000 entries holds one each):
 * `<d|-><b|-> <stat digest|-> <sha256> <file>\t<file>…` (`d`: a draft; `b`: the second file is the base).
 */
export function encodeSource(source: Source): string {
  // Joined, not a template: one flat string, not a tree of concatenations (200,000 of them are held).
  return [`${source.draft ? "d" : "-"}${source.base ? "b" : "-"}`, source.stat, source.sha, source.files.join("\t")].join(" ");
}

function decodeSource(text: string | undefined): Source | null {
  const match = text ? /^([d-])([b-]) (\S+) ([0-9a-f]{64}) (.+)$/.exec(text) : null;
  if (!match) return null;
  const files = match[5]!.split("\t");
  return { draft: match[1] === "d", base: match[2] === "b" ? (files[1] ?? null) : null, stat: match[3]!, sha: match[4]!, files };
}

const statDigest = (lines: readonly string[]) => createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 32);

/**
 * The `source` of `files` whose bytes had the `sha` (`sourceSha`; default: as they are now), with their stats
 * taken after those bytes were read: trusted (recorded) only when no file changed within `RACY_MS` of now, so a
 * stat recorded is one of bytes no later than those hashed (a file changed since has a later ctime).
 */
async function sourceOf(root: string, files: readonly string[], draft: boolean, base: string | null, sha?: string): Promise<Source> {
  const hashed = sha ?? (await bytesHash(root, files));
  const now = Date.now();
  const stats = await Promise.all(files.map((f) => statOf(root, f)));
  const racy = stats.some((s) => now - s.changed < RACY_MS);
  return { files: [...files], stat: racy ? "-" : statDigest(stats.map((s) => s.line)), sha: hashed, draft, base };
}

/** The front matter a stub keeps: what `dueTimeOf` reads. */
function dueFields(item: ContentItem): ContentItem["frontMatter"] {
  const fm = item.frontMatter as Record<string, unknown>;
  const date = dateField(item.kind);
  const kept: Record<string, unknown> = {};
  if (fm[PUBLISH_AT_COLUMN] !== undefined) kept[PUBLISH_AT_COLUMN] = fm[PUBLISH_AT_COLUMN];
  if (date && fm[date] !== undefined) kept[date] = fm[date];
  return kept as ContentItem["frontMatter"];
}

async function stubOf(root: string, item: ContentItem, context: KeepContext): Promise<PushStub> {
  // Its own file, the default-locale file it took fields from, and the images it uploads (their bytes are in
  // its hash): what the next push stats.
  const images = [...(item.image && "bytes" in item.image ? [item.image] : []), ...(item.bodyImages ?? []).map((b) => b.image)];
  const files = [item.file, ...(context.base ? [context.base] : []), ...images.map((i) => path.relative(root, i.path).split(path.sep).join("/"))];
  // The digests of the bytes parsed (not read again: a file edited since must not look unchanged next time).
  const digests = [context.bytes[item.file]!, ...(context.base ? [context.bytes[context.base]!] : []), ...images.map((i) => sha256(i.bytes))];
  const parsed = digests.every(Boolean) ? sourceSha(files, digests) : null;
  const source = context.warned || !parsed ? null : encodeSource(await sourceOf(root, files, item.draft, context.base, parsed));
  const stub: StubInfo = { hash: sourceHash(item), body: bodyDigest(item.format, item.body), base: context.base, source, root };
  // A new object, of one shape for every stub: the parsed item (and what only it references) is dropped.
  const { kind, file, slug, locale, draft, format, image, bodyImages } = item;
  return { kind, file, slug, locale, draft, format, body: "", image, bodyImages, frontMatter: dueFields(item), inherited: undefined, stub } as PushStub;
}

/**
 * Reads and validates the content folder for a push, keeping a `PushStub` per item; files the lock says are
 * unchanged (see above) are not parsed. `checkedBodies`: as `readContent`'s.
 * @throws {ContentFolderError} as `readContentFolder` (a missing folder, or no content file in it).
 */
export async function readForPush(
  contentDir: string,
  project: ProjectLock,
  options: { checkedBodies?: ReadonlySet<string> } = {},
): Promise<PushRead> {
  const root = path.resolve(contentDir);
  const counts: ReadCounts = { byStat: 0, byHash: 0, parsed: 0 };
  // The lock's entries with a `source`, by their own file.
  const byFile = new Map<string, { kind: ContentKind; key: string; entry: LockEntry; source: Source }>();
  for (const kind of CONTENT_KIND_NAMES) {
    for (const [key, entry] of Object.entries(project[kind])) {
      const source = decodeSource(entry.source);
      if (source) byFile.set(`${kind}\n${source.files[0]}`, { kind, key, entry, source });
    }
  }
  const known = async (kind: ContentKind, file: string): Promise<PushStub | null> => {
    const found = byFile.get(`${kind}\n${file}`);
    if (!found) return null;
    const { source } = found;
    let by: StubInfo["by"];
    let now = found.entry.source!;
    try {
      const stats = await Promise.all(source.files.map((f) => statOf(root, f)));
      if (source.stat !== "-" && statDigest(stats.map((s) => s.line)) === source.stat) by = "stat";
      else {
        const fresh = await sourceOf(root, source.files, source.draft, source.base);
        if (fresh.sha !== source.sha) return null;
        by = "hash";
        now = encodeSource(fresh);
      }
    } catch {
      return null; // a file gone: read the folder's files as they are
    }
    const { slug, locale } = parseVersionKey(found.key);
    const format = /\.html?$/i.test(file) ? "html" : "markdown";
    const stub: StubInfo = { hash: found.entry.hash, body: found.entry.body ?? "", base: source.base, source: now, by, root };
    counts[by === "stat" ? "byStat" : "byHash"] += 1;
    const frontMatter = {};
    return { kind, file, slug, locale, draft: source.draft, format, body: "", image: null, bodyImages: undefined, frontMatter, inherited: undefined, stub } as unknown as PushStub;
  };
  // The same refusals as `readContentFolder` (a missing folder, nothing in it) before anything else.
  const read = await readContentRecords<PushStub>(root, {
    ...options,
    known,
    keep: (item, context) => {
      counts.parsed += 1;
      return stubOf(root, item, context);
    },
  });
  if (read.items.length === 0 && read.issues.length === 0) await readContentFolder(contentDir, options); // throws
  return { ...read, counts };
}

/** A stub whose file is not read whole yet (`loadItem`). */
export function needsLoad(item: ContentItem | null): item is PushStub {
  return isStub(item) && !item.stub.loaded;
}

/**
 * Reads the file(s) of `stub` again and validates them as `readContent` does (a version's inherited fields
 * included), and completes the stub in place with the parsed item's body, front matter and images (so the plan's
 * rendering reads them). For a write, the file must still be what was planned: an error message when it no
 * longer reads as a valid item or its source hash changed (edited since the plan), and the stub is left as is.
 * `planning`: read for the plan itself (an update's diff): the stub takes the file as it is now, its hash too.
 */
export async function loadItem(stub: PushStub, options: { planning?: boolean } = {}): Promise<PushStub | { error: string }> {
  const { root } = stub.stub;
  const format = /\.html?$/i.test(stub.file) ? "html" : "markdown";
  const again = "was edited or removed since the push planned it; nothing was written for it: push again";
  let read;
  try {
    read = await readItem(stub.kind, path.join(root, stub.file), stub.file, format, { checkedBodies: new Set([stub.stub.body]) });
  } catch {
    return { error: `${stub.file} ${again}` };
  }
  if (!("item" in read)) return { error: `${stub.file} ${again} (${read.issues.map((i) => `${i.field}: ${i.message}`).join("; ")})` };
  const item = read.item;
  if (item.locale !== DEFAULT_CONTENT_LOCALE) {
    let base: Pick<ContentItem, "frontMatter" | "image"> | null = null;
    if (stub.stub.base) {
      const baseFormat = /\.html?$/i.test(stub.stub.base) ? "html" : "markdown";
      const baseRead = await readItem(stub.kind, path.join(root, stub.stub.base), stub.stub.base, baseFormat, {
        frontMatterOnly: true,
      }).catch(() => null);
      if (baseRead && "item" in baseRead) base = baseRead.item;
    }
    if (inheritFrom(item, base).length > 0) return { error: `${stub.file} ${again}` };
  }
  const hash = sourceHash(item);
  if (!options.planning && hash !== stub.stub.hash) return { error: `${stub.file} ${again}` };
  const { body, frontMatter, inherited, image, bodyImages, draft } = item;
  Object.assign(stub, { body, frontMatter, inherited, image, bodyImages, draft });
  Object.assign(stub.stub, { hash, body: bodyDigest(item.format, body), loaded: true });
  return stub;
}
