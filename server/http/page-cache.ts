/**
 * An in-memory cache of rendered public pages (issue #8: public pages fast by design), safe with a
 * nonce-based Content-Security-Policy (SECURITY C20).
 *
 * A page is stored as a template split on the nonce it was rendered with, and every response gets a fresh
 * nonce joined back in, so no two responses share a nonce. The render's nonce is 128 random bits generated
 * for that render only, so stored content cannot contain it by chance or by design: only the places React
 * and React Router wrote it become slots.
 *
 * Entries are valid for one *generation*: `invalidate()` (called on every write) starts a new one, and a
 * render that began in an older generation is not stored, so a page rendered from data read before a write
 * never outlives that write.
 */
import { createHash } from "node:crypto";
import { constants as zlibConstants, crc32, deflateRawSync } from "node:zlib";
import { LRUCache } from "lru-cache";

/** A rendered page as stored: body and CSP split on the render's nonce. */
export interface PageTemplate {
  /** Response headers other than `Content-Security-Policy`, `Content-Length` and `Date`. */
  headers: ReadonlyArray<readonly [string, string]>;
  /** The HTML, split on the nonce. */
  body: readonly string[];
  /** The Content-Security-Policy header, split on the nonce. */
  csp: readonly string[];
  /** Weak validator of the page without its nonce (RFC 9110 §8.8.3: same content, different nonce). */
  etag: string;
  /** UTF-8 size of the body, in bytes. */
  bytes: number;
  /** The body's parts as raw-deflate runs ending on a byte boundary (for `gzipTemplate`). */
  deflated: readonly Buffer[];
  /** The body's parts as UTF-8. */
  encoded: readonly Buffer[];
}

export interface PageCacheOptions {
  /** Most pages kept (least recently used go first). Default 500. */
  maxEntries?: number;
  /** Most body bytes kept. Default 32 MiB. */
  maxBytes?: number;
  /** Longest an entry is trusted, in ms, even without a write. Default `PAGE_MAX_AGE_MS` (60 s). */
  maxAgeMs?: number;
  /** Clock, in ms (tests). */
  now?: () => number;
}

/**
 * Default longest life of a cached page, in ms, whatever the change feed says: 60 s. Appwrite sends a realtime
 * event only to the roles that may read the document *after* the write, so an update that removes
 * `read("any")` (unpublishing in the console, or through REST) reaches no guest subscriber, and a page that
 * showed the document would otherwise be served until the next event. The age bound caps that at 60 s (SECURITY
 * C55; docs/decisions/0006). Re-rendering each page once a minute costs nothing measurable next to serving it.
 */
export const PAGE_MAX_AGE_MS = 60_000;

interface Entry {
  page: PageTemplate;
  storedAt: number;
}

/** The nonce in a CSP header (`'nonce-<base64>'`), or null. */
export function cspNonce(csp: string): string | null {
  return /'nonce-([A-Za-z0-9+/_-]+={0,2})'/.exec(csp)?.[1] ?? null;
}

/**
 * Makes a template from a rendered page. `nonce` must be the render's own nonce (see the module comment).
 * @throws {Error} when `nonce` is shorter than 16 characters (it would not be unguessable).
 */
export function makeTemplate(
  html: string,
  csp: string,
  nonce: string,
  headers: ReadonlyArray<readonly [string, string]>,
): PageTemplate {
  if (nonce.length < 16) throw new Error("a page template needs the render's 128-bit nonce");
  const body = html.split(nonce);
  const digest = createHash("sha256");
  for (const part of body) digest.update(part);
  const encoded = body.map((part) => Buffer.from(part));
  return {
    headers,
    body,
    csp: csp.split(nonce),
    etag: `W/"${digest.digest("base64url").slice(0, 32)}"`,
    bytes: Buffer.byteLength(html),
    // Full flush: each run ends byte-aligned with the dictionary reset, so runs can be spliced (RFC 1951 §3.2.4).
    deflated: encoded.map((part) => deflateRawSync(part, { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH })),
    encoded,
  };
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]); // deflate, no name, no mtime, OS unknown
const LAST_EMPTY_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]); // BFINAL stored block of length 0

