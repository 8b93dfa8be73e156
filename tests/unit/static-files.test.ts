/**
 * The build's browser files from memory (issue #33 item 3, `server/http/static-files.ts`): no filesystem call
 * per request (a file removed after start is still served), compressed once as the browser accepts (by the
 * build, `precompress`, or else on first request), a 304 for a current copy, and nothing outside the build or
 * hidden served.
 */
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StaticFiles, precompress } from "../../server/http/static-files.ts";

let dir: string;
let server: Server;
let base: string;
const script = `export const x = ${JSON.stringify("hello ".repeat(500))};\n`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "static-files-"));
  await mkdir(path.join(dir, "assets"));
  await writeFile(path.join(dir, "assets", "entry-AbC123.js"), script);
  await writeFile(path.join(dir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  await writeFile(path.join(dir, ".secret"), "hidden");
  const files = new StaticFiles(dir, { "X-Content-Type-Options": "nosniff" });
  await rm(path.join(dir, "assets", "entry-AbC123.js")); // read at start: never looked up again
  server = createServer((req, res) => {
    if (!files.serve(req, res)) res.writeHead(404).end("passed on");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

/** A raw GET (fetch would decode the body itself). */
async function get(pathname: string, headers: Record<string, string> = {}, at = base) {
  const { request } = await import("node:http");
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      request(at + pathname, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
        .on("error", reject)
        .end();
    },
  );
}

describe("StaticFiles", () => {
  it("serves a hashed asset read at start, immutable, even once the file is gone from disk", async () => {
    const res = await get("/assets/entry-AbC123.js");
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(script);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers["content-type"]).toMatch(/javascript/);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("answers Brotli or gzip as the browser accepts, once compressed, each with its own validator", async () => {
    await expect
      .poll(
        async () =>
          (await get("/assets/entry-AbC123.js", { "accept-encoding": "br, gzip" })).headers["content-encoding"],
      )
      .toBe("br");
    const br = await get("/assets/entry-AbC123.js", { "accept-encoding": "br, gzip" });
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    expect(br.body.length).toBeLessThan(script.length / 10);
    const gz = await get("/assets/entry-AbC123.js", { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe(script);
    expect(new Set([br.headers.etag, gz.headers.etag, (await get("/assets/entry-AbC123.js")).headers.etag]).size).toBe(
      3,
    );
    expect(br.headers.vary).toBe("Accept-Encoding");
  });

  it("answers 304 when the browser's copy is current", async () => {
    const first = await get("/favicon.svg");
    expect(first.headers["cache-control"]).toBe("public, max-age=3600");
    const again = await get("/favicon.svg", { "if-none-match": String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it("passes on what is not a file of the build: unknown names, hidden files, traversal, other methods", async () => {
    for (const pathname of ["/assets/missing.js", "/.secret", "/assets/../.secret", "/en", "/assets/%2e%2e/.secret"]) {
      expect((await get(pathname)).body.toString(), pathname).toBe("passed on");
    }
  });
});

describe("precompress: the build's compressed copies", () => {
  let built: string;
  const styles = `.a{color:red}\n`.repeat(400);
  beforeAll(async () => {
    built = await mkdtemp(path.join(tmpdir(), "static-built-"));
    await mkdir(path.join(built, "assets"));
    await writeFile(path.join(built, "assets", "entry-XyZ.js"), script);
    await writeFile(path.join(built, "assets", "app-XyZ.css"), styles);
    await writeFile(path.join(built, "assets", "font-XyZ.woff2"), Buffer.alloc(4096, 7));
    await writeFile(path.join(built, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  });
  afterAll(async () => {
    await rm(built, { recursive: true, force: true });
  });

  it("writes Brotli and gzip copies of scripts and styles only, and a site answers them from its first request", async () => {
    expect(await precompress(built)).toBe(2);
    expect((await readdir(path.join(built, "assets"))).sort()).toEqual([
      "app-XyZ.css",
      "app-XyZ.css.br",
      "app-XyZ.css.gz",
      "entry-XyZ.js",
      "entry-XyZ.js.br",
      "entry-XyZ.js.gz",
      "font-XyZ.woff2",
    ]);
    expect(brotliDecompressSync(await readFile(path.join(built, "assets", "entry-XyZ.js.br"))).toString()).toBe(script);
    expect(gunzipSync(await readFile(path.join(built, "assets", "app-XyZ.css.gz"))).toString()).toBe(styles);

    const files = new StaticFiles(built);
    expect(files.size).toBe(4); // the copies are not files of their own
    const site = createServer((req, res) => {
      if (!files.serve(req, res)) res.writeHead(404).end("passed on");
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    const at = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      const first = await get("/assets/entry-XyZ.js", { "accept-encoding": "br, gzip" }, at);
      expect(first.headers["content-encoding"]).toBe("br");
      expect(brotliDecompressSync(first.body).toString()).toBe(script);
      expect((await get("/assets/entry-XyZ.js.br", {}, at)).body.toString()).toBe("passed on");
    } finally {
      site.close();
    }
  });
});
