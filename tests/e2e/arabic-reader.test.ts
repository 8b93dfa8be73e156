/**
 * The Arabic reader's experience (issue #35), in Chromium at a phone (390 px) and a laptop (1366 px) width:
 * the computed styles a reader sees (Naskh for article bodies, Kufi for headings; no slanted or letter-spaced
 * Arabic anywhere; a venture's Latin name aligned with its Arabic block and never broken across lines; the
 * fallback byline in the page's order), no serious axe violation, and screenshots of `/ar`, an Arabic post
 * and an Arabic venture compared with the committed baselines (`baselines.ts`: UPDATE_BASELINES=1 rewrites
 * them). The web fonts start after the page's first paint and swap in without moving it (decision 0018).
 */
import { ID, Permission, Role } from "node-appwrite";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { placeholderDocument, CONTENT_MODEL } from "../../model/model.ts";
import { compareWithBaseline } from "./baselines.ts";
import { PHONE, axeSerious, holdFonts, hydrated, layoutShift, startStack, type Stack } from "./helpers.ts";

const LAPTOP = { width: 1366, height: 768 };
const WIDTHS = [
  ["phone", PHONE],
  ["laptop", LAPTOP],
] as const;
const POST = "/ar/blog/join-learn-build-earn"; // an Arabic post with a quote
const VENTURE = "/ar/ventures/clinic-ledger"; // an Arabic venture named in Latin letters
const ENGLISH_ONLY = "reader-english-only";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ browser: "full" }); // screenshots against baselines and font-swap shifts: FULL_CHROMIUM
  await stack.backend.services.databases.createDocument({
    databaseId: DATABASE_ID,
    collectionId: CONTENT_MODEL.post.collectionId,
    documentId: ID.unique(),
    data: placeholderDocument("post", {
      slug: ENGLISH_ONLY,
      locale: "en",
      title: "Only in English",
      authorName: "Test Author",
      excerpt: "A post nobody translated.",
      content: "<p>Written in <em>English</em> only.</p><blockquote><p>An English quote.</p></blockquote>",
      publishedDate: "2020-01-01T00:00:00.000+00:00",
    }),
    permissions: [Permission.read(Role.any())],
  });
});
afterAll(async () => {
  await stack?.close();
});

/**
 * `path` hydrated, with its web fonts in (started after its paint): in `page`, else in a fresh context at
 * `viewport`.
 */
async function open(path: string, viewport: { width: number; height: number }, page?: Page): Promise<Page> {
  page ??= await stack.page({ viewport, reducedMotion: "reduce" });
  await page.goto(path);
  await hydrated(page);
  await page.waitForFunction(() => !document.documentElement.classList.contains("fonts-later"), undefined, {
    polling: 50,
  });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  return page;
}

/** The first family of `selector`'s computed `font-family`, unquoted. */
const firstFamily = (page: Page, selector: string) =>
  page.$eval(selector, (el) => getComputedStyle(el).fontFamily.split(",")[0]!.trim().replace(/^"|"$/g, ""));

/**
 * Every element of the page whose language is Arabic and that holds text, with a style that fakes a slant
 * or spaces the letters: "tag.class: font-style / font-synthesis-style / letter-spacing".
 */
const fakedArabic = (page: Page) =>
  page.evaluate(() =>
    [...document.body.querySelectorAll("*")]
      .filter(
        (el) => el.matches(":lang(ar)") && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim()),
      )
      .map((el) => ({ el, style: getComputedStyle(el) }))
      .filter(
        ({ style }) =>
          style.fontStyle !== "normal" ||
          style.fontSynthesisStyle !== "none" ||
          !["normal", "0px"].includes(style.letterSpacing),
      )
      .map(
        ({ el, style }) =>
          `${el.tagName.toLowerCase()}.${el.className}: ${style.fontStyle} / ${style.fontSynthesisStyle} / ${style.letterSpacing}`,
      ),
  );

