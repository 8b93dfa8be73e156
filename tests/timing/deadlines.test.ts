/**
 * Deadlines that are behaviour, measured on the wall clock (so they run in the timing project, alone):
 * SECURITY C43 (a hanging model is given up within its timeout + 1 s) and C35 (a pixel flood is refused from
 * its header, well within a second).
 */
import { deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { draftContent } from "../../lib/ai/draft.ts";
import { AiUnavailableError } from "../../lib/ai/gemini.ts";
import { checkImage, ImageRejectedError } from "../../lib/images/upload.ts";
import { startFakeGemini, type FakeGemini } from "../helpers/fake-gemini.ts";

let gemini: FakeGemini;
beforeAll(async () => {
  gemini = await startFakeGemini();
});
afterAll(async () => gemini.close());

describe("deadlines", () => {
  it("gives up on a hanging model within its deadline (C43)", async () => {
    gemini.script({ hang: true });
    const started = Date.now();
    const settings = {
      apiKey: "test-key",
      textModel: "gemini-2.5-flash",
      imageModel: "gemini-2.5-flash-image",
      baseUrl: gemini.baseUrl,
      timeoutMs: 1000,
    };
    await expect(draftContent(settings, "post", "topic")).rejects.toBeInstanceOf(AiUnavailableError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("refuses a 10000×5000 PNG of a few bytes within a second (C35)", async () => {
    const header = Buffer.alloc(13);
    header.writeUInt32BE(10_000, 0);
    header.writeUInt32BE(5_000, 4);
    header.set([8, 2, 0, 0, 0], 8);
    const chunk = (type: string, data: Buffer) => {
      const out = Buffer.alloc(12 + data.length);
      out.writeUInt32BE(data.length, 0);
      out.write(type, 4, "ascii");
      data.copy(out, 8);
      return out; // the CRC is left 0: the header is read before any checksum matters
    };
    const flood = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk("IHDR", header),
      chunk("IDAT", deflateSync(Buffer.alloc(4))),
      chunk("IEND", Buffer.alloc(0)),
    ]);
    const started = performance.now();
    const error = await checkImage(flood).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageRejectedError);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
