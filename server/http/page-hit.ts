/**
 * The answers to a page-cache hit, laid out once per stored page (issue #33 item 3): the header lists as flat
 * `[name, value, …]` arrays for `res.writeHead` (one call instead of a `setHeader` per header), and the bodies
 * with their nonce slots (`page-body.ts`). A hit then writes one status line, one header list with its fresh
 * CSP, and one buffer.
 *
 * The headers are the ones `CachedPages` has always sent for a hit, in the same order and spelling: `Vary`,
 * the site's common headers, the caching headers, `ETag`, then (not on a 304) the page's own headers, the CSP,
 * `Content-Encoding` and `Content-Length`. A later header of the same name (any case) replaces an earlier one
 * in its place, as `res.setHeader` does.
 */
import type { ServerResponse } from "node:http";
import { fillSlots, gzipLayout, identityLayout, NONCE_LENGTH, SpareBuffers, type SlottedBody } from "./page-body.ts";
import { filledLength, type PageTemplate } from "./page-cache.ts";

type HeaderList = ReadonlyArray<readonly [string, string]>;

/** How a hit is answered: gzip body, identity body, identity headers only (`HEAD`), or 304 Not Modified. */
export type HitVariant = "gzip" | "identity" | "head" | "not-modified";

/** A stored page's hit answers, from `prepareHit`. */
export interface PreparedHit {
  /** Weak validator of the page (`PageTemplate.etag`). */
  etag: string;
  /** The page's CSP split on its nonce. */
  csp: readonly string[];
  /** Flat header lists per variant; the CSP's value is at `cspAt` (a placeholder until a hit fills it). */
  headers: Record<HitVariant, string[]>;
  cspAt: number;
  gzip: SlottedBody;
  identity: SlottedBody;
}

/** Headers in `setHeader` order: a name given again (any case) takes the new spelling and value in its old place. */
function merged(lists: HeaderList[]): string[] {
  const byName = new Map<string, [string, string]>();
  for (const list of lists) for (const [name, value] of list) byName.set(name.toLowerCase(), [name, value]);
  return [...byName.values()].flat();
}

/**
 * Lays out the answers to hits on `page`. `lead`: the headers every answer starts with (`Vary`, the site's
 * common headers, the page URL's caching headers), before `ETag`.
 */
export function prepareHit(page: PageTemplate, lead: HeaderList): PreparedHit {
  const gzip = gzipLayout(page);
  const identity = identityLayout(page);
  const head: HeaderList = [...lead, ["ETag", page.etag]];
  const body = (encoding: HeaderList, length: number) =>
    merged([head, page.headers, [["Content-Security-Policy", ""]], encoding, [["Content-Length", String(length)]]]);
  const headers = {
    gzip: body([["Content-Encoding", "gzip"]], gzip.bytes.length),
    identity: body([], identity.bytes.length),
    head: body([], filledLength(page, NONCE_LENGTH)),
    "not-modified": merged([head]),
  };
  const cspAt =
    headers.identity.findIndex((value, i) => i % 2 === 0 && value.toLowerCase() === "content-security-policy") + 1;
  return { etag: page.etag, csp: page.csp, headers, cspAt, gzip, identity };
}

const spare = new SpareBuffers();
/** The buffer a response is written from, kept on it until its `finish` gives it back. */
const SPARE = Symbol("spare buffer");
type Answering = ServerResponse & { [SPARE]?: Buffer };

/** `finish` listener shared by every hit (no closure per hit): the socket has every byte, the buffer is free. */
function giveBack(this: Answering): void {
  const buffer = this[SPARE];
  if (buffer === undefined) return;
  this[SPARE] = undefined;
  spare.give(buffer);
}

/**
 * Writes the `variant` answer of `hit` with `nonce` (base64, `NONCE_LENGTH` characters: fresh for every
 * response, SECURITY C20) in the CSP and in every slot of the body. A 304 carries no CSP: the browser keeps the
 * stored response's, whose nonce matches its body.
 * @throws {RangeError} when `nonce` is not `NONCE_LENGTH` characters.
 */
export function writeHit(hit: PreparedHit, res: ServerResponse, variant: HitVariant, nonce: string): void {
  const headers = hit.headers[variant];
  if (variant === "not-modified") {
    res.writeHead(304, headers).end();
    return;
  }
  if (nonce.length !== NONCE_LENGTH) throw new RangeError(`a nonce here is ${NONCE_LENGTH} characters`);
  // The list is reused: `writeHead` reads it synchronously and keeps nothing of it.
  headers[hit.cspAt] = hit.csp.join(nonce);
  res.writeHead(200, headers);
  if (variant === "head") {
    res.end();
    return;
  }
  const body = variant === "gzip" ? hit.gzip : hit.identity;
  const buffer = spare.take(body.bytes.length);
  // Given back on `finish` (every byte handed to the system); a response cut short keeps it (collected).
  (res as Answering)[SPARE] = buffer;
  res.on("finish", giveBack);
  res.end(fillSlots(body, nonce, buffer));
}
