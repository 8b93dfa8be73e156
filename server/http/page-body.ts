/**
 * A cached page's body laid out once per stored page (issue #33 item 3), so a hit fills a fresh nonce in with
 * a copy of one buffer and a few small writes: no concatenation of parts, no compression, and no CRC-32 over
 * the whole body.
 *
 * The gzip member (RFC 1952) is the page's precompressed runs with each nonce slot as a stored deflate block
 * (RFC 1951 §3.2.4), as `gzipTemplate` builds it. Its CRC-32 is combined from the parts' CRCs computed once and
 * the nonce's, as zlib's `crc32_combine` does (multiplication by x^(8·n) modulo the CRC polynomial), so a hit
 * hashes 24 bytes instead of the whole page.
 */
import { crc32 } from "node:zlib";
import type { PageTemplate } from "./page-cache.ts";

/** Length of every nonce this layout takes, in bytes: base64 of 16 random bytes (`cached-pages.ts`). */
export const NONCE_LENGTH = 24;

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]); // deflate, no name, no mtime, OS unknown
const LAST_EMPTY_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]); // BFINAL stored block of length 0
/** CRC-32's polynomial, reflected (ISO 3309, as gzip and zlib use it). */
const POLY = 0xedb88320;

/** a(x)·b(x) modulo the CRC polynomial, both reflected 32-bit polynomials (zlib's `multmodp`). */
function multmodp(a: number, b: number): number {
  let m = 1 << 31;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(8·bytes) modulo the CRC polynomial: the operator that appends `bytes` bytes to a CRC (zlib's `x2nmodp`). */
export function crcShift(bytes: number): number {
  let p = 1 << 31; // x^0
  let power = 0x40000000; // x^1, squared step by step: x^(2^k)
  let n = bytes * 8;
  while (n > 0) {
    if (n % 2 === 1) p = multmodp(power, p);
    power = multmodp(power, power);
    n = Math.floor(n / 2);
  }
  return p >>> 0;
}

/**
 * CRC-32 of A followed by B from CRC-32(A), CRC-32(B) and `crcShift(length of B)` (zlib's `crc32_combine_op`).
 */
export function crcCombine(crcA: number, crcB: number, shiftB: number): number {
  return (multmodp(shiftB, crcA) ^ crcB) >>> 0;
}

/** One encoding of a page's body with room for a nonce in each slot. */
export interface SlottedBody {
  /** The body with zero bytes where nonces go. */
  bytes: Buffer;
  /** Where each nonce goes, as byte offsets into `bytes`. */
  slots: readonly number[];
  /** gzip only: offset of the trailer's CRC-32, the CRC of each part of the page and `crcShift` of its length. */
  crc?: { at: number; parts: readonly number[]; shifts: readonly number[] };
}

/** The page as UTF-8 with a `NONCE_LENGTH`-byte slot between its parts (what `fillTemplate` joins). */
export function identityLayout(page: PageTemplate): SlottedBody {
  const slots: number[] = [];
  const chunks: Buffer[] = [];
  let at = 0;
  page.encoded.forEach((part, index) => {
    if (index > 0) {
      slots.push(at);
      chunks.push(Buffer.alloc(NONCE_LENGTH));
      at += NONCE_LENGTH;
    }
    chunks.push(part);
    at += part.length;
  });
  return { bytes: Buffer.concat(chunks, at), slots };
}

/** The page as one gzip member, each nonce in a stored block (what `gzipTemplate` builds), with its CRC inputs. */
export function gzipLayout(page: PageTemplate): SlottedBody {
  const blockHeader = Buffer.alloc(5);
  blockHeader.writeUInt16LE(NONCE_LENGTH, 1); // BFINAL=0, BTYPE=00, then LEN and NLEN (RFC 1951 §3.2.4)
  blockHeader.writeUInt16LE(~NONCE_LENGTH & 0xffff, 3);
  const slots: number[] = [];
  const chunks: Buffer[] = [GZIP_HEADER];
  let at = GZIP_HEADER.length;
  page.deflated.forEach((run, index) => {
    if (index > 0) {
      chunks.push(blockHeader, Buffer.alloc(NONCE_LENGTH));
      slots.push(at + blockHeader.length);
      at += blockHeader.length + NONCE_LENGTH;
    }
    chunks.push(run);
    at += run.length;
  });
  const length = page.encoded.reduce((sum, part) => sum + part.length, 0) + slots.length * NONCE_LENGTH;
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(length >>> 0, 4); // ISIZE: length mod 2^32; the CRC is written per response
  chunks.push(LAST_EMPTY_BLOCK, trailer);
  const bytes = Buffer.concat(chunks);
  return {
    bytes,
    slots,
    crc: {
      at: bytes.length - 8,
      parts: page.encoded.map((part) => crc32(part)),
      shifts: page.encoded.map((part) => crcShift(part.length)),
    },
  };
}

const NONCE_SHIFT = crcShift(NONCE_LENGTH);

/**
 * `body` with `nonce` in every slot (and, for gzip, the CRC-32 of the result), written into `into` (at least
 * `body.bytes.length` long; a new buffer when absent). Returns the filled bytes: `into` itself when it has the
 * body's length (no view object made), else a view of its start. `nonce`: bytes, or a string of single-byte
 * characters (base64), written as they are (no Buffer made per hit).
 * @throws {RangeError} when `nonce` is not `NONCE_LENGTH` bytes or `into` is too short.
 */
export function fillSlots(body: SlottedBody, nonce: Buffer | string, into?: Buffer): Buffer {
  if (nonce.length !== NONCE_LENGTH) throw new RangeError(`a nonce here is ${NONCE_LENGTH} bytes`);
  const length = body.bytes.length;
  if (into && into.length < length) throw new RangeError("the buffer to fill is shorter than the body");
  const out = !into ? Buffer.allocUnsafe(length) : into.length === length ? into : into.subarray(0, length);
  out.set(body.bytes);
  if (typeof nonce === "string") for (const at of body.slots) out.write(nonce, at, NONCE_LENGTH, "latin1");
  else for (const at of body.slots) out.set(nonce, at);
  if (body.crc) {
    const { parts, shifts } = body.crc;
    const nonceCrc = crc32(nonce);
    let crc = parts[0]!;
    for (let i = 1; i < parts.length; i++) {
      crc = crcCombine(crcCombine(crc, nonceCrc, NONCE_SHIFT), parts[i]!, shifts[i]!);
    }
    out.writeUInt32LE(crc, body.crc.at);
  }
  return out;
}

/** Most buffers kept for reuse, over all lengths. */
const SPARE_BUFFERS = 32;

/**
 * Buffers that hits are written from, reused once the socket is done with them (the response's `finish`): a
 * hit then allocates nothing the size of a page (a new 24 kB buffer per hit cost ~8× the copy into a reused
 * one). Kept per exact length, so a hit writes the buffer itself (no view object per hit); at most
 * `SPARE_BUFFERS` in all: when full, a buffer given back takes the place of one of the oldest length kept
 * (a page dropped from the cache leaves no buffers behind for long).
 */
export class SpareBuffers {
  private readonly free = new Map<number, Buffer[]>();
  private count = 0;

  /** A buffer of exactly `length` bytes: a spare one, or a new one. */
  take(length: number): Buffer {
    const spare = this.free.get(length)?.pop();
    if (spare === undefined) return Buffer.allocUnsafeSlow(length);
    this.count -= 1;
    return spare;
  }

  /** Takes `buffer` back: call it only once nothing reads it any more. */
  give(buffer: Buffer): void {
    if (this.count >= SPARE_BUFFERS) {
      const [oldest, list] = this.free.entries().next().value as [number, Buffer[]];
      list.pop();
      this.count -= 1;
      if (list.length === 0) this.free.delete(oldest);
    }
    let list = this.free.get(buffer.length);
    if (!list) this.free.set(buffer.length, (list = []));
    list.push(buffer);
    this.count += 1;
  }
}
