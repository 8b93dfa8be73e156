/**
 * Issue #33 item 3: a cached page's answers laid out once (`server/http/page-body.ts`, `page-hit.ts`): the
 * gzip member a hit sends is the one `gzipTemplate` splices (zlib checks its CRC and length), whatever buffer it
 * is written into; and the header lists follow `setHeader`'s rules.
 */
import { randomBytes } from "node:crypto";
import { crc32, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  crcCombine,
  crcShift,
  fillSlots,
  gzipLayout,
  identityLayout,
  SpareBuffers,
} from "../../server/http/page-body.ts";
import { fillTemplate, gzipTemplate, makeTemplate } from "../../server/http/page-cache.ts";
import { prepareHit } from "../../server/http/page-hit.ts";

const RENDER_NONCE = "cmVuZGVyLW5vbmNlLTEyMw==";
const FRESH = "ZnJlc2gtbm9uY2UtNDU2Nzg=";
const page = (slots: number) =>
  makeTemplate(
    Array.from(
      { length: slots },
      (_, n) => `<script nonce="${RENDER_NONCE}">${n}</script>${"é ".repeat(900 * n)}`,
    ).join("") + "</html>",
    `script-src 'nonce-${RENDER_NONCE}'`,
    RENDER_NONCE,
    [["content-type", "text/html; charset=utf-8"]],
  );

describe("CRC-32 combined from parts (zlib's crc32_combine)", () => {
  it("equals the CRC of the concatenation, for empty and long parts", () => {
    for (const [a, b] of [
      [0, 0],
      [5, 0],
      [0, 7],
      [1, 1],
      [24, 70_000],
      [1000, 24],
    ] as const) {
      const [left, right] = [randomBytes(a), randomBytes(b)];
      expect(crcCombine(crc32(left), crc32(right), crcShift(b)), `${a}+${b}`).toBe(crc32(Buffer.concat([left, right])));
    }
  });
});

describe("page bodies with nonce slots", () => {
  it("fill to the spliced gzip member and to the page, for pages with 1 to 6 slots", () => {
    for (let slots = 0; slots <= 6; slots++) {
      const template = page(slots);
      const gzip = fillSlots(gzipLayout(template), Buffer.from(FRESH));
      expect(gzip.equals(gzipTemplate(template, FRESH)), `${slots} slots`).toBe(true);
      expect(gunzipSync(gzip).equals(fillTemplate(template, FRESH))).toBe(true);
      expect(fillSlots(identityLayout(template), Buffer.from(FRESH)).equals(fillTemplate(template, FRESH))).toBe(true);
    }
  });

  it("write into a reused buffer of the body's length without leaving its earlier bytes in the answer", () => {
    const spare = new SpareBuffers();
    const small = page(2);
    const length = gzipLayout(small).bytes.length;
    const first = spare.take(length);
    first.fill(0x41);
    fillSlots(gzipLayout(small), RENDER_NONCE, first);
    spare.give(first);
    expect(spare.take(length + 1)).not.toBe(first); // only a buffer of the exact length is reused
    const again = spare.take(length);
    expect(again).toBe(first); // the same memory
    const filled = fillSlots(gzipLayout(small), FRESH, again);
    expect(filled).toBe(again); // written as it is: no view made per hit
    expect(gunzipSync(filled).equals(fillTemplate(small, FRESH))).toBe(true);
  });

  it("take a nonce as a string or as bytes, with the same answer", () => {
    const layout = gzipLayout(page(3));
    expect(fillSlots(layout, FRESH).equals(fillSlots(layout, Buffer.from(FRESH)))).toBe(true);
  });

  it("keep at most 32 spare buffers, the oldest lengths given up first", () => {
    const spare = new SpareBuffers();
    const old = Buffer.alloc(10);
    spare.give(old);
    const newer = Array.from({ length: 32 }, () => Buffer.alloc(20));
    for (const buffer of newer) spare.give(buffer);
    expect(spare.take(10)).not.toBe(old); // made anew: the old length made room
    const taken = new Set(Array.from({ length: 32 }, () => spare.take(20)));
    expect(newer.every((buffer) => taken.has(buffer))).toBe(true);
  });

  it("refuse a nonce of another length and a buffer too short", () => {
    const layout = gzipLayout(page(2));
    expect(() => fillSlots(layout, Buffer.from("short"))).toThrow(/24 bytes/);
    expect(() => fillSlots(layout, Buffer.from(FRESH), Buffer.alloc(10))).toThrow(/shorter/);
  });
});

describe("hit header lists", () => {
  it("follow setHeader: a name given again (any case) keeps its first place with the last spelling and value", () => {
    const hit = prepareHit(page(2), [
      ["Vary", "Cookie, Accept-Encoding"],
      ["X-Content-Type-Options", "nosniff"],
      ["Cache-Control", "public, no-cache"],
      ["x-content-type-options", "nosniff2"],
    ]);
    expect(hit.headers["not-modified"]).toEqual([
      "Vary",
      "Cookie, Accept-Encoding",
      "x-content-type-options",
      "nosniff2",
      "Cache-Control",
      "public, no-cache",
      "ETag",
      hit.etag,
    ]);
    const gzip = hit.headers.gzip;
    expect(gzip.slice(8)).toEqual([
      "content-type",
      "text/html; charset=utf-8",
      "Content-Security-Policy",
      "",
      "Content-Encoding",
      "gzip",
      "Content-Length",
      String(hit.gzip.bytes.length),
    ]);
    expect(gzip[hit.cspAt - 1]).toBe("Content-Security-Policy");
    expect(hit.headers.head.at(-1)).toBe(hit.headers.identity.at(-1));
  });
});
