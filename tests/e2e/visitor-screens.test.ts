/**
 * What visitors see (issue 18 item 6), in Chromium at a desktop (1280 px) and a phone (390 px) width: the
 * form result box below the sticky header and focused, skeletons in the shape of the cards that replace them,
 * the phone menu (scroll lock, its own language switch, Escape, focus back on its button), the self-hosted
 * Inter, and the scripts fetched after the first paint. (The stylesheet inlined under the CSP nonce and the
 * scripts written inert are server HTML: tests/security/headers.test.ts and tests/integration/hydration-scripts.test.ts.)
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE, holdFonts, hydrated, layoutShift, startStack, type Stack } from "./helpers.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

/** Where `selector`'s element is against the sticky header and the viewport, in CSS px. */
function placement(page: Page, selector: string) {
  return page.evaluate((selector) => {
    const box = document.querySelector(selector)!.getBoundingClientRect();
    const header = document.querySelector("body > header, header")!.getBoundingClientRect();
    return { top: box.top, bottom: box.bottom, headerBottom: header.bottom, viewport: window.innerHeight };
  }, selector);
}

/** Expects `selector`'s element wholly in view and below the sticky header. */
async function expectInView(page: Page, selector: string): Promise<void> {
  const at = await placement(page, selector);
  expect(at.top, `${selector} top below the header (${JSON.stringify(at)})`).toBeGreaterThanOrEqual(at.headerBottom);
  expect(at.bottom, `${selector} bottom in the viewport (${JSON.stringify(at)})`).toBeLessThanOrEqual(at.viewport);
}

/**
 * Scrolls the page so that the form's top edge is `top` px from the viewport's (under the sticky header, or
 * above the viewport when negative), as after a visitor filled it in.
 */
const scrollFormTo = (page: Page, top: number) =>
  page.evaluate((top) => window.scrollBy(0, document.querySelector("form")!.getBoundingClientRect().top - top), top);

describe("the form result box", () => {
  // Where the form's top is when the visitor submits: under the header on a desktop, scrolled off on a phone.
  for (const [name, viewport, formTop] of [
    ["desktop", DESKTOP, 10],
    ["phone", PHONE, -250],
  ] as const) {
    it(`comes into view below the header and takes the focus on success, on a ${name}`, async () => {
      const page = await stack.page({ viewport });
      await page.goto("/en/contact");
      await hydrated(page);
      await page.locator("form").getByLabel("Full name").fill(`Screen ${name}`);
      await page.locator("form").getByLabel("Email address").fill(`screen-${name}@example.com`);
      await page.locator("form").getByLabel("Message").fill("Where does the answer appear?");
      await scrollFormTo(page, formTop);
      const before = await placement(page, "form");
      expect(before.top).toBeLessThan(before.headerBottom); // the box's place is under the header or above
      await page.getByRole("button", { name: "Send Message" }).click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("status");
      expect(await page.locator(":focus").textContent()).toContain("Message Sent!");
      await expectInView(page, "form [role=status]");
    });

    it(`shows the error box below the header and focuses the first field to correct, on a ${name}`, async () => {
      const page = await stack.page({ viewport });
      await page.goto("/en/community");
      await hydrated(page);
      await page.locator("form").getByLabel("Email address").fill("not-an-address");
      await scrollFormTo(page, formTop);
      await page.getByRole("button", { name: "Submit Application" }).click();
      await expect.poll(() => page.getByRole("alert").textContent()).toBe("Please fill out all fields correctly.");
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("name");
      await expectInView(page, "form [role=alert]");
    });
  }

  it("is focused and in view on the page the server answers without JavaScript, on a phone", async () => {
    const page = await stack.page({ viewport: PHONE, javaScriptEnabled: false });
    await page.goto("/en/contact");
    await page.locator("form").getByLabel("Full name").fill("No Script Phone");
    await page.locator("form").getByLabel("Email address").fill("noscript-phone@example.com");
    await page.locator("form").getByLabel("Message").fill("Sent without JavaScript.");
    await page.getByRole("button", { name: "Send Message" }).click();
    await page.waitForLoadState("load");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("status");
    await expectInView(page, "form [role=status]");
  });
});

/** The boxes of the first card's parts in the list grid (skeleton or real), relative to the page. */
function firstCard(page: Page, cards: string, media: string) {
  return page.evaluate(
    ([cards, media]) => {
      const card = document.querySelector(`main [data-skeleton-card], ${cards}`)!;
      const rect = (el: Element | null) => {
        const r = el!.getBoundingClientRect();
        const round = Math.round;
        return { x: round(r.x), y: round(r.y + scrollY), width: round(r.width), height: round(r.height) };
      };
      return {
        card: rect(card),
        media: rect(card.querySelector(media)),
        skeleton: card.hasAttribute("data-skeleton-card"),
      };
    },
    [cards, media] as const,
  );
}