describe.each(WIDTHS)("an Arabic reader's pages, on a %s", (name, viewport) => {
  // These tests only read: one page at this width for all of them (issue #27 item 4).
  let reader: Page;
  beforeAll(async () => {
    reader = await stack.page({ viewport, reducedMotion: "reduce" });
  });

  it("sets the post's body in Naskh, its headings and the page around it in Kufi, nothing slanted", async () => {
    const page = await open(POST, viewport, reader);
    expect(await firstFamily(page, ".prose-body p")).toBe("Noto Naskh Arabic");
    expect(await firstFamily(page, ".prose-body blockquote")).toBe("Noto Naskh Arabic");
    expect(await firstFamily(page, ".prose-body h2")).toBe("Noto Kufi Arabic");
    expect(await firstFamily(page, "h1")).toBe("Noto Kufi Arabic");
    expect(await firstFamily(page, "header")).toBe("Noto Kufi Arabic");
    // The Naskh face is the one the browser drew the body with (loaded, not just named).
    expect(await page.evaluate(() => document.fonts.check('400 18px "Noto Naskh Arabic"', "سلام"))).toBe(true);
    expect(await page.$eval(".prose-body blockquote", (el) => getComputedStyle(el).fontStyle)).toBe("normal");
    expect(await fakedArabic(page)).toEqual([]);
    expect(await axeSerious(page)).toEqual([]);
    // The body in view: a paragraph, the quote and its Kufi heading.
    await page.$eval(".prose-body blockquote", (el) => el.scrollIntoView({ block: "center" }));
    await compareWithBaseline(page, `ar-post-${name}`);
  });

  it("keeps English italics inside an English version shown on an Arabic page, and the byline in Arabic order", async () => {
    const page = await open(`/ar/blog/${ENGLISH_ONLY}`, viewport, reader);
    expect(await page.$eval(".prose-body em", (el) => getComputedStyle(el).fontStyle)).toBe("italic");
    expect(await fakedArabic(page)).toEqual([]);
    const byline = await page.$eval("article p:has(time)", (p) => {
      const [by, time] = [p.querySelector("span")!, p.querySelector("time")!].map((e) => e.getBoundingClientRect());
      return {
        direction: getComputedStyle(p).direction,
        byRight: by!.right,
        timeRight: time!.right,
        text: p.textContent,
      };
    });
    expect(byline.direction).toBe("rtl");
    expect(byline.text).toContain("بقلم Test Author");
    expect(byline.byRight, "the byline comes first, at the right").toBeGreaterThan(byline.timeRight);
  });

  it("aligns a venture's Latin name with its Arabic block and never breaks it inside a sentence", async () => {
    const page = await open(VENTURE, viewport, reader);
    const heading = await page.$eval("h1", (h1) => {
      const range = document.createRange();
      range.selectNodeContents(h1);
      const text = range.getBoundingClientRect();
      const box = h1.getBoundingClientRect();
      const style = getComputedStyle(h1);
      return { direction: style.direction, align: style.textAlign, gapAtRight: box.right - text.right };
    });
    expect(heading.direction).toBe("rtl");
    expect(["start", "right"]).toContain(heading.align);
    expect(heading.gapAtRight, "the name sits at the right edge of its block").toBeLessThan(2);
    const names = await page.$$eval(".prose-body bdi, main p bdi", (all) =>
      all.map((bdi) => ({ text: bdi.textContent, lines: bdi.getClientRects().length })),
    );
    expect(names.filter((n) => n.text === "Clinic Ledger").length).toBeGreaterThan(1);
    for (const n of names) expect(n.lines, `${n.text} on one line`).toBe(1);
    expect(await fakedArabic(page)).toEqual([]);
    expect(await axeSerious(page)).toEqual([]);
    await compareWithBaseline(page, `ar-venture-${name}`);
  });

  it("shows /ar with its headings in Kufi and nothing slanted or letter-spaced", async () => {
    const page = await open("/ar", viewport, reader);
    expect(await firstFamily(page, "h1")).toBe("Noto Kufi Arabic");
    // The tagline and eyebrows carry `tracking-*` classes for English; Arabic letters stay joined.
    expect(await fakedArabic(page)).toEqual([]);
    expect(await axeSerious(page)).toEqual([]);
    await compareWithBaseline(page, `ar-home-${name}`);
  });
});

