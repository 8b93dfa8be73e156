/**
 * SECURITY C30 (issue #9 item 2): a 100 MB upload never reaches memory. The body is generated while it is
 * sent (never stored), to a signed-in admin form action of the site and to the emulator's storage endpoint,
 * each running in a child process whose resident memory is read from `/proc/<pid>/status` meanwhile.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { ID } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdminServices } from "../../lib/appwrite/client.ts";
import { applySchema, type AppwriteSchema } from "../../lib/appwrite/setup.ts";
import schema from "../../model/appwrite.json" with { type: "json" };
import { IMAGES_BUCKET_ID } from "../../model/content.ts";
import {
  memoryOf,
  startEmulatorProcess,
  startSiteProcess,
  type EmulatorProcess,
  type SiteProcess,
} from "../../scripts/dev/processes.ts";
import { Visitor } from "../helpers/site.ts";

const MB = 1024 * 1024;
const BODY_BYTES = 100 * MB;
/** Largest growth of the server's resident memory accepted while it receives the body (P). */
const RSS_BUDGET = 50 * MB;

let dataDir: string;
let emulator: EmulatorProcess;
let site: SiteProcess;
let cookie: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "upload-memory-"));
  emulator = await startEmulatorProcess(dataDir);
  const services = createAdminServices(emulator);
  await applySchema(services, schema as AppwriteSchema);
  await services.users.create({
    userId: ID.unique(),
    email: "ada@example.com",
    password: "correct horse battery",
    name: "Ada",
  });
  site = await startSiteProcess(emulator);
  const visitor = new Visitor(site.url);
  expect((await visitor.login("ada@example.com")).status).toBe(302);
  cookie = visitor.cookie;
  // The site is warm before anything is measured: its sanitizer thread (jsdom, tens of MB) has started.
  const preview = await visitor.request("/admin/preview-html", { method: "POST", form: { html: "<p>warm</p>" } });
  expect(preview.status).toBe(200);
});
afterAll(async () => {
  await site?.stop();
  await emulator?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** `total` bytes of zeros, produced 64 KiB at a time as the socket takes them. */
function zeros(total: number): Readable {
  const block = Buffer.alloc(64 * 1024);
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const n = Math.min(block.length, total - sent);
      sent += n;
      this.push(n === block.length ? block : block.subarray(0, n));
    },
  });
}

/** A multipart body: a `fileId` field and a `file` part of `fileBytes` zeros, streamed. */
function multipart(boundary: string, fileBytes: number): { stream: Readable; length: number } {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="fileId"\r\n\r\nunique()\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\n` +
      `Content-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const stream = Readable.from(
    (async function* () {
      yield head;
      yield* zeros(fileBytes);
      yield tail;
    })(),
    { objectMode: false },
  );
  return { stream, length: head.length + fileBytes + tail.length };
}

interface Sent {
  status: number;
  body: string;
  /** Largest rise of the server's VmRSS over its value before the request, sampled every 20 ms. */
  rssGrowth: number;
  /** Rise of the server's peak resident memory (VmHWM), which also catches spikes between samples. */
  peakGrowth: number;
}

/** POSTs `body` to `url` and watches the resident memory of process `pid` until the answer is complete. */
async function sendWatching(
  pid: number,
  url: string,
  headers: Record<string, string | number>,
  body: Readable,
): Promise<Sent> {
  const before = memoryOf(pid);
  let highest = before.rss;
  // A process gone between samples (the test failing) is not sampled, rather than thrown from a timer.
  const sampler = setInterval(() => {
    try {
      highest = Math.max(highest, memoryOf(pid).rss);
    } catch {
      // gone: the answer below says why
    }
  }, 20);
  try {
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(url, { method: "POST", headers }, (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        res.on("error", reject);
      });
      // The server may answer and close before the whole body is sent: that is a refusal, not a failure. A
      // connection closed with no answer read is a failure, said at once (not a test that waits out its timeout).
      let answered = false;
      req.once("response", () => (answered = true));
      req.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
      });
      req.once("close", () => {
        if (!answered) reject(new Error("the site closed the connection before its answer was read"));
      });
      body.pipe(req);
    });
    await new Promise((resolve) => setTimeout(resolve, 100)); // let a late allocation show
    const after = memoryOf(pid);
    highest = Math.max(highest, after.rss);
    return { status, body: text, rssGrowth: highest - before.rss, peakGrowth: after.peak - before.peak };
  } finally {
    clearInterval(sampler);
  }
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/** The server's resident memory, sampled and at its peak, grew by less than `RSS_BUDGET` while receiving. */
function expectWithinBudget(sent: Sent): void {
  expect(sent.rssGrowth, `VmRSS grew ${mb(sent.rssGrowth)}`).toBeLessThan(RSS_BUDGET);
  expect(sent.peakGrowth, `VmHWM grew ${mb(sent.peakGrowth)}`).toBeLessThan(RSS_BUDGET);
}

describe("a 100 MB upload (C30)", () => {
  it(
    "to a signed-in admin form action: 413 by its length, and the site's memory stays within 50 MB",
    { timeout: 120_000 },
    async () => {
      const boundary = "----studio-memory-test";
      const { stream, length } = multipart(boundary, BODY_BYTES);
      const sent = await sendWatching(
        site.pid,
        `${site.url}/admin/ventures/new`,
        {
          Cookie: cookie,
          Origin: site.url,
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
          "Content-Length": length,
        },
        stream,
      );

      expect(sent.status).toBe(413);
      expect(sent.body).toContain("at most 6 MB");
      expectWithinBudget(sent);
    },
  );

  it(
    "to a signed-in admin form action without a length (chunked): 411, memory within 50 MB",
    { timeout: 120_000 },
    async () => {
      const boundary = "----studio-memory-test";
      const sent = await sendWatching(
        site.pid,
        `${site.url}/admin/ventures/new`,
        {
          Cookie: cookie,
          Origin: site.url,
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
          "Transfer-Encoding": "chunked",
        },
        multipart(boundary, BODY_BYTES).stream,
      );

      expect(sent.status).toBe(411);
      expectWithinBudget(sent);
    },
  );

  it(
    "to the emulator's storage endpoint in one request: refused as too large, streamed not buffered, nothing kept",
    { timeout: 120_000 },
    async () => {
      const boundary = "----studio-memory-test";
      const { stream, length } = multipart(boundary, BODY_BYTES);
      const sent = await sendWatching(
        emulator.pid,
        `${emulator.endpoint}/storage/buckets/${IMAGES_BUCKET_ID}/files`,
        {
          "X-Appwrite-Project": emulator.projectId,
          "X-Appwrite-Key": emulator.apiKey,
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
          "Content-Length": length,
        },
        stream,
      );

      expect(sent.status).toBe(400);
      expect(JSON.parse(sent.body)).toMatchObject({ type: "storage_invalid_file_size" });
      expectWithinBudget(sent);
      const services = createAdminServices(emulator);
      expect((await services.storage.listFiles({ bucketId: IMAGES_BUCKET_ID })).total).toBe(0);
      expect(await readdir(path.join(dataDir, "files", ".tmp"))).toEqual([]);
    },
  );
});