describe("the list skeletons", () => {
  // The list, the link to it from home, its heading, its real cards, the logo or image in a card; at two widths.
  const VENTURES = [
    "ventures",
    "View all ventures",
    "Our ventures",
    "main ul > li",
    ":scope > div > :first-child",
  ] as const;
  const BLOG = ["blog", "Read the blog", "Insights", "main section ul > li", ":scope > :first-child"] as const;
  for (const [[list, link, heading, cards, media], viewport] of [
    [VENTURES, DESKTOP],
    [VENTURES, PHONE],
    [BLOG, DESKTOP],
    [BLOG, PHONE],
  ] as const) {
    it(`show 6 cards in the shape of the ${list} cards that replace them, under the heading, at ${viewport.width} px (no layout shift)`, async () => {
      // Reduced motion: the posts' fade-in would move them while they are measured.
      const page = await stack.page({ viewport, reducedMotion: "reduce" });
      await page.goto("/en");
      await hydrated(page);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      await page.route(new RegExp(`/en/${list}\\.data`), async (route) => {
        await gate;
        await route.continue();
      });
      await page.getByRole("link", { name: link }).click();
      await expect.poll(() => page.locator("[data-skeleton-card]").count()).toBe(6);
      // The list's page while its data loads: its heading over the 6 cards, and the loading status.
      expect(await page.getByRole("status").textContent()).toBe("Loading...");
      expect(await page.locator("h1").first().textContent()).toBe(heading);
      const skeleton = await firstCard(page, cards, media);
      // Layout shifts from here on: the skeleton giving way to the list.
      await page.evaluate(() => {
        (window as unknown as { shifts: number }).shifts = 0;
        new PerformanceObserver((entries) => {
          for (const entry of entries.getEntries())
            (window as unknown as { shifts: number }).shifts += (entry as unknown as { value: number }).value;
        }).observe({ type: "layout-shift" });
      });
      release();
      await expect.poll(() => page.locator("[data-skeleton-card]").count()).toBe(0);
      const real = await firstCard(page, cards, media);
      expect(skeleton.skeleton && !real.skeleton).toBe(true);
      // The logo or image: same place and size. The card: same place and width, height within 15 %.
      expect(skeleton.media).toEqual(real.media);
      expect({ ...skeleton.card, height: 0 }).toEqual({ ...real.card, height: 0 });
      expect(Math.abs(skeleton.card.height - real.card.height) / real.card.height).toBeLessThan(0.15);
      await page.waitForTimeout(500); // layout-shift entries arrive after the frame that painted the list
      const shifts = await page.evaluate(() => (window as unknown as { shifts: number }).shifts);
      expect(shifts, "cumulative layout shift while the list replaced its skeleton").toBeLessThan(0.01);
    });
  }
});

describe("the phone menu", () => {
  it("locks the page's scroll, carries the language switch, closes on Escape and gives the focus back", async () => {
    const page = await stack.page({ viewport: PHONE });
    await page.goto("/en/about");
    await hydrated(page);
    await page.mouse.wheel(0, 400);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const scrolled = await page.evaluate(() => window.scrollY);
    const open = page.getByRole("button", { name: "Open menu" });
    const menu = page.locator("#mobile-menu");
    // The menu slides in: a click during the slide can land on the backdrop beside the moving link, which closes
    // the menu instead of following the link. Wait until its transition has finished, as a finger would.
    const slidIn = () =>
      menu.evaluate((element) => Promise.allSettled(element.getAnimations().map((a) => a.finished)).then(() => {}));
    await open.click();
    await expect.poll(() => menu.isVisible()).toBe(true);
    await slidIn();
    // Focus starts inside the menu, on its first link.
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest("#mobile-menu") !== null)).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflowY)).toBe("hidden");
    await page.mouse.move(20, 400); // over the backdrop, beside the menu
    await page.mouse.wheel(0, 600);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);

    await page.keyboard.press("Escape");
    await expect.poll(() => menu.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Open menu");
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflowY)).not.toBe("hidden");

    await open.click();
    await expect.poll(() => menu.isVisible()).toBe(true);
    await slidIn();
    const language = menu.getByRole("link", { name: "Language: العربية" });
    expect(await language.isVisible()).toBe(true);
    await language.click();
    await page.waitForURL((url) => url.pathname === "/ar/about");
    await expect.poll(() => menu.isVisible(), { timeout: 5_000 }).toBe(false);
    await expect.poll(() => page.locator("html").getAttribute("dir")).toBe("rtl");
  });
});

