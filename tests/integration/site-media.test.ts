/**
 * Issue #8: images served at the size shown. The production build over real HTTP against the embedded server
 * with `content/` pushed.
 */
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readContent, type LocalImage, type PostItem, type VentureItem } from "../../lib/content/read.ts";
import { imageFileId } from "../../lib/publish/documents.ts";
import type { RunningSite } from "../../scripts/serve-site.ts";
import { MEDIA_WIDTHS } from "../../web/media.ts";
import { startSiteStack, type SiteStack } from "../helpers/site.ts";
import { ROOT } from "../helpers/stack.ts";

const WEBP_BROWSER = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";

let stack: SiteStack;
let site: RunningSite;
/** A published post whose featured image is a local JPEG, and a venture whose logo is a local PNG. */
let post: PostItem & { image: LocalImage };
let venture: VentureItem & { image: LocalImage };

beforeAll(async () => {
  stack = await startSiteStack();
  site = stack.site;
  const { items } = await readContent(path.join(ROOT, "content"));
  const local = (mimeType: string) => (i: (typeof items)[number]) =>
    !i.draft && i.image !== null && "mimeType" in i.image && i.image.mimeType === mimeType;
  post = items.filter((i) => i.kind === "post").find(local("image/jpeg")) as typeof post;
  venture = items.filter((i) => i.kind === "venture").find(local("image/png")) as typeof venture;
});
afterAll(async () => stack?.close());

const get = (pathname: string, headers: Record<string, string> = {}) => fetch(site.url + pathname, { headers });

describe("media width variants", () => {
  it("answers ?w=320 as a 320 px WebP smaller than the original, for a browser that accepts WebP", async () => {
    const fileId = imageFileId(post.image.bytes);
    const original = await get(`/media/${fileId}`, { Accept: WEBP_BROWSER });
    expect(original.status).toBe(200);
    expect(original.headers.get("content-type")).toBe("image/jpeg");
    const originalBytes = Buffer.from(await original.arrayBuffer());
    expect(originalBytes.equals(post.image.bytes)).toBe(true);

    const small = await get(`/media/${fileId}?w=320`, { Accept: WEBP_BROWSER });
    expect(small.status).toBe(200);
    expect(small.headers.get("content-type")).toBe("image/webp");
    expect(small.headers.get("vary")).toMatch(/\bAccept\b/i);
    expect(small.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(small.headers.get("x-content-type-options")).toBe("nosniff");
    expect(small.headers.get("content-security-policy")).toContain("sandbox");
    const bytes = Buffer.from(await small.arrayBuffer());
    expect(bytes.length).toBeLessThan(originalBytes.length / 3);
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width]).toEqual(["webp", 320]);
    const again = await get(`/media/${fileId}?w=320`, { Accept: WEBP_BROWSER }); // from the server's cache
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("keeps the original format for a browser that does not accept WebP", async () => {
    const fileId = imageFileId(venture.image.bytes);
    const response = await get(`/media/${fileId}?w=160`, { Accept: "image/png,image/*;q=0.8" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("vary")).toMatch(/\bAccept\b/i);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBeLessThan(venture.image.bytes.length);
    expect((await sharp(bytes).metadata()).width).toBe(160);
  });

  it("gives each representation its own ETag and answers a matching If-None-Match with 304", async () => {
    const fileId = imageFileId(post.image.bytes);
    const tags = await Promise.all(
      [`/media/${fileId}`, `/media/${fileId}?w=640`].flatMap((url) =>
        [WEBP_BROWSER, "image/jpeg"].map(async (accept) => (await get(url, { Accept: accept })).headers.get("etag")),
      ),
    );
    expect(tags[0]).toBe(tags[1]); // the original does not depend on Accept
    expect(new Set(tags).size).toBe(3);
    const again = await get(`/media/${fileId}?w=640`, { Accept: WEBP_BROWSER, "If-None-Match": tags[2]! });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(tags[2]);
  });

  it("refuses a width outside the list with 400, so no one can make the server render arbitrary sizes", async () => {
    const fileId = imageFileId(post.image.bytes);
    for (const query of ["w=500", "w=0320", "w=320.0", "w=abc", "w=", "w=320&w=640", "w=100000"]) {
      const response = await get(`/media/${fileId}?${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.text()).toContain(MEDIA_WIDTHS.join(", "));
    }
  });

  it("still answers 404 for an unknown file, with or without a width", async () => {
    expect((await get("/media/img-0000?w=320")).status).toBe(404);
    expect((await get("/media/img-0000")).status).toBe(404);
  });
});
