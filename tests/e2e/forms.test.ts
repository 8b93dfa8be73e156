import { Query, type Models } from "node-appwrite";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { hydrated, startStack, type Stack } from "./helpers.ts";
import { SUBMISSION_MODEL } from "../../model/model.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

/** The stored documents of a collection with the given e-mail (what the studio will read). */
async function stored(collectionId: string, email: string): Promise<Models.DefaultDocument[]> {
  const page = await stack.backend.services.databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId,
    queries: [Query.limit(100)],
  });
  return page.documents.filter((d) => d.email === email);
}

/** Holds the form's POST until `release` is called, so the busy state can be seen. */
async function holdPosts(page: Page): Promise<() => void> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\.data/, async (route) => {
    if (route.request().method() === "POST") await gate;
    await route.continue();
  });
  return release;
}

/** The values of the form's visible fields (not the hidden honeypot, SECURITY C57). */
const fieldValues = (page: Page) =>
  page
    .locator('form input:not([name="website"]), form textarea')
    .evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value));

// Without JavaScript, the server's answers to the forms (stored, "Thank You!" with the form emptied; a blank
// field refused with the form refilled): tests/integration/site-seo.test.ts "the form actions without
// JavaScript"; a no-JavaScript submission in Chromium: tests/e2e/visitor-screens.test.ts "is focused and in view
// on the page the server answers without JavaScript, on a phone".
describe("the community application form", () => {
  it("submits with JavaScript: Submitting..., then Thank You! and an empty form; stored with the interest as projectIdea", async () => {
    const page = await stack.page();
    await page.goto("/en/community");
    await hydrated(page);
    await page.locator("form").getByLabel("Full name").fill("Ada Founder");
    await page.locator("form").getByLabel("Email address").fill("ada@example.com");
    await page
      .locator("form")
      .getByLabel("What are you interested in")
      .fill("A bookkeeping agency for dental clinics.");
    const release = await holdPosts(page);
    await page.getByRole("button", { name: "Submit Application" }).click();
    const busy = page.getByRole("button", { name: "Submitting..." });
    await expect.poll(() => busy.isDisabled()).toBe(true);
    release();
    await expect
      .poll(() => page.getByRole("status").textContent())
      .toBe("Thank You!We've received your submission and will be in touch soon with details about our community.");
    expect(await fieldValues(page)).toEqual(["", "", ""]);
    const [application] = await stored(SUBMISSION_MODEL.communityApplication.collectionId, "ada@example.com");
    expect(application).toMatchObject({ name: "Ada Founder", projectIdea: "A bookkeeping agency for dental clinics." });
  });

  it("goes straight to the error state with empty fields, sending nothing", async () => {
    const page = await stack.page();
    await page.goto("/ar/community");
    await hydrated(page);
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });
    await page.locator("form").getByLabel("البريد الإلكتروني").fill("not-an-address");
    await page.getByRole("button", { name: "أرسل الطلب" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("يرجى تعبئة جميع الحقول بشكل صحيح.");
    expect(await page.locator("form").textContent()).toContain("هذا الحقل مطلوب.");
    expect(await page.locator("form").textContent()).toContain("أدخل بريدًا إلكترونيًا صحيحًا");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("name");
    expect(posts).toEqual([]);
    expect(await stored(SUBMISSION_MODEL.communityApplication.collectionId, "not-an-address")).toEqual([]);
  });
});

describe("the contact form", () => {
  it("sends with JavaScript in Arabic: Sending..., then Message Sent! and an empty form; stored", async () => {
    const page = await stack.page();
    await page.goto("/ar/contact");
    await hydrated(page);
    await page.locator("form").getByLabel("الاسم الكامل").fill("ليلى");
    await page.locator("form").getByLabel("البريد الإلكتروني").fill("layla@example.com");
    await page.locator("form").getByLabel("الرسالة").fill("أود معرفة المزيد عن برنامج الشراكة.");
    const release = await holdPosts(page);
    await page.getByRole("button", { name: "أرسل الرسالة" }).click();
    await expect.poll(() => page.getByRole("button", { name: "جارٍ الإرسال..." }).isDisabled()).toBe(true);
    release();
    await expect
      .poll(() => page.getByRole("status").textContent())
      .toBe("تم إرسال الرسالة!شكرًا لرسالتك! سنعود إليك قريبًا.");
    expect(await fieldValues(page)).toEqual(["", "", ""]);
    const [message] = await stored(SUBMISSION_MODEL.contactMessage.collectionId, "layla@example.com");
    expect(message).toMatchObject({ name: "ليلى", message: "أود معرفة المزيد عن برنامج الشراكة." });
  });

  it("shows Please correct the errors below. for an invalid e-mail and keeps what was typed", async () => {
    const page = await stack.page();
    await page.goto("/en/contact");
    await hydrated(page);
    await page.locator("form").getByLabel("Full name").fill("Bob");
    await page.locator("form").getByLabel("Email address").fill("bob@");
    await page.locator("form").getByLabel("Message").fill("Hello there");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Please correct the errors below.");
    expect(await page.locator("form").getByLabel("Email address").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("form").textContent()).toContain(
      "Enter a valid email address, such as name@example.com.",
    );
    expect(await fieldValues(page)).toEqual(["Bob", "bob@", "Hello there"]);
  });
});

describe("other pages without JavaScript", () => {
  it("opens an approach tab through its link and the menu through the popover", async () => {
    const page = await stack.page({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    await page.goto("/en/services");
    await page.getByRole("tab", { name: "Organizational Culture" }).click();
    await page.waitForURL((url) => url.search === "?tab=3");
    expect(await page.getByRole("tab", { selected: true }).textContent()).toBe("Organizational Culture");
    expect(await page.getByRole("tabpanel").textContent()).toContain("Small teams with real ownership");

    await page.getByRole("button", { name: "Open menu" }).click();
    await expect.poll(() => page.locator("#mobile-menu").isVisible()).toBe(true);
    await page.locator("#mobile-menu").getByRole("link", { name: "Contact" }).click();
    await page.waitForURL((url) => url.pathname === "/en/contact");
  });
});

describe("when Appwrite is unreachable", () => {
  it("shows the submission error when the message cannot be stored", async () => {
    const page = await stack.page();
    await page.goto("/en/contact");
    await hydrated(page);
    await stack.backend.emulator.close(); // Appwrite goes away while the visitor types
    await page.locator("form").getByLabel("Full name").fill("Carol");
    await page.locator("form").getByLabel("Email address").fill("carol@example.com");
    await page.locator("form").getByLabel("Message").fill("Is anyone there?");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect
      .poll(() => page.getByRole("alert").textContent())
      .toBe("An error occurred during submission. Please try again.");
    expect(await fieldValues(page)).toEqual(["Carol", "carol@example.com", "Is anyone there?"]);
  });
});
