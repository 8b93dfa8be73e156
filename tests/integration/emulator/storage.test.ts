import { createHash, randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Permission, Query, Role, Storage } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { rejection, startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";

// A 1×1 transparent PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const md5 = (bytes: Buffer) => createHash("md5").update(bytes).digest("hex");

let env: TestEmulator;
let storage: Storage;
let guest: Storage;

beforeAll(async () => {
  env = await startTestEmulator();
  storage = new Storage(env.admin);
  guest = new Storage(env.guest);
  await storage.createBucket({
    bucketId: "images",
    name: "Images",
    permissions: [Permission.read(Role.any())],
    maximumFileSize: 1000,
    allowedFileExtensions: ["png", "txt", "svg"],
    fileSecurity: false,
  });
  await storage.createBucket({ bucketId: "private", name: "Private", permissions: [], fileSecurity: false });
  await storage.createBucket({ bucketId: "secure", name: "Secure", permissions: [], fileSecurity: true });
});

afterAll(async () => {
  await env.stop();
});

const storedFiles = (bucketId: string) => {
  try {
    return readdirSync(join(env.dataDir, "files", bucketId));
  } catch {
    return [];
  }
};

describe("buckets", () => {
  it("given a created bucket, when fetched, then it has the Bucket model", async () => {
    const bucket = await storage.getBucket({ bucketId: "images" });
    expect(bucket).toMatchObject({
      $id: "images",
      name: "Images",
      maximumFileSize: 1000,
      allowedFileExtensions: ["png", "txt", "svg"],
      fileSecurity: false,
      enabled: true,
      $permissions: ['read("any")'],
      totalSize: 0,
    });
    const duplicate = await rejection(storage.createBucket({ bucketId: "images", name: "Again" }));
    expect([duplicate.code, duplicate.type]).toEqual([409, "storage_bucket_already_exists"]);
  });

  it("given an unknown bucket, when uploading, then 404 storage_bucket_not_found", async () => {
    const error = await rejection(
      storage.createFile({ bucketId: "ghost", fileId: "f", file: InputFile.fromBuffer(PNG, "a.png") }),
    );
    expect([error.code, error.type]).toEqual([404, "storage_bucket_not_found"]);
  });
});

describe("files", () => {
  it("given a PNG, when uploaded, then the File model has the sniffed type, size and MD5 signature", async () => {
    const file = await storage.createFile({
      bucketId: "images",
      fileId: "logo",
      file: InputFile.fromBuffer(PNG, "logo.png"),
    });
    expect(file).toMatchObject({
      $id: "logo",
      bucketId: "images",
      name: "logo.png",
      mimeType: "image/png",
      sizeOriginal: PNG.length,
      signature: md5(PNG),
      chunksTotal: 1,
      chunksUploaded: 1,
    });
    expect(await storage.getFile({ bucketId: "images", fileId: "logo" })).toMatchObject({ $id: "logo" });
    const list = await storage.listFiles({ bucketId: "images", queries: [Query.equal("mimeType", "image/png")] });
    expect(list.total).toBe(1);
  });

  it("given an uploaded file, when viewed or downloaded, then the exact bytes come back", async () => {
    const view = await storage.getFileView({ bucketId: "images", fileId: "logo" });
    expect(Buffer.from(view)).toEqual(PNG);
    const download = await storage.getFileDownload({ bucketId: "images", fileId: "logo" });
    expect(md5(Buffer.from(download))).toBe(md5(PNG));
  });

  it("given a text file without magic bytes, then the type comes from its content; SVG is stored with its type", async () => {
    const text = await storage.createFile({
      bucketId: "images",
      fileId: "notes",
      file: InputFile.fromBuffer(Buffer.from("hello"), "notes.txt"),
    });
    expect(text.mimeType).toBe("text/plain");
    const svg = await storage.createFile({
      bucketId: "images",
      fileId: "pic",
      file: InputFile.fromBuffer(
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        "pic.svg",
      ),
    });
    expect(svg.mimeType).toBe("image/svg+xml");
  });

  it("given an existing file ID, when uploaded again, then 409 storage_file_already_exists", async () => {
    const error = await rejection(
      storage.createFile({ bucketId: "images", fileId: "logo", file: InputFile.fromBuffer(PNG, "logo.png") }),
    );
    expect([error.code, error.type]).toEqual([409, "storage_file_already_exists"]);
  });

  it('given a file over maximumFileSize, then 400 "File size not allowed" and nothing is stored', async () => {
    const before = storedFiles("images").length;
    const error = await rejection(
      storage.createFile({
        bucketId: "images",
        fileId: "big",
        file: InputFile.fromBuffer(Buffer.alloc(1001, 1), "big.png"),
      }),
    );
    expect([error.code, error.type, error.message]).toEqual([
      400,
      "storage_invalid_file_size",
      "File size not allowed",
    ]);
    expect(storedFiles("images")).toHaveLength(before);
    expect(storedFiles(".tmp")).toHaveLength(0);
  });

  it('given a disallowed extension, then 400 "File extension not allowed" and nothing is stored', async () => {
    const before = storedFiles("images").length;
    const error = await rejection(
      storage.createFile({
        bucketId: "images",
        fileId: "exe",
        file: InputFile.fromBuffer(Buffer.from("MZ"), "tool.exe"),
      }),
    );
    expect([error.code, error.type, error.message]).toEqual([
      400,
      "storage_file_type_unsupported",
      "File extension not allowed",
    ]);
    expect(storedFiles("images")).toHaveLength(before);
    const list = await storage.listFiles({ bucketId: "images", queries: [Query.equal("$id", ["big", "exe"])] });
    expect(list.total).toBe(0);
  });

  it("given a file, when deleted, then 204, its bytes are gone and later reads give 404 storage_file_not_found", async () => {
    const before = storedFiles("images").length;
    await storage.createFile({ bucketId: "images", fileId: "temp", file: InputFile.fromBuffer(PNG, "temp.png") });
    expect(storedFiles("images")).toHaveLength(before + 1);
    await storage.deleteFile({ bucketId: "images", fileId: "temp" });
    expect(storedFiles("images")).toHaveLength(before);
    const error = await rejection(storage.getFile({ bucketId: "images", fileId: "temp" }));
    expect([error.code, error.type]).toEqual([404, "storage_file_not_found"]);
  });
});

describe("chunked uploads", () => {
  it("given a 12 MB file, when the SDK uploads it in parallel chunks, then the joined file matches byte for byte", async () => {
    await storage.createBucket({ bucketId: "large", name: "Large", maximumFileSize: 20_000_000 });
    const bytes = randomBytes(12 * 1024 * 1024);
    const file = await storage.createFile({
      bucketId: "large",
      fileId: "unique()",
      file: InputFile.fromBuffer(bytes, "big.bin"),
    });
    expect(file).toMatchObject({ chunksTotal: 3, chunksUploaded: 3, sizeOriginal: bytes.length });
    const stored = await storage.getFile({ bucketId: "large", fileId: file.$id });
    expect(stored.signature).toBe(md5(bytes));
    const download = await storage.getFileDownload({ bucketId: "large", fileId: file.$id });
    expect(md5(Buffer.from(download))).toBe(md5(bytes));
    expect(storedFiles("large")).toHaveLength(1);
  });

  it("given a chunked file larger than maximumFileSize, then 400 storage_invalid_file_size", async () => {
    const error = await rejection(
      storage.createFile({
        bucketId: "images",
        fileId: "huge",
        file: InputFile.fromBuffer(Buffer.alloc(6 * 1024 * 1024), "huge.png"),
      }),
    );
    expect([error.code, error.type]).toEqual([400, "storage_invalid_file_size"]);
  });
});

describe("guest access to files (REFERENCE §6)", () => {
  it('given bucket read("any"), when a guest views a file, then it gets the bytes', async () => {
    const view = await guest.getFileView({ bucketId: "images", fileId: "logo" });
    expect(Buffer.from(view)).toEqual(PNG);
  });

  it("given no bucket read and fileSecurity off, when a guest reads, then 401 user_unauthorized", async () => {
    await storage.createFile({ bucketId: "private", fileId: "p", file: InputFile.fromBuffer(PNG, "p.png") });
    const error = await rejection(guest.getFile({ bucketId: "private", fileId: "p" }));
    expect([error.code, error.type]).toEqual([401, "user_unauthorized"]);
    const upload = await rejection(
      guest.createFile({ bucketId: "private", fileId: "g", file: InputFile.fromBuffer(PNG, "g.png") }),
    );
    expect(upload.code).toBe(401);
  });

  it("given fileSecurity on, then the file permissions decide and an unreadable file is 404", async () => {
    await storage.createFile({
      bucketId: "secure",
      fileId: "open",
      file: InputFile.fromBuffer(PNG, "o.png"),
      permissions: [Permission.read(Role.any())],
    });
    await storage.createFile({ bucketId: "secure", fileId: "closed", file: InputFile.fromBuffer(PNG, "c.png") });
    expect((await guest.getFile({ bucketId: "secure", fileId: "open" })).$id).toBe("open");
    const error = await rejection(guest.getFileView({ bucketId: "secure", fileId: "closed" }));
    expect([error.code, error.type]).toEqual([404, "storage_file_not_found"]);
    const list = await guest.listFiles({ bucketId: "secure" });
    expect(list.files.map((f) => f.$id)).toEqual(["open"]);
  });
});
