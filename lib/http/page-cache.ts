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
}

export interface PageCacheOptions {
  /** Most pages kept (least recently used go first). Default 500. */
  maxEntries?: number;
  /** Most body bytes kept. Default 32 MiB. */
  maxBytes?: number;
  /** Longest an entry is trusted, in ms, even without a write. Default 10 minutes. */
  maxAgeMs?: number;
  /** Clock, in ms (tests). */
  now?: () => number;
}

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
  return {
    headers,
    body,
    csp: csp.split(nonce),
    etag: `W/"${digest.digest("base64url").slice(0, 32)}"`,
    bytes: Buffer.byteLength(html),
  };
}

/** The page's HTML and CSP with `nonce` in every slot. */
export function fillTemplate(page: PageTemplate, nonce: string): { html: string; csp: string } {
  return { html: page.body.join(nonce), csp: page.csp.join(nonce) };
}

/**
 * True when an `If-None-Match` header value matches `etag` by weak comparison (RFC 9110 §13.1.2).
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => opaque(tag) === opaque(etag));
}

/** Least-recently-used page templates by key, bounded in count, bytes and age, cleared by generation. */
export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private generationValue = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(options: PageCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 500;
    this.maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
    this.maxAgeMs = options.maxAgeMs ?? 10 * 60 * 1000;
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
      this.delete(key, entry);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry); // most recently used last
    return entry.page;
  }

  /**
   * Stores `page` under `key` if no write happened since `generation` was read and it fits.
   * @returns whether the page was stored.
   */
  store(key: string, page: PageTemplate, generation: number): boolean {
    if (generation !== this.generationValue || page.bytes > this.maxBytes) return false;
    const old = this.entries.get(key);
    if (old) this.delete(key, old);
    this.entries.set(key, { page, storedAt: this.now() });
    this.bytes += page.bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.delete(oldest, entry);
    }
    return true;
  }

  /** Drops every page and starts a new generation (call it on every write). */
  invalidate(): void {
    this.generationValue += 1;
    this.entries.clear();
    this.bytes = 0;
  }

  private delete(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.page.bytes;
  }
}
