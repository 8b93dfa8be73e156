/**
 * Compression of a streamed page (issue #33 item 2, `server/http/compress.ts`): the ~14 flushes React Router
 * asks for while writing one burst of chunks cost one compressed block, so a browser gets output no larger than
 * compressing the page whole, and its chunks reach zlib as one write (each write is a job on libuv's pool); a
 * chunk written later (a Suspense boundary resolving) still reaches the browser before the response ends; a
 * writer that waits for `drain` when told to gets its whole page through; Brotli and gzip bodies decode to the
 * page.
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Transform } from "node:stream";
import { BrotliCompress, brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageCompression } from "../../server/http/compress.ts";

const chunks = Array.from(
  { length: 14 },
  (_, i) =>
    `<section id="s${i}">${`<p class="text-mist">Paragraph ${i} of the page, with words. </p>`.repeat(40)}</section>`,
);
const page = chunks.join("");
const big = Buffer.from(Array.from({ length: 1 << 20 }, (_, i) => 97 + ((i * 7919) % 26)));
let drains = 0;
let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(pageCompression());
  app.get("/burst", (_req, res) => {
    res.type("html");
    // As @react-router/node's writeReadableStreamToWritable: a flush after every chunk.
    for (const chunk of chunks) {
      res.write(chunk);
      (res as unknown as { flush(): void }).flush();
    }
    res.end();
  });
  app.get("/big", async (_req, res) => {
    res.type("html");
    // 1 MB in React's 4 kB views, waiting for `drain` whenever a write says so (as the adapter does; one
    // listener: `compression` moves `drain` listeners to its stream, where `once`'s removal cannot reach them).
    let wake = () => {};
    res.on("drain", () => wake());
    for (let i = 0; i < 256; i++) {
      if (!res.write(big.subarray(i * 4096, (i + 1) * 4096))) {
        await new Promise<void>((resolve) => (wake = resolve));
        drains++;
      }
    }
    res.end();
  });
  app.get("/late", (_req, res) => {
    res.type("html");
    res.write(`${page}<!--shell-->`);
    (res as unknown as { flush(): void }).flush();
    setTimeout(() => res.end("<p>late</p>"), 300);
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => void server.close());

function get(pathname: string, encoding: string, onFirstData?: (data: Buffer) => void) {
  return new Promise<{ encoding: string; body: Buffer }>((resolve, reject) => {
    request(base + pathname, { headers: { "accept-encoding": encoding } }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => {
        if (parts.length === 0) onFirstData?.(c);
        parts.push(c);
      });
      res.on("end", () => resolve({ encoding: String(res.headers["content-encoding"]), body: Buffer.concat(parts) }));
    })
      .on("error", reject)
      .end();
  });
}

describe("pageCompression", () => {
  it("compresses a burst of flushed chunks as well as the whole page at once", async () => {
    const gz = await get("/burst", "gzip");
    expect(gz.encoding).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe(page);
    expect(gz.body.length).toBeLessThanOrEqual(gzipSync(page).length + 32);
    const br = await get("/burst", "br, gzip");
    expect(br.encoding).toBe("br");
    expect(brotliDecompressSync(br.body).toString()).toBe(page);
    const whole = brotliCompressSync(page, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
    expect(br.body.length).toBeLessThanOrEqual(whole.length + 32);
  });

  it("still sends what was flushed before the response ends (streaming kept)", async () => {
    let firstAt = 0;
    const result = await get("/late", "br, gzip", () => (firstAt = Date.now()));
    const endedAt = Date.now();
    expect(brotliDecompressSync(result.body).toString()).toBe(`${page}<!--shell--><p>late</p>`);
    expect(endedAt - firstAt).toBeGreaterThanOrEqual(200); // the shell arrived before the late chunk was written
  });

  it("hands the compressor one turn's writes as one write (each is a job on libuv's pool)", async () => {
    // Count the non-empty chunks zlib's streams transform (a flush is an empty one) while React Router's adapter
    // writes 14 chunks, each followed by a flush.
    let zlibBase = BrotliCompress.prototype as Transform; // up to the prototype Brotli and gzip streams share
    while (!Object.hasOwn(zlibBase, "_transform")) zlibBase = Object.getPrototypeOf(zlibBase) as Transform;
    const transform = zlibBase._transform;
    const writes: number[] = [];
    zlibBase._transform = function (this: Transform, chunk: Buffer, ...rest) {
      if (chunk.length > 0) writes.push(chunk.length);
      return transform.call(this, chunk, ...rest);
    };
    try {
      expect(brotliDecompressSync((await get("/burst", "br")).body).toString()).toBe(page);
      expect(gunzipSync((await get("/burst", "gzip")).body).toString()).toBe(page);
    } finally {
      zlibBase._transform = transform;
    }
    expect(writes).toEqual([Buffer.byteLength(page), Buffer.byteLength(page)]);
  });

  it("keeps backpressure: a 1 MB page written in 4 kB pieces arrives whole, with waits for drain", async () => {
    drains = 0;
    for (const encoding of ["br, gzip", "gzip", "identity"]) {
      const result = await get("/big", encoding);
      const body =
        result.encoding === "br"
          ? brotliDecompressSync(result.body)
          : result.encoding === "gzip"
            ? gunzipSync(result.body)
            : result.body;
      expect(body.equals(big)).toBe(true);
    }
    expect(drains).toBeGreaterThan(0);
  });
});
