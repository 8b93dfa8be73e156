/**
 * A child process for `scripts/bench/compress-writes.ts`: an Express server that sends the page in
 * `COMPRESS_PAGE` (a file) the way `argv[2]` says, then prints `port: <n>`.
 * - `page`: `pageCompression()` (`server/http/compress.ts`), the page in React's 4 kB views, each written and
 *   flushed as React Router's adapter does (a microtask between chunks);
 * - `plain`: `compression` with the same settings, written the same way (no turn coalescing);
 * - `whole`: `compression` with the same settings, the page in one write (the floor for these bytes).
 */
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import compression from "compression";
import express from "express";
import { PAGE_COMPRESSION, pageCompression } from "../../../server/http/compress.ts";

const mode = process.argv[2] ?? "page";
const page = readFileSync(process.env.COMPRESS_PAGE!);
const VIEW = 4096;

const app = express();
app.use(mode === "page" ? pageCompression() : compression(PAGE_COMPRESSION));
app.get("/", async (_req, res) => {
  res.type("html");
  res.flushHeaders();
  if (mode === "whole") {
    res.end(page);
    return;
  }
  let wake = () => {};
  res.on("drain", () => wake());
  for (let at = 0; at < page.length; at += VIEW) {
    const more = res.write(page.subarray(at, at + VIEW));
    (res as unknown as { flush(): void }).flush();
    await Promise.resolve(); // the adapter awaits reader.read() between chunks
    if (!more) await new Promise<void>((resolve) => (wake = resolve));
  }
  res.end();
});
const server = app.listen(0, "127.0.0.1", () => console.log(`port: ${(server.address() as AddressInfo).port}`));
