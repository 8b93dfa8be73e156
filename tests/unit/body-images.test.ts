import { describe, expect, it } from "vitest";
import { JSDOM } from "jsdom";
import { inlineSrcSet, responsiveBodyImages } from "../../web/body-images.ts";
import { sanitizeHtml } from "../../lib/html/sanitize.ts";
import { mediaIdsIn, replaceMediaId, unsizedMediaIds, withImageSizes } from "../../lib/html/media-refs.ts";

describe("inline images render responsive (issue #30 item 3)", () => {
  it("gives a /media image srcset, sizes, width and height; images after the first load lazily", () => {
    const stored = sanitizeHtml(
      '<p>One</p><img src="/media/abc" alt="A chart" width="1200" height="800"><p>Two</p><img src="/media/def" alt="A &quot;team&quot; &gt; photo" width="400" height="300">',
    );
    const html = responsiveBodyImages(stored);
    const doc = new DOMParserShim(html);
    const [first, second] = doc.images();
    expect(first).toMatchObject({
      src: "/media/abc",
      alt: "A chart",
      width: "1200",
      height: "800",
      srcset:
        "/media/abc?w=160 160w, /media/abc?w=320 320w, /media/abc?w=480 480w, /media/abc?w=640 640w, /media/abc?w=960 960w, /media/abc 1200w",
      sizes: "(min-width: 808px) 768px, calc(100vw - 40px)",
    });
    expect(first!.loading).toBeUndefined();
    expect(second).toMatchObject({
      alt: 'A "team" > photo',
      width: "400",
      height: "300",
      loading: "lazy",
      decoding: "async",
      sizes: "(min-width: 440px) 400px, calc(100vw - 40px)",
    });
    expect(second!.srcset).toBe("/media/def?w=160 160w, /media/def?w=320 320w, /media/def 400w");
  });

  it("takes the size from the library when the body has none, and leaves other images' sources alone", () => {
    const html = responsiveBodyImages(
      '<img src="https://example.com/x.png" alt="x"><img src="/media/abc" alt="y">',
      (id) => (id === "abc" ? { width: 640, height: 480 } : undefined),
    );
    expect(html).toBe(
      '<img src="https://example.com/x.png" alt="x">' +
        `<img src="/media/abc" alt="y" srcset="${inlineSrcSet("abc", 640)}" sizes="(min-width: 680px) 640px, calc(100vw - 40px)" width="640" height="480" loading="lazy" decoding="async">`,
    );
  });

  it("what the body says of srcset or loading is replaced, never kept", () => {
    const html = responsiveBodyImages(
      '<img src="/media/abc" srcset="https://evil.example/x 1w" loading="eager" alt="">',
    );
    expect(html).not.toContain("evil");
    expect(html).toContain('srcset="/media/abc?w=160 160w');
  });
});

describe("media references in bodies", () => {
  it("finds /media ids and rewrites only the one replaced", () => {
    const html = '<img src="/media/abc" alt=""><img src="/media/abcd?w=320" alt=""><a href="/media/abc">x</a>';
    expect(mediaIdsIn(html)).toEqual(["abc", "abcd"]);
    expect(replaceMediaId(html, "abc", "new1")).toBe(
      '<img src="/media/new1" alt=""><img src="/media/abcd?w=320" alt=""><a href="/media/new1">x</a>',
    );
  });
});

describe("library sizes written at save", () => {
  it("gives an unsized /media image the stored width and height, leaving sized and unknown ones alone", () => {
    const html =
      '<img src="/media/abc" alt="pasted"><img src="/media/abc" alt="sized" width="10" height="5">' +
      '<img src="/media/zzz" alt="unknown"><img alt="half" src="/media/abc" width="300">';
    expect(unsizedMediaIds(html)).toEqual(["abc", "zzz"]);
    const sized = withImageSizes(html, (id) => (id === "abc" ? { width: 1600, height: 900 } : undefined));
    expect(sized).toBe(
      '<img src="/media/abc" alt="pasted" width="1600" height="900"><img src="/media/abc" alt="sized" width="10" height="5">' +
        '<img src="/media/zzz" alt="unknown"><img alt="half" src="/media/abc" width="1600" height="900">',
    );
    expect(sanitizeHtml(sized)).toBe(sized); // nothing the sanitizer would remove
  });
});

/** Reads the `<img>` attributes of `html` with jsdom (what a browser would see). */
class DOMParserShim {
  constructor(private readonly html: string) {}
  images(): Record<string, string | undefined>[] {
    const doc = new JSDOM(this.html).window.document;
    return [...doc.querySelectorAll("img")].map((img) =>
      Object.fromEntries([...img.attributes].map((a) => [a.name, a.value])),
    );
  }
}
