/**
 * What `studio push` reads of the content folder (issue #33 item 6: 100,000 posts × 2 languages, 200,000 files,
 * in < 1 GB, and a re-push of them unchanged < 30 s).
 *
 * Planning holds a small record per item (`PushStub`), not the parsed item: its identity, the source hash the
 * plan compares with the lock's, a SHA of the bytes parsed, its draft flag and, until planned, the date its state
 * is decided from, and its images (featured and body, as read). The body and the rest of the front matter are
 * dropped as soon as the item is validated; the write reads the file again (`loadItem`: the first push reads each
 * file twice, the price of not holding 200,000 parsed files), validates it again (its body's bounds aside: the
 * same source hash is the same body) and refuses it when it is no longer what was planned (edited meanwhile).
 *
 * The re-push: the lock records for each item written the files its hash depends on (its own and, for a
 * version in another locale, its default-locale sibling's, and its local images), with a digest of their size,
 * mtime, ctime and inode, and a SHA of their bytes (`LockEntry.source`). A file whose stat matches is not read
 * at all (`byStat`); one whose stat differs (a `git checkout`, a `touch`) is read and hashed, and when the bytes
 * are the same it is not parsed either (`byHash`; the new stat is recorded). The SHA recorded is of the bytes
 * that were parsed (by the write's read, or by this push's read for an item agreed unchanged), and the stats are
 * taken after: a stat is recorded only when the files' mtime and ctime are older than `RACY_MS` then, so an edit
 * within the same clock tick (which leaves the mtime unchanged at the file system's granularity), or between
 * the parse and the stat, is never mistaken for no change; ctime cannot be set back by tools such as `touch -d`.
 * A file with warnings (HTML the sanitizer removes) has no `source`: it is read at every push, so its warnings
 * are printed every time.
 */
import path from "node:path";
import type { ContentKind } from "../../model/content.ts";
import { PUBLISH_AT_COLUMN, dateField } from "../../model/lifecycle.ts";
import { CONTENT_KIND_NAMES, DEFAULT_CONTENT_LOCALE, parseVersionKey } from "../../model/model.ts";
import { bodyDigest, sha256Hex } from "../content/body-digest.ts";
import {
  readContentRecords,
  readItem,
  type ContentIssue,
  type ContentItem,
  type KeepContext,
} from "../content/read.ts";
import { inheritFrom, itemKey } from "../content/versions.ts";
import type { ProjectLock } from "./lock.ts";
import { sourceHash } from "./plan.ts";
import { readContentFolder } from "./push-guards.ts";
import {
  decodeSource,
  encodeSource,
  filesOf,
  firstFile,
  sourceOf,
  sourceSha,
  statDigest,
  statOf,
  type Source,
} from "./push-source.ts";

