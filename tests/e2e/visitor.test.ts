import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE, hydrated, startStack, type Stack } from "./helpers.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const h1 = (page: Page) => page.locator("h1").first().textContent();

describe("a visitor browsing the site", () => {
  it("reaches every page of the header navigation, in order, with its own title", async () => {
    const page = await stack.page();
    await page.goto("/en");
    await hydrated(page);
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    const labels = await nav.getByRole("link").allTextContents();
    expect(labels).toEqual(["Home", "About", "Model", "Ventures", "Insights", "Community", "Partner", "Contact"]);
    const expected: [string, string, string][] = [
      ["About", "/en/about", "Built by an operator, for operators"],
      ["Model", "/en/services", "A repeatable way to build service businesses"],
      ["Ventures", "/en/ventures", "Our ventures"],
      ["Insights", "/en/blog", "Insights"],
      ["Community", "/en/community", "Join, Learn, Build, Earn"],
      ["Partner", "/en/partner", "Build the Business Service Network with us"],
      ["Contact", "/en/contact", "Let's talk"],
      ["Home", "/en", "Build Micro Service Agencies that scale together"],
    ];
    for (const [label, path, heading] of expected) {
      await nav.getByRole("link", { name: label, exact: true }).click();
      await page.waitForURL((url) => url.pathname === path);
      await expect.poll(() => h1(page), { message: label }).toBe(heading);
      await expect.poll(() => page.title()).toContain("Venture Studio");
      await expect
        .poll(() => nav.getByRole("link", { name: label, exact: true }).getAttribute("aria-current"))
        .toBe("page");
    }
  });

  it("switches language on the same page, right-to-left in Arabic, keeping the query", async () => {
    const page = await stack.page();
    await page.goto("/en/services?tab=2");
    await hydrated(page);
    await page.getByRole("link", { name: "Language: العربية" }).click();
    await page.waitForURL((url) => url.pathname === "/ar/services" && url.search === "?tab=2");
    await expect.poll(() => page.locator("html").getAttribute("dir")).toBe("rtl");
    expect(await page.locator("html").getAttribute("lang")).toBe("ar");
    expect(await h1(page)).toBe("طريقة قابلة للتكرار لبناء الأعمال الخدمية");
    expect(await page.getByRole("tab", { selected: true }).textContent()).toBe("النموذج التشغيلي");
    const font = await page.locator("h1").evaluate((el) => getComputedStyle(el).fontFamily);
    expect(font).toContain("Noto Kufi Arabic");
    await page.getByRole("link", { name: "اللغة: English" }).click();
    await page.waitForURL((url) => url.pathname === "/en/services");
    await expect.poll(() => page.locator("html").getAttribute("dir")).toBe("ltr");
  });

  it("flips directional arrows and mirrors the layout in Arabic", async () => {
    const page = await stack.page();
    for (const [locale, scale] of [
      ["en", "none"],
      ["ar", "-1 1"],
    ] as const) {
      await page.goto(`/${locale}/blog/join-learn-build-earn`);
      // The back arrow points left in English and right in Arabic (the reading direction's "back").
      const back = page.locator("article > a").first().locator("svg");
      expect(await back.evaluate((el) => getComputedStyle(el).scale)).toBe(scale);
      const brand = await page.locator("header a").nth(1).boundingBox();
      expect(brand).not.toBeNull();
      // The brand sits at the start of the header: left in English, right in Arabic.
      if (locale === "en") expect(brand!.x).toBeLessThan(DESKTOP.width / 2);
      else expect(brand!.x).toBeGreaterThan(DESKTOP.width / 2);
    }
  });

  it("opens the slide-in menu on a phone, from the inline end, with the Build With Us button", async () => {
    for (const [locale, label, buildWithUs] of [
      ["en", "Open menu", "Build With Us"],
      ["ar", "فتح القائمة", "ابنِ معنا"],
    ] as const) {
      const page = await stack.page({ viewport: PHONE });
      await page.goto(`/${locale}`);
      await hydrated(page);
      expect(await page.getByRole("navigation", { name: /Main navigation|التنقل الرئيسي/ }).isVisible()).toBe(false);
      const menu = page.locator("#mobile-menu");
      expect(await menu.isVisible()).toBe(false);
      await page.getByRole("button", { name: label }).click();
      await expect.poll(() => menu.isVisible()).toBe(true);
      // It slides in from the inline end: the right edge in English, the left edge in Arabic.
      await expect
        .poll(async () => {
          const box = await menu.boundingBox();
          return box && Math.round(locale === "en" ? PHONE.width - box.x - box.width : box.x);
        })
        .toBe(0);
      expect(await menu.getByRole("link", { name: buildWithUs }).getAttribute("href")).toBe(`/${locale}/community`);

      await page.keyboard.press("Escape");
      await expect.poll(() => menu.isVisible()).toBe(false);

      await page.getByRole("button", { name: label }).click();
      await menu.getByRole("link", { name: locale === "en" ? "Partner" : "الشراكة" }).click();
      await page.waitForURL((url) => url.pathname === `/${locale}/partner`);
      await expect.poll(() => menu.isVisible()).toBe(false);
      await page.getByRole("button", { name: label }).click();
      await menu.getByRole("link", { name: buildWithUs }).click();
      await page.waitForURL((url) => url.pathname === `/${locale}/community`);
    }
  });

  it("shows the first approach tab and switches tabs by click and by arrow keys in the reading direction", async () => {
    const page = await stack.page();
    await page.goto("/en/services");
    await hydrated(page);
    const tabs = page.getByRole("tab");
    expect(await tabs.allTextContents()).toEqual([
      "Strategic Foundation",
      "Operational Model",
      "Organizational Culture",
    ]);
    expect(await page.getByRole("tab", { selected: true }).textContent()).toBe("Strategic Foundation");
    expect(await page.getByRole("tabpanel").textContent()).toContain("Start from a sharp position");

    await page.getByRole("tab", { name: "Operational Model" }).click();
    expect(await page.getByRole("tabpanel").textContent()).toContain("Run on playbooks, not heroes");
    expect(page.url()).not.toContain("tab=");
    await page.keyboard.press("ArrowRight");
    expect(await page.getByRole("tab", { selected: true }).textContent()).toBe("Organizational Culture");
    expect(await page.getByRole("tabpanel").textContent()).toContain("Small teams with real ownership");
    await page.keyboard.press("ArrowRight");
    expect(await page.getByRole("tab", { selected: true }).textContent()).toBe("Strategic Foundation");

    await page.goto("/ar/services");
    await hydrated(page);
    await page.getByRole("tab", { selected: true }).focus();
    await page.keyboard.press("ArrowLeft");
    expect(await page.getByRole("tab", { selected: true }).textContent()).toBe("النموذج التشغيلي");
    const phases = await page.locator("#process ~ div ol > li h3").allTextContents();
    expect(phases).toHaveLength(8);
    expect(await page.locator("#capabilities ~ div ul > li").count()).toBe(6);
  });

  it("shows the error text when a list fails to load", async () => {
    const page = await stack.page();
    await page.goto("/ar");
    await hydrated(page);
    await page.route(/\/ar\/blog\.data/, (route) => route.fulfill({ status: 500, body: "backend down" }));
    await page.getByRole("link", { name: "اقرأ المدونة" }).click();
    await page.waitForURL((url) => url.pathname === "/ar/blog");
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("حدث خطأ. يرجى المحاولة لاحقًا.");
    await expect.poll(() => h1(page)).toBe("رؤى");
  });

  // The status and text of unknown paths, ventures and posts in both languages: tests/integration/site.test.ts
  // "answers 404 with the spec's texts for unknown slugs and paths"; here, the hydrated page's Go Home link.
  it("answers an unknown path with the not-found page, whose Go Home button goes home", async () => {
    const page = await stack.page();
    const response = await page.goto("/en/no/such/page");
    expect(response?.status()).toBe(404);
    await hydrated(page);
    expect(await h1(page)).toBe("Page Not Found");
    expect(await page.locator("main").textContent()).toContain(
      "The page you're looking for doesn't exist or has been moved.",
    );
    await page.getByRole("link", { name: "Go Home" }).click();
    await page.waitForURL((url) => url.pathname === "/en");
  });

  it("scrolls to the top when the path changes", async () => {
    const page = await stack.page();
    await page.goto("/en/about");
    await hydrated(page);
    await page.getByRole("contentinfo").getByRole("link", { name: "Terms of Use" }).click();
    await page.waitForURL((url) => url.pathname === "/en/terms-of-use");
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect.poll(() => h1(page)).toBe("Terms of Use");
  });

  it("fades sections in when a tenth of them is visible, and not at all with reduced motion", async () => {
    const page = await stack.page();
    await page.goto("/en/about");
    await hydrated(page);
    const values = page.locator("section[aria-labelledby=values] .fade-in");
    expect(await values.evaluate((el) => getComputedStyle(el).opacity)).toBe("0");
    await values.scrollIntoViewIfNeeded();
    await expect.poll(() => values.evaluate((el) => getComputedStyle(el).opacity)).toBe("1");

    const calm = await stack.page({ reducedMotion: "reduce" });
    await calm.goto("/en/about");
    await hydrated(calm);
    const calmValues = calm.locator("section[aria-labelledby=values] .fade-in");
    expect(await calmValues.evaluate((el) => getComputedStyle(el).opacity)).toBe("1");
  });
});
