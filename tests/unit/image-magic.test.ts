import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { imageTypeOf } from "../../lib/images/magic.ts";

const pixel = () => sharp({ create: { width: 1, height: 1, channels: 3, background: "#c9a227" } });

describe("imageTypeOf (the browser's first check of a chosen image, issue #17 item 2)", () => {
  it.each([
    ["image/jpeg", () => pixel().jpeg().toBuffer()],
    ["image/png", () => pixel().png().toBuffer()],
    ["image/gif", () => pixel().gif().toBuffer()],
    ["image/webp", () => pixel().webp().toBuffer()],
  ] as const)("knows a real %s by its first bytes", async (type, make) => {
    expect(await imageTypeOf(new Uint8Array(await make()))).toBe(type);
  });

  it("refuses text, HTML, SVG, a PDF, an empty file and a RIFF that is not WebP", async () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    for (const file of [
      "hello",
      "<html><script>alert(1)</script>",
      "<svg xmlns='http://www.w3.org/2000/svg'/>",
      "%PDF-1.7",
      "",
      "RIFF\0\0\0\0WAVEfmt ",
    ]) {
      expect(await imageTypeOf(bytes(file))).toBeNull();
    }
  });
});