describe("fonts and the stylesheet", () => {
  it("serves Inter for English pages, and only the Arabic face for Arabic ones", async () => {
    const page = await stack.page();
    const fonts: string[] = [];
    page.on("response", (response) => {
      if (response.url().endsWith(".woff2") && response.ok()) fonts.push(new URL(response.url()).pathname);
    });
    await page.goto("/en");
    await hydrated(page);
    await page.evaluate(() => document.fonts.ready);
    expect(await page.locator("h1").evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/^Inter,/);
    expect(await page.evaluate(() => document.fonts.check("700 16px Inter"))).toBe(true);
    expect(fonts).toEqual([expect.stringMatching(/^\/assets\/inter-latin-wght-normal-[\w-]+\.woff2$/)]);

    fonts.length = 0;
    const arabic = await stack.page();
    arabic.on("response", (response) => {
      if (response.url().endsWith(".woff2") && response.ok()) fonts.push(new URL(response.url()).pathname);
    });
    await arabic.goto("/ar");
    await hydrated(arabic);
    await arabic.evaluate(() => document.fonts.ready);
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.every((f) => f.includes("noto-kufi-arabic"))).toBe(true);
  });

  it("barely moves the English home page when Inter swaps in late (metric-matched fallback)", async () => {
    const page = await stack.page({ viewport: PHONE, reducedMotion: "reduce" });
    const { release } = await holdFonts(page, /inter-latin-wght-normal-[\w-]+\.woff2$/);
    await page.goto("/en", { waitUntil: "domcontentloaded" });
    await page.waitForTimeout(500); // painted in the fallback
    expect(await page.evaluate(() => document.fonts.check("700 16px Inter"))).toBe(false);
    release();
    await expect.poll(() => page.evaluate(() => document.fonts.check("700 16px Inter"))).toBe(true);
    await page.waitForTimeout(500);
    const shifts = await layoutShift(page);
    expect(shifts, "cumulative layout shift of the swap").toBeLessThan(0.02);
  });

  it("fetches the page's scripts only after its first contentful paint, then hydrates and navigates", async () => {
    const page = await stack.page({ viewport: DESKTOP });
    await page.goto("/ar/contact");
    await hydrated(page);
    const timing = await page.evaluate(() => ({
      paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
      scripts: performance
        .getEntriesByType("resource")
        .filter((entry) => new URL(entry.name).pathname.endsWith(".js"))
        .map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime })),
    }));
    expect(timing.scripts.length, "modules loaded").toBeGreaterThan(2);
    for (const script of timing.scripts)
      expect(script.start, `${script.path} requested after the first contentful paint`).toBeGreaterThanOrEqual(
        timing.paint,
      );
    // Hydrated: the link below goes through the client router (no new document).
    await page.locator('header a[href="/ar/about"]').first().click();
    await page.waitForURL(/\/ar\/about$/);
    expect(await page.evaluate(() => performance.getEntriesByType("navigation").length)).toBe(1);
    expect(await page.evaluate(() => history.length)).toBeGreaterThan(1);
  });

  it("hydrates at the next frame in a browser without Paint Timing, not on the 3 s safety timer", async () => {
    const page = await stack.page({ viewport: DESKTOP });
    await page.addInitScript(() => {
      // A browser without Paint Timing: "paint" is not a supported entry type, and observing it delivers nothing.
      const types = PerformanceObserver.supportedEntryTypes.filter((type) => type !== "paint");
      Object.defineProperty(PerformanceObserver, "supportedEntryTypes", { get: () => types });
      const observe = PerformanceObserver.prototype.observe;
      PerformanceObserver.prototype.observe = function (options) {
        if (options?.type !== "paint") observe.call(this, options);
      };
      // The loader's safety timer never fires here: only the fallback can start the scripts.
      const setTimer = window.setTimeout;
      window.setTimeout = ((handler: TimerHandler, ms?: number, ...rest: unknown[]) =>
        (ms ?? 0) >= 3000 ? 0 : setTimer(handler, ms, ...rest)) as typeof window.setTimeout;
    });
    await page.goto("/en/contact");
    await hydrated(page);
    await page.locator('header a[href="/en/about"]').first().click();
    await page.waitForURL(/\/en\/about$/);
    expect(await page.evaluate(() => performance.getEntriesByType("navigation").length)).toBe(1);
  });
});