/** A non-final stored deflate block holding `data` (≤ 65,535 bytes; RFC 1951 §3.2.4), byte-aligned. */
function storedBlock(data: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header[0] = 0x00; // BFINAL=0, BTYPE=00 (no compression), padded to the byte
  header.writeUInt16LE(data.length, 1);
  header.writeUInt16LE(~data.length & 0xffff, 3);
  return Buffer.concat([header, data]);
}

/**
 * The page with `nonce` in every slot as one gzip member (RFC 1952), built from the precompressed parts: the
 * nonce goes in as stored blocks, so a response costs a CRC-32 of the body instead of compressing it.
 * @throws {RangeError} when `nonce` is longer than 65,535 bytes.
 */
export function gzipTemplate(page: PageTemplate, nonce: string): Buffer {
  const nonceBytes = Buffer.from(nonce);
  if (nonceBytes.length > 0xffff) throw new RangeError("nonce too long for a stored block");
  const nonceBlock = storedBlock(nonceBytes);
  const chunks: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  page.deflated.forEach((run, index) => {
    if (index > 0) {
      chunks.push(nonceBlock);
      crc = crc32(nonceBytes, crc);
    }
    chunks.push(run);
    crc = crc32(page.encoded[index]!, crc);
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(filledLength(page, nonceBytes.length) >>> 0, 4); // ISIZE: length mod 2^32
  chunks.push(LAST_EMPTY_BLOCK, trailer);
  return Buffer.concat(chunks);
}

/** Bytes of the page's body with a nonce of `nonceBytes` bytes in every slot. */
export function filledLength(page: PageTemplate, nonceBytes: number): number {
  let length = (page.body.length - 1) * nonceBytes;
  for (const part of page.encoded) length += part.length;
  return length;
}

/**
 * The page's HTML as UTF-8 bytes with `nonce` in every slot (its CSP: `page.csp.join(nonce)`): the stored
 * bytes of its parts copied around the nonce's, so a hit never builds or encodes the whole page as a string
 * again (that took 3/4 of a hit's CPU for an 88 kB page without gzip).
 */
export function fillTemplate(page: PageTemplate, nonce: string): Buffer {
  const nonceBytes = Buffer.from(nonce);
  const parts: Buffer[] = [];
  page.encoded.forEach((part, index) => {
    if (index > 0) parts.push(nonceBytes);
    parts.push(part);
  });
  return Buffer.concat(parts, filledLength(page, nonceBytes.length));
}

/** Least-recently-used page templates by key, bounded in count, bytes and age, cleared by generation. */
export class PageCache {
  private readonly entries: LRUCache<string, Entry>;
  private generationValue = 0;
  /** Longest an entry is served, in ms (`PageCacheOptions.maxAgeMs`). */
  readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(options: PageCacheOptions = {}) {
    this.entries = new LRUCache<string, Entry>({
      max: options.maxEntries ?? 500,
      maxSize: options.maxBytes ?? 32 * 1024 * 1024,
      sizeCalculation: (entry) => Math.max(1, entry.page.bytes),
    });
    this.maxAgeMs = options.maxAgeMs ?? PAGE_MAX_AGE_MS;
    this.now = options.now ?? Date.now;
  }

  /** The current generation; pass it to `store` with a page rendered after reading it. */
  get generation(): number {
    return this.generationValue;
  }

  /** Number of pages held. */
  get size(): number {
    return this.entries.size;
  }

  /** The page stored under `key` if it is younger than `maxAgeMs`. */
  lookup(key: string): PageTemplate | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.storedAt > this.maxAgeMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.page;
  }

  /**
   * Stores `page` under `key` if no write happened since `generation` was read and it fits.
   * @returns whether the page was stored.
   */
  store(key: string, page: PageTemplate, generation: number): boolean {
    if (generation !== this.generationValue) return false;
    // lru-cache keeps nothing larger than `maxSize` (and drops what the key held): the key then is absent.
    return this.entries.set(key, { page, storedAt: this.now() }).has(key);
  }

  /** Drops every page and starts a new generation (call it on every write). */
  invalidate(): void {
    this.generationValue += 1;
    this.entries.clear();
  }
}
