/**
 * SECURITY C35 (pixel flood): an image whose header declares more than 40 megapixels is refused from the
 * header alone, before any decoding, whatever its small file size.
 */
import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { checkImage, ImageRejectedError } from "../../lib/images/upload.ts";

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}
/** A tiny PNG file whose header claims `width`×`height` pixels (its pixel data is one short row). */
function pngClaiming(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.alloc(4))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("pixel flood (C35)", () => {
  it("refuses a 10000×5000 PNG of a few bytes before decoding it", async () => {
    const flood = pngClaiming(10_000, 5_000);
    expect(flood.length).toBeLessThan(200);
    const error = await checkImage(flood).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageRejectedError);
    expect((error as Error).message).toMatch(/more than 40 megapixels/);
  });

  it("accepts the same kind of file at a sane size", async () => {
    const { deflateSync: deflate } = await import("node:zlib");
    const width = 4;
    const rows = Buffer.concat(
      Array.from({ length: 4 }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 200)])),
    );
    const png = Buffer.concat([
      pngClaiming(width, 4).subarray(0, 33),
      chunk("IDAT", deflate(rows)),
      chunk("IEND", Buffer.alloc(0)),
    ]);
    expect((await checkImage(png)).mimeType).toBe("image/png");
  });
});
