/**
 * Issue #8: images served at the size shown, and the Arabic font subset (no longer preloaded: every web font
 * starts after the first paint, decision 0018). The production build
 * over real HTTP against the embedded server with `content/` pushed.
 */
import path from "node:path";
import { ID, Permission, Role } from "node-appwrite";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readContent, type LocalImage, type PostItem, type VentureItem } from "../../lib/content/read.ts";
import { imageFileId } from "../../lib/publish/documents.ts";
import type { RunningSite } from "../../server/serve-site.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { MEDIA_WIDTHS } from "../../web/media.ts";
import { htmlDocument, startSiteStack, type SiteStack } from "../helpers/site.ts";
import { ROOT } from "../helpers/stack.ts";

const WEBP_BROWSER = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
const EXTERNAL_IMAGE = "https://images.example.com/cover.jpg";

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
  // A post whose featured image is hosted elsewhere (spec §3 allows any URL), oldest, so the home is unchanged.
  await stack.backend.services.databases.createDocument({
    databaseId: DATABASE_ID,
    collectionId: CONTENT_MODEL.post.collectionId,
    documentId: ID.unique(),
    data: {
      title: "Elsewhere",
      slug: "elsewhere",
      excerpt: "An image hosted elsewhere.",
      content: "<p>Body</p>",
      featuredImageUrl: EXTERNAL_IMAGE,
      publishedDate: "2001-01-01T00:00:00.000Z",
      authorName: "Test",
    },
    permissions: [Permission.read(Role.any())],
  });
});
afterAll(async () => stack?.close());

const get = (pathname: string, headers: Record<string, string> = {}) => fetch(site.url + pathname, { headers });

async function document(pathname: string) {
  const response = await get(pathname);
  expect(response.status).toBe(200);
  return htmlDocument(await response.text());
}

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

describe("public images", () => {
  it("give every bucket image srcset, sizes, width and height, each variant one the media route serves", async () => {
    const pages = ["/en", "/ar/blog", "/en/ventures", `/en/blog/${post.slug}`, `/ar/ventures/${venture.slug}`];
    for (const pathname of pages) {
      const images = [...(await document(pathname)).querySelectorAll("main img")];
      expect(images.length, pathname).toBeGreaterThan(0);
      for (const img of images) {
        const src = img.getAttribute("src")!;
        expect(Number(img.getAttribute("width")), src).toBeGreaterThan(0);
        expect(Number(img.getAttribute("height")), src).toBeGreaterThan(0);
        if (src === EXTERNAL_IMAGE) continue; // the post added above, listed on the blog
        expect(src, pathname).toMatch(/^\/media\/img-[0-9a-f]{32}$/);
        expect(img.getAttribute("sizes"), src).toBeTruthy();
        const candidates = img.getAttribute("srcset")!.split(", ");
        for (const candidate of candidates) {
          const [url, descriptor] = candidate.split(" ");
          const width = Number(descriptor!.replace(/w$/, ""));
          expect(MEDIA_WIDTHS, candidate).toContain(width);
          expect(url).toBe(`${src}?w=${width}`);
        }
      }
    }
    const variant = (await document("/en")).querySelector("main img")!.getAttribute("srcset")!.split(" ")[0]!;
    expect((await get(variant, { Accept: WEBP_BROWSER })).status).toBe(200);
  });

  it("loads the post and venture page's main image first and card images lazily", async () => {
    for (const pathname of [`/en/blog/${post.slug}`, `/en/ventures/${venture.slug}`]) {
      const main = (await document(pathname)).querySelector("main article img")!;
      expect(main.getAttribute("fetchpriority"), pathname).toBe("high");
      expect(main.hasAttribute("loading"), pathname).toBe(false);
    }
    const cards = [...(await document("/en")).querySelectorAll("main li img")];
    expect(cards.length).toBeGreaterThan(0);
    for (const img of cards) {
      expect([img.getAttribute("loading"), img.getAttribute("decoding")]).toEqual(["lazy", "async"]);
    }
  });

  it("keeps a plain src with width and height for an image hosted elsewhere", async () => {
    const hero = (await document("/en/blog/elsewhere")).querySelector("main article img")!;
    expect(hero.getAttribute("src")).toBe(EXTERNAL_IMAGE);
    expect(hero.hasAttribute("srcset")).toBe(false);
    expect([hero.getAttribute("width"), hero.getAttribute("height")]).toEqual(["1600", "900"]);
  });
});

describe("the Arabic font", () => {
  it("is preloaded nowhere: the head's script holds every web font back until the page has painted (decision 0018)", async () => {
    for (const pathname of ["/ar", "/ar/about", "/en/about", `/ar/ventures/${venture.slug}`]) {
      const page = await get(pathname).catch((e: unknown) => {
        throw new Error(`GET ${pathname}`, { cause: e });
      });
      const html = await page.text();
      const head = htmlDocument(html).head;
      expect(head.querySelectorAll('link[rel="preload"][as="font"]'), pathname).toHaveLength(0);
      // The script that sets `fonts-later` runs before the body, under the response's CSP nonce.
      const nonce = /'nonce-([^']+)'/.exec(page.headers.get("content-security-policy")!)![1];
      const script = [...head.querySelectorAll("script")].find((s) => s.textContent!.includes("fonts-later"));
      expect(script?.getAttribute("nonce"), pathname).toBe(nonce);
    }
    // The stylesheet still names the Arabic file, served as a font.
    const ar = await document("/ar/about");
    const css = await (await get(ar.querySelector("style[data-href]")!.getAttribute("data-href")!)).text();
    const href = /url\((\/assets\/noto-kufi-arabic-arabic-400-normal-[\w-]+\.woff2)\)/.exec(css)![1]!;
    expect((await get(href)).headers.get("content-type")).toBe("font/woff2");
  });

  it("declares only the Arabic and Latin subsets at the weights used, in woff2", async () => {
    const ar = await document("/ar");
    const css = await (await get(ar.querySelector("style[data-href]")!.getAttribute("data-href")!)).text();
    // Kufi for headings and the interface, Naskh for article bodies (issue #35), the same four cuts each.
    for (const family of ["noto-kufi-arabic", "noto-naskh-arabic"]) {
      const files = [...css.matchAll(new RegExp(`url\\((/assets/${family}-[^)]+)\\)`, "g"))].map((m) => m[1]!);
      expect(files.map((f) => new RegExp(`${family}-(.+)-normal-`).exec(f)![1]).sort(), family).toEqual([
        "arabic-400",
        "arabic-700",
        "latin-400",
        "latin-700",
      ]);
      expect(files.every((f) => f.endsWith(".woff2"))).toBe(true);
    }
  });
});
