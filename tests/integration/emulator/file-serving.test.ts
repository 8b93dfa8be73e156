import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImageFormat, ImageGravity, Permission, Role, Storage } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { projectClient, rejection, signedInClient, startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";

let env: TestEmulator;
let admin: Storage;
let alice: Storage;
let bob: Storage;
let aliceSecret: string;

/** A small PNG whose header claims `width`×`height` pixels (a "pixel flood"); only its first row has data. */
function pngHeaderOnly(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const firstRow = deflateSync(Buffer.alloc(width * 3 + 1));
  return Buffer.concat([signature, chunk("IHDR", ihdr), chunk("IDAT", firstRow), chunk("IEND", Buffer.alloc(0))]);
}

/** 200×100 PNG: left half red, right half blue. */
async function twoColourPng(): Promise<Buffer> {
  const red = await sharp({ create: { width: 100, height: 100, channels: 3, background: "#ff0000" } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 200, height: 100, channels: 3, background: "#0000ff" } })
    .composite([{ input: red, left: 0, top: 0 }])
    .png()
    .toBuffer();
}

async function raw(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${env.emulator.endpoint}${path}`, {
    headers: { "x-appwrite-project": env.emulator.projectId, "x-appwrite-session": aliceSecret, ...headers },
  });
}

beforeAll(async () => {
  env = await startTestEmulator();
  admin = new Storage(env.admin);
  await admin.createBucket({
    bucketId: "media",
    name: "Media",
    permissions: [Permission.create(Role.users())],
    fileSecurity: true,
  });
  const signedIn = await signedInClient(env, "alice");
  aliceSecret = signedIn.secret;
  alice = new Storage(signedIn.client);
  bob = new Storage((await signedInClient(env, "bob")).client);
  await alice.createFile({
    bucketId: "media",
    fileId: "photo",
    file: InputFile.fromBuffer(await twoColourPng(), "photo.png"),
  });
  const html = Buffer.from("<html><script>alert(1)</script></html>");
  await alice.createFile({ bucketId: "media", fileId: "page", file: InputFile.fromBuffer(html, "page.html") });
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  await alice.createFile({ bucketId: "media", fileId: "vector", file: InputFile.fromBuffer(svg, "v.svg") });
});

afterAll(async () => {
  await env.stop();
});

describe("file permissions for session users", () => {
  it("given a user's upload without permissions, then only that user reads, renames or deletes it", async () => {
    const own = await alice.getFile({ bucketId: "media", fileId: "photo" });
    expect(own.$permissions).toEqual(['read("user:alice")', 'update("user:alice")', 'delete("user:alice")']);
    expect(own.mimeType).toBe("image/png");
    const hidden = await rejection(bob.getFile({ bucketId: "media", fileId: "photo" }));
    expect([hidden.code, hidden.type]).toEqual([404, "storage_file_not_found"]);
    expect((await bob.listFiles({ bucketId: "media" })).total).toBe(0);
    const rename = await rejection(bob.updateFile({ bucketId: "media", fileId: "photo", name: "mine.png" }));
    expect([rename.code, rename.type]).toEqual([401, "user_unauthorized"]);
    const renamed = await alice.updateFile({ bucketId: "media", fileId: "photo", name: "renamed.png" });
    expect(renamed.name).toBe("renamed.png");
    const shared = await alice.updateFile({
      bucketId: "media",
      fileId: "photo",
      permissions: [Permission.read(Role.any()), Permission.update(Role.user("alice"))],
    });
    expect(shared.name).toBe("renamed.png");
    expect((await bob.getFile({ bucketId: "media", fileId: "photo" })).name).toBe("renamed.png");
    const grant = await rejection(
      alice.updateFile({ bucketId: "media", fileId: "photo", permissions: [Permission.read(Role.user("bob"))] }),
    );
    expect([grant.code, grant.type]).toEqual([401, "user_unauthorized"]);
  });
});

describe("view and download", () => {
  it("given HTML and SVG uploads, then view serves them as text/plain with nosniff and script-src 'none'", async () => {
    for (const id of ["page", "vector"]) {
      const response = await raw(`/storage/buckets/media/files/${id}/view`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/plain");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-security-policy")).toContain("script-src 'none'");
      expect(await response.text()).toContain("<script>");
    }
    const png = await raw("/storage/buckets/media/files/photo/view");
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(png.headers.get("content-disposition")).toMatch(/^inline; filename="renamed.png"/);
    const download = await raw("/storage/buckets/media/files/photo/download");
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename="renamed.png"/);
    const bytes = Buffer.from(await alice.getFileDownload({ bucketId: "media", fileId: "photo" }));
    expect(bytes.subarray(1, 4).toString()).toBe("PNG");
  });

  it("given a Range header, then 206 with Content-Range; an unsatisfiable range is 416 storage_invalid_range", async () => {
    const size = (await alice.getFile({ bucketId: "media", fileId: "page" })).sizeOriginal;
    const part = await raw("/storage/buckets/media/files/page/download", { range: "bytes=6-13" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 6-13/${size}`);
    expect(await part.text()).toBe("<script>");
    const bad = await raw("/storage/buckets/media/files/page/download", { range: `bytes=0-${size}` });
    expect(bad.status).toBe(416);
    expect(((await bad.json()) as { type: string }).type).toBe("storage_invalid_range");
  });
});

