/**
 * What the lock records of the files a pushed item was read from (`LockEntry.source`, issue #33 item 6), and how
 * `studio push` tells them unchanged: their stats' digest, then the SHA of their bytes (`push-read.ts` describes
 * the rules: `RACY_MS`, the stat recorded after the bytes were read).
 */
import { createHash } from "node:crypto";
import { readFile as readFileCallback, statSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { sha256Hex } from "../content/body-digest.ts";
import type { ContentItem, LocalImage } from "../content/read.ts";

const readFile = promisify(readFileCallback);

/** A file's stat is trusted only once its mtime and ctime are at least this old when read (`push-read.ts`). */
export const RACY_MS = 2_000;

interface FileStat {
  line: string;
  /** The newest of mtime and ctime, in ms. */
  changed: number;
}

/**
 * The stat line of `file` (under `root`). Synchronous: a stat of a file the read just listed is a few µs in the
 * kernel, where a promise through libuv's thread pool costs several times that (a re-push of 200,000 files
 * stats 300,000; issue #33 item 6).
 * @throws when the file is gone.
 */
export function statOf(root: string, file: string): FileStat {
  const s = statSync(path.join(root, file), { bigint: true });
  return {
    line: `${file}|${s.size}|${s.mtimeNs}|${s.ctimeNs}|${s.ino}`,
    changed: Number((s.mtimeNs > s.ctimeNs ? s.mtimeNs : s.ctimeNs) / 1_000_000n),
  };
}

/**
 * The `sha` of a source: of each file's path and the SHA-256 of its bytes, in order; 128 bits (32 hex) are
 * plenty to tell an edited file from the same bytes (200,000 of these are held in a lock).
 */
export function sourceSha(files: readonly string[], digests: readonly string[]): string {
  const hash = createHash("sha256");
  files.forEach((file, i) => hash.update(file).update("\0").update(digests[i]!).update("\0"));
  return hash.digest("hex").slice(0, 32);
}

/** `sourceSha` of the files as they are now. */
async function bytesHash(root: string, files: readonly string[]): Promise<string> {
  return sourceSha(
    files,
    await Promise.all(files.map(async (file) => sha256Hex(await readFile(path.join(root, file))))),
  );
}

/** What `LockEntry.source` says, decoded. */
export interface Source {
  /** The item's own file first, then its default-locale sibling (`base`), then its local images. */
  files: string[];
  /** A digest of the files' stats (`path|size|mtimeNs|ctimeNs|ino` lines, 16 hex), or "-": too recent to trust. */
  stat: string;
  /** `sourceSha` of the files' bytes. */
  sha: string;
  draft: boolean;
  base: string | null;
}

/**
 * `LockEntry.source` as one short string (a lock of 200,000 entries holds one each):
 * `<d|-><b|-> <stat digest|-> <sha> <file>\t<file>…` (`d`: a draft; `b`: the second file is the base).
 */
export function encodeSource(source: Source): string {
  // Joined, not a template: one flat string, not a tree of concatenations (200,000 of them are held).
  return [
    `${source.draft ? "d" : "-"}${source.base ? "b" : "-"}`,
    source.stat,
    source.sha,
    source.files.join("\t"),
  ].join(" ");
}

/** The item's own file in a `LockEntry.source` (`encodeSource`), or null when there is none. */
export function firstFile(text: string | undefined): string | null {
  if (!text) return null;
  let at = -1;
  for (let spaces = 0; spaces < 3; spaces++) {
    at = text.indexOf(" ", at + 1);
    if (at < 0) return null;
  }
  const tab = text.indexOf("\t", at + 1);
  return text.slice(at + 1, tab < 0 ? undefined : tab) || null;
}

/** `LockEntry.source` decoded (`encodeSource`'s form), or null when there is none or it is not in that form. */
export function decodeSource(text: string | undefined): Source | null {
  const match = text ? /^([d-])([b-]) (\S+) ([0-9a-f]{32}) (.+)$/.exec(text) : null;
  if (!match) return null;
  const files = match[5]!.split("\t");
  return {
    draft: match[1] === "d",
    base: match[2] === "b" ? (files[1] ?? null) : null,
    stat: match[3]!,
    sha: match[4]!,
    files,
  };
}

/** The digest of stat lines (`statOf`) a source records: 16 hex of their SHA-256. */
export const statDigest = (lines: readonly string[]) => sha256Hex(lines.join("\n")).slice(0, 16);

/**
 * The `source` of `files` whose bytes had the `sha` (`sourceSha`; default: as they are now), with their stats
 * taken now, after those bytes were read: trusted (recorded) only when no file changed within `RACY_MS` of now,
 * so a stat recorded is one of bytes no later than those hashed (a file changed since has a later ctime).
 */
export async function sourceOf(
  root: string,
  files: readonly string[],
  draft: boolean,
  base: string | null,
  sha?: string,
): Promise<Source> {
  const hashed = sha ?? (await bytesHash(root, files));
  const now = Date.now();
  const stats = files.map((f) => statOf(root, f));
  const racy = stats.some((s) => now - s.changed < RACY_MS);
  return { files: [...files], stat: racy ? "-" : statDigest(stats.map((s) => s.line)), sha: hashed, draft, base };
}

/** The files an item's hash depends on: its own, the default-locale file it took fields from, its local images. */
export function filesOf(
  root: string,
  item: ContentItem,
  base: string | null,
): { files: string[]; images: LocalImage[] } {
  const images = [
    ...(item.image && "bytes" in item.image ? [item.image] : []),
    ...(item.bodyImages ?? []).map((b) => b.image),
  ];
  const relative = images.map((i) => path.relative(root, i.path).split(path.sep).join("/"));
  return { files: [item.file, ...(base ? [base] : []), ...relative], images };
}