/** What a planned item holds instead of its parsed file until it is written. */
export interface StubInfo {
  /** `sourceHash` of the item as validated. */
  hash: string;
  /**
   * `bodyDigest` of its body: the lock's for a file known unchanged, computed once loaded (`loadItem`); absent
   * for a file parsed by this push's read (its digest is not needed before its write).
   */
  body?: string;
  /** The default-locale file this version took fields from. */
  base: string | null;
  /**
   * `sourceSha` of the bytes parsed (its own file, its base, its images; 32 hex): what the lock's `source` will
   * say of them. Null: a file with warnings, never recorded (read at every push, its warnings printed again).
   */
  sha: string | null;
  /**
   * The lock's `source` for these files: the lock's own (known by stat), a new one (known by hash), or the one
   * `loadItem` made of the bytes it read; absent for a file parsed by this push's read (`sourceNow` makes it).
   */
  source?: string | null;
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

/**
 * What the lock records of a stub's files once it is pushed or agreed unchanged (`LockEntry.source`): the one
 * it already has (known, or loaded), else one of the bytes its read parsed (`sha`) with the files' stats taken
 * now; null for a file with warnings.
 */
export async function sourceNow(stub: PushStub): Promise<string | null> {
  const info = stub.stub;
  if (info.source !== undefined) return info.source;
  if (!info.sha) return null;
  const { files } = filesOf(info.root, stub, info.base);
  try {
    return encodeSource(await sourceOf(info.root, files, stub.draft, info.base, info.sha));
  } catch {
    return null; // a file gone meanwhile: nothing recorded, the next push reads it
  }
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

/**
 * The stub of an item this push's read parsed: no stat is taken (its write, or its agreement, takes them after
 * the bytes it records were read: `loadItem`, `sourceNow`); its body's digest only when given (`body`: its lock
 * entry has none yet).
 */
function stubOf(root: string, item: ContentItem, context: KeepContext, body?: string): PushStub {
  const { files, images } = filesOf(root, item, context.base);
  // The digests of the bytes parsed (not read again: a file edited since must not look unchanged next time).
  const digests = [
    context.bytes[item.file]!,
    ...(context.base ? [context.bytes[context.base]!] : []),
    ...images.map((i) => sha256Hex(i.bytes)),
  ];
  const sha = context.warned || !digests.every(Boolean) ? null : sourceSha(files, digests);
  const stub: StubInfo = { hash: sourceHash(item), body, base: context.base, sha, root };
  // A new object, of one shape for every stub: the parsed item (and what only it references) is dropped.
  const { kind, file, slug, locale, draft, format, image, bodyImages } = item;
  return {
    kind,
    file,
    slug,
    locale,
    draft,
    format,
    body: "",
    image,
    bodyImages,
    frontMatter: dueFields(item),
    inherited: undefined,
    stub,
  } as PushStub;
}

/**
 * Reads and validates the content folder for a push, keeping a `PushStub` per item; files the lock says are
 * unchanged (see above) are not parsed. `checkedBodies`: as `readContent`'s; `onParsed`: called with the number of
 * files parsed so far after each one.
 * @throws {ContentFolderError} as `readContentFolder` (a missing folder, or no content file in it).
 */
export async function readForPush(
  contentDir: string,
  project: ProjectLock,
  options: { checkedBodies?: ReadonlySet<string>; onParsed?: (parsed: number) => void } = {},
): Promise<PushRead> {
  const root = path.resolve(contentDir);
  const counts: ReadCounts = { byStat: 0, byHash: 0, parsed: 0 };
  // The version key of each lock entry with a `source`, by its own file (`kind\nfile`): one string an entry,
  // its `source` decoded only when its file is met (issue #33 item 6: 200,000 entries).
  const byFile = new Map<string, string>();
  for (const kind of CONTENT_KIND_NAMES) {
    const entries = project[kind];
    for (const key in entries) {
      const file = firstFile(entries[key]!.source);
      if (file) byFile.set(`${kind}\n${file}`, key);
    }
  }
  const known = async (kind: ContentKind, file: string): Promise<PushStub | null> => {
    const key = byFile.get(`${kind}\n${file}`);
    const entry = key === undefined ? undefined : project[kind][key];
    const source = decodeSource(entry?.source);
    if (!key || !entry || !source) return null;
    let by: StubInfo["by"];
    let now = entry.source!;
    try {
      const stats = source.files.map((f) => statOf(root, f));
      if (source.stat !== "-" && statDigest(stats.map((s) => s.line)) === source.stat) by = "stat";
      else {
        const fresh = await sourceOf(root, source.files, source.draft, source.base);
        if (fresh.sha !== source.sha) return null;
        fresh.sha = source.sha;
        by = "hash";
        now = encodeSource(fresh);
      }
    } catch {
      return null; // a file gone: read the folder's files as they are
    }
    const { slug, locale } = parseVersionKey(key);
    const format = /\.html?$/i.test(file) ? "html" : "markdown";
    const stub: StubInfo = {
      hash: entry.hash,
      body: entry.body,
      base: source.base,
      sha: source.sha,
      source: now,
      by,
      root,
    };
    counts[by === "stat" ? "byStat" : "byHash"] += 1;
    return {
      kind,
      file,
      slug,
      locale,
      draft: source.draft,
      format,
      body: "",
      image: null,
      bodyImages: undefined,
      frontMatter: NO_FRONT_MATTER,
      inherited: undefined,
      stub,
    } as unknown as PushStub;
  };
  // The same refusals as `readContentFolder` (a missing folder, nothing in it) before anything else.
  const read = await readContentRecords<PushStub>(root, {
    checkedBodies: options.checkedBodies,
    known,
    keep: (item, context) => {
      counts.parsed += 1;
      options.onParsed?.(counts.parsed);
      // A lock entry from before `body` existed learns its body's digest (its file unchanged: `push`).
      const entry = project[item.kind][itemKey(item)];
      const body = entry && entry.body === undefined ? bodyDigest(item.format, item.body) : undefined;
      return stubOf(root, item, context, body);
    },
  });
  if (read.items.length === 0 && read.issues.length === 0) await readContentFolder(contentDir, options); // throws
  return { ...read, counts };
}

/**
 * Once planned, a stub not loaded drops the front matter its state was decided from (`dueFields`): its write
 * loads the file again, and the plan holds 200,000 of them (issue #33 item 6).
 */
export function dropPlanningFields(item: ContentItem | null): void {
  if (needsLoad(item)) item.frontMatter = NO_FRONT_MATTER;
}

/** A stub whose file is not read whole yet (`loadItem`). */
export function needsLoad(item: ContentItem | null): item is PushStub {
  return isStub(item) && !item.stub.loaded;
}

/** The front matter of a stub known unchanged: none (its plan is the fast path's, which reads none). */
const NO_FRONT_MATTER = Object.freeze({}) as ContentItem["frontMatter"];

/**
 * Reads the file(s) of `stub` again and validates them as `readContent` does (a version's inherited fields
 * included), and completes the stub in place with the parsed item's body, front matter and images (so the plan's
 * rendering reads them), its body's digest and the lock's `source` of the bytes read (stats taken after). For a
 * write, the file must still be what was planned: an error message when it no longer reads as a valid item or
 * its source hash changed (edited since the plan), and the stub is left as is; its body is not rendered to check
 * the bounds again (the same hash: the same body, checked by the plan's read). `planning`: read for the plan
 * itself (an update's diff): the stub takes the file as it is now (read with every check when it changed).
 */
export async function loadItem(
  stub: PushStub,
  options: { planning?: boolean } = {},
): Promise<PushStub | { error: string }> {
  const loaded = await readAgain(stub, true);
  if ("error" in loaded) return loaded;
  let { item, digests, warned } = loaded;
  let hash = sourceHash(item);
  if (hash !== stub.stub.hash) {
    const again = "was edited or removed since the push planned it; nothing was written for it: push again";
    if (!options.planning) return { error: `${stub.file} ${again}` };
    const checked = await readAgain(stub, false);
    if ("error" in checked) return checked;
    ({ item, digests, warned } = checked);
    hash = sourceHash(item);
  }
  const { root, base } = stub.stub;
  const { files, images } = filesOf(root, item, base);
  const sha = warned ? null : sourceSha(files, [...digests, ...images.map((i) => sha256Hex(i.bytes))]);
  const source = sha
    ? encodeSource(await sourceOf(root, files, item.draft, base, sha).catch(() => ({ ...NO_SOURCE, sha })))
    : null;
  const { body, frontMatter, inherited, image, bodyImages, draft } = item;
  Object.assign(stub, { body, frontMatter, inherited, image, bodyImages, draft });
  Object.assign(stub.stub, { hash, body: bodyDigest(item.format, body), sha, source, loaded: true });
  return stub;
}

/** A source whose stat could not be taken (a file gone meanwhile): recorded without one ("-"). */
const NO_SOURCE: Source = { files: [], stat: "-", sha: "", draft: false, base: null };

/**
 * `stub`'s file read again, and its base's front matter for a version; `boundsChecked`: the body is not
 * rendered for its bounds (the caller compares the source hash with one whose body passed them).
 * @returns the item, the SHA-256 of its file's bytes (and its base's), whether it had warnings; or an error.
 */
async function readAgain(
  stub: PushStub,
  boundsChecked: boolean,
): Promise<{ item: ContentItem; digests: string[]; warned: boolean } | { error: string }> {
  const { root, base } = stub.stub;
  const format = /\.html?$/i.test(stub.file) ? "html" : "markdown";
  const again = "was edited or removed since the push planned it; nothing was written for it: push again";
  let read;
  try {
    read = await readItem(stub.kind, path.join(root, stub.file), stub.file, format, {
      boundsChecked,
      digestBytes: true,
      readSync: true,
    });
  } catch {
    return { error: `${stub.file} ${again}` };
  }
  if (!("item" in read))
    return { error: `${stub.file} ${again} (${read.issues.map((i) => `${i.field}: ${i.message}`).join("; ")})` };
  const item = read.item;
  const digests = [read.bytes ?? ""];
  if (item.locale !== DEFAULT_CONTENT_LOCALE) {
    let found: Pick<ContentItem, "frontMatter" | "image"> | null = null;
    if (base) {
      const baseFormat = /\.html?$/i.test(base) ? "html" : "markdown";
      const options = { frontMatterOnly: true, digestBytes: true, readSync: true };
      const baseRead = await readItem(stub.kind, path.join(root, base), base, baseFormat, options).catch(() => null);
      if (baseRead && "item" in baseRead) {
        found = baseRead.item;
        digests.push(baseRead.bytes ?? "");
      }
    }
    if (inheritFrom(item, found).length > 0 || (base && !found)) return { error: `${stub.file} ${again}` };
  }
  return { item, digests, warned: (read.warnings?.length ?? 0) > 0 || digests.some((d) => !d) };
}