describe("preview", () => {
  it("given width, height, gravity and output, then sharp crops and converts as asked", async () => {
    const webp = Buffer.from(
      await alice.getFilePreview({
        bucketId: "media",
        fileId: "photo",
        width: 50,
        height: 100,
        gravity: ImageGravity.Left,
        output: ImageFormat.Webp,
      }),
    );
    const meta = await sharp(webp).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 50, 100]);
    const { data } = await sharp(webp).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(200);
    expect(data[2]).toBeLessThan(60);
    const right = Buffer.from(
      await alice.getFilePreview({
        bucketId: "media",
        fileId: "photo",
        width: 50,
        height: 100,
        gravity: ImageGravity.Right,
        output: ImageFormat.Png,
      }),
    );
    const rightPixels = (await sharp(right).raw().toBuffer({ resolveWithObject: true })).data;
    expect(rightPixels[2]).toBeGreaterThan(200);
    const scaled = await sharp(
      Buffer.from(await alice.getFilePreview({ bucketId: "media", fileId: "photo", width: 100 })),
    ).metadata();
    expect([scaled.format, scaled.width, scaled.height]).toEqual(["png", 100, 50]);
    for (const output of [ImageFormat.Jpg, ImageFormat.Gif]) {
      const image = Buffer.from(
        await alice.getFilePreview({ bucketId: "media", fileId: "photo", width: 20, quality: 50, output }),
      );
      expect((await sharp(image).metadata()).format).toBe(output === ImageFormat.Jpg ? "jpeg" : "gif");
    }
  });

  it("given an image declaring more than 40 megapixels, then 400 storage_image_resolution_exceeded without decoding", async () => {
    await alice.createFile({
      bucketId: "media",
      fileId: "flood",
      file: InputFile.fromBuffer(pngHeaderOnly(10000, 10000), "flood.png"),
    });
    const error = await rejection(alice.getFilePreview({ bucketId: "media", fileId: "flood", width: 10 }));
    expect([error.code, error.type]).toEqual([400, "storage_image_resolution_exceeded"]);
  });

  it("given a bucket with transformations off, then previews are 403 for users but work for the API key", async () => {
    await admin.createBucket({
      bucketId: "plain",
      name: "Plain",
      permissions: [Permission.read(Role.any())],
      transformations: false,
    });
    await admin.createFile({
      bucketId: "plain",
      fileId: "p",
      file: InputFile.fromBuffer(await twoColourPng(), "p.png"),
    });
    const error = await rejection(
      new Storage(projectClient(env)).getFilePreview({ bucketId: "plain", fileId: "p", width: 10 }),
    );
    expect([error.code, error.type]).toEqual([403, "storage_bucket_transformations_disabled"]);
    expect((await admin.getFilePreview({ bucketId: "plain", fileId: "p", width: 10 })).byteLength).toBeGreaterThan(0);
    const bad = await rejection(admin.getFilePreview({ bucketId: "plain", fileId: "p", width: 5000 }));
    expect([bad.code, bad.type]).toEqual([400, "general_argument_invalid"]);
  });
});