// What /ar/blog lists, with and without ?all=1, and its plain links between the two (no JavaScript needed):
// tests/integration/site-locales.test.ts "lists Arabic versions on /ar/blog, and every item once, English-only
// ones too, behind ?all=1". Here, what a reader's browser makes of both pages on a phone.
describe("the Arabic blog list", () => {
  it("has no serious axe violation on a phone, with and without the English-only posts", async () => {
    const page = await stack.page({ viewport: PHONE, reducedMotion: "reduce" });
    for (const path of ["/ar/blog", "/ar/blog?all=1"]) {
      await page.goto(path);
      await hydrated(page);
      expect(await axeSerious(page), path).toEqual([]);
    }
    expect(await page.$$eval("main li h3", (all) => all.map((h) => h.textContent))).toContain("Only in English");
  });
});

describe("the web fonts, after the first paint (decision 0018)", () => {
  /** The start of each `.woff2` request, the first contentful paint and the hero picture's paint, in ms. */
  const timings = (page: Page) =>
    page.evaluate(async () => {
      const hero = await new Promise<number | null>((resolve) => {
        if (!document.querySelector('img[elementtiming="hero"]')) return resolve(null);
        new PerformanceObserver((list) =>
          resolve((list.getEntries()[0] as unknown as { renderTime: number }).renderTime),
        ).observe({
          type: "element",
          buffered: true,
        });
      });
      return {
        paint: performance.getEntriesByName("first-contentful-paint")[0]!.startTime,
        hero,
        fonts: performance
          .getEntriesByType("resource")
          .filter((entry) => entry.name.endsWith(".woff2"))
          .map((entry) => ({ file: new URL(entry.name).pathname, start: entry.startTime })),
      };
    });

  // One load a page (issue #27 item 4): the web fonts are held until the page has painted in its fallbacks,
  // then released; the requests' start times do not depend on when the answers come.
  it.each([
    ["/ar", ""],
    [POST, " and its picture"],
    [VENTURE, " and its logo"],
  ])(
    "requests no web font on %s before the page%s painted, and moves nothing when they arrive late",
    async (path, hero) => {
      const page = await stack.page({ viewport: PHONE, reducedMotion: "reduce" });
      const { release, requested } = await holdFonts(page, /\.woff2$/);
      await page.goto(path, { waitUntil: "domcontentloaded" });
      await expect.poll(requested, { message: "the web fonts are requested" }).toBeGreaterThan(1);
      await page.waitForTimeout(500); // painted in the fallbacks, the web fonts requested and held
      expect(await page.evaluate(() => document.fonts.check('400 16px "Noto Kufi Arabic"', "سلام"))).toBe(false);
      release();
      await page.waitForFunction(() => !document.documentElement.classList.contains("fonts-later"), undefined, {
        polling: 50,
      });
      expect(await page.evaluate(() => document.fonts.check('400 16px "Noto Kufi Arabic"', "سلام"))).toBe(true);
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      await page.waitForTimeout(500); // layout-shift entries arrive after the frame that drew the swap
      const shifts = await layoutShift(page);
      // DejaVu Sans as it comes (the fallback before decision 0018) moved these pages by 0.005–0.013.
      expect(shifts, "cumulative layout shift of the swap").toBeLessThan(0.001);

      const timing = await timings(page);
      expect(timing.fonts.length, "web fonts requested").toBeGreaterThan(1);
      if (hero) expect(timing.hero, `${hero.trim()} is the page's hero`).not.toBeNull();
      const after = Math.max(timing.paint, timing.hero ?? 0);
      for (const font of timing.fonts)
        expect(font.start, `${font.file} requested after the paint`).toBeGreaterThanOrEqual(after);
      expect(await firstFamily(page, "h1")).toBe("Noto Kufi Arabic");
      expect(await page.evaluate(() => document.fonts.check('700 16px "Noto Kufi Arabic"', "سلام"))).toBe(true);
    },
  );

  it("loads the faces as the stylesheet finds them in a browser without JavaScript", async () => {
    const page = await stack.page({ viewport: PHONE, javaScriptEnabled: false });
    const fonts: string[] = [];
    page.on("response", (response) => {
      if (response.url().endsWith(".woff2") && response.ok()) fonts.push(new URL(response.url()).pathname);
    });
    await page.goto(POST);
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => document.documentElement.className)).toBe("");
    expect(await firstFamily(page, ".prose-body p")).toBe("Noto Naskh Arabic");
    expect(fonts.some((file) => file.includes("noto-naskh-arabic-arabic-400"))).toBe(true);
  });
});
