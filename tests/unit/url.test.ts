/**
 * SECURITY C58: the one URL rule (`model/url.ts`, `httpUrl` in `model/content.ts`) that the admin and
 * `studio` store URLs with, and that the site checks before making a stored URL a link.
 */
import { describe, expect, it } from "vitest";
import { ventureInputSchema } from "../../server/admin/content.ts";
import {
  HTTP_URL_MESSAGE,
  httpUrl,
  isHttpUrl,
  postFrontMatterSchema,
  safeHttpUrl,
  ventureFrontMatterSchema,
  ventureSchema,
} from "../../model/content.ts";

/** Schemes and shapes that must never be stored or linked to. */
const BAD_URLS = [
  "javascript://%0aalert(document.domain)",
  "JAVASCRIPT://%0Aalert(1)",
  "JavaScript://example.com/%0aalert(1)",
  "javascript:alert(1)",
  " javascript:alert(1)",
  "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
  "vbscript:msgbox(1)",
  "file:///etc/passwd",
  "ftp://example.com/x",
  "//evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "/en/ventures",
  "https:evil.example",
  "https:/evil.example",
  "https://",
  "https://evil.example\\@good.example",
  "https://exa mple.com",
  "https://example.com/\nx",
  "java\tscript:alert(1)",
  "not a url",
  "",
];

const GOOD_URLS = [
  "https://example.com",
  "http://example.com/path?q=1#x",
  "HTTPS://Example.COM/",
  "https://xn--mgbh0fb.example/",
  "https://localhost:8080/a",
];

describe("isHttpUrl / safeHttpUrl", () => {
  it.each(BAD_URLS)("refuses %j", (url) => {
    expect(isHttpUrl(url)).toBe(false);
    expect(safeHttpUrl(url)).toBeNull();
  });

  it.each(GOOD_URLS)("accepts %j", (url) => {
    expect(isHttpUrl(url)).toBe(true);
    expect(safeHttpUrl(url)).toBe(url);
  });

  it("refuses what is not a string", () => {
    for (const value of [null, undefined, 42, {}, ["https://example.com"]]) expect(isHttpUrl(value)).toBe(false);
  });
});

describe("httpUrl and the schemas that store URLs", () => {
  it.each(BAD_URLS)("httpUrl refuses %j with the rule's message", (url) => {
    const result = httpUrl.safeParse(url);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain(HTTP_URL_MESSAGE);
  });

  it("httpUrl trims, and refuses a URL over the length limit", () => {
    expect(httpUrl.parse("  https://example.com/a  ")).toBe("https://example.com/a");
    expect(httpUrl.safeParse(`https://example.com/${"a".repeat(2048)}`).success).toBe(false);
  });

  const venture = {
    name: "V",
    slug: "v",
    shortDescription: "x",
    caseStudy: "<p>x</p>",
    logoUrl: null,
    userId: null,
    // A stored document's language version columns (decision 0008): an English original.
    locale: "en",
    sourceLocale: null,
    sourceHash: null,
    translationModel: null,
    translatedAt: null,
    reviewed: null,
  };

  it.each(["javascript://%0aalert(1)", "JAVASCRIPT://%0Aalert(1)", "data:text/html,x", "vbscript:x"])(
    "the admin form, the stored venture and the front matter all refuse websiteURL %j",
    (websiteURL) => {
      for (const result of [
        ventureInputSchema.safeParse({ ...venture, websiteURL }),
        ventureSchema.safeParse({ ...venture, websiteURL }),
        ventureFrontMatterSchema.safeParse({ name: "V", shortDescription: "x", websiteURL }),
      ]) {
        expect(result.success).toBe(false);
        expect(result.error?.issues).toContainEqual(
          expect.objectContaining({ path: ["websiteURL"], message: HTTP_URL_MESSAGE }),
        );
      }
    },
  );

  it("accepts an https websiteURL everywhere", () => {
    const websiteURL = "https://clinicledger.example";
    expect(ventureInputSchema.safeParse({ ...venture, websiteURL }).success).toBe(true);
    expect(ventureSchema.safeParse({ ...venture, websiteURL }).success).toBe(true);
    expect(ventureFrontMatterSchema.safeParse({ name: "V", shortDescription: "x", websiteURL }).success).toBe(true);
  });

  it.each([
    ["example.com", "https://example.com"],
    ["  clinicledger.example/about ", "https://clinicledger.example/about"],
    ["http://plain.example", "http://plain.example"],
  ])("the admin form completes websiteURL %j as %j (issue #17 item 7)", (typed, stored) => {
    const parsed = ventureInputSchema.safeParse({ ...venture, websiteURL: typed });
    expect(parsed.success && parsed.data.websiteURL).toBe(stored);
  });

  it.each(["javascript:alert(1)", "mailto:a@b.co", "example.com:8080", "//evil.example"])(
    "the admin form completes no scheme into %j: it is refused",
    (websiteURL) => {
      expect(ventureInputSchema.safeParse({ ...venture, websiteURL }).success).toBe(false);
    },
  );

  it.each([
    "javascript://%0aalert(1)",
    "data:image/png;base64,AAAA",
    "//evil.example/x.png",
    "/\\evil.example/x.png",
    "https:evil.example/x.png",
  ])("refuses the image reference %j in front matter", (featuredImage) => {
    const post = { title: "T", excerpt: "e", authorName: "a", publishedDate: "2026-03-14", featuredImage };
    expect(postFrontMatterSchema.safeParse(post).success).toBe(false);
  });

  it.each(["../images/x.png", "images/x.png", "https://cdn.example/x.png"])(
    "accepts the image reference %j in front matter",
    (featuredImage) => {
      const post = { title: "T", excerpt: "e", authorName: "a", publishedDate: "2026-03-14", featuredImage };
      expect(postFrontMatterSchema.safeParse(post).success).toBe(true);
    },
  );
});
