/**
 * Issue #29 items 1 and 2 in Chromium: explicit publishing and scheduling to the minute in the site's time
 * zone (Asia/Riyadh here), in the English admin on a desktop and the Arabic admin on a 390 px phone. Save
 * keeps a draft private (guests get 404); Publish… names the versions in its dialog and publishes; Unpublish…
 * makes it private again; Schedule… at 09:07 Riyadh time says that time and zone in the dialog, the flash and
 * the list, and stores 06:07 UTC; an unreviewed Arabic translation stays private unless its box is ticked, and
 * a publish sent without the dialog (no JavaScript) is refused with a clear message.
 */
import { AppwriteException, Query, Teams } from "node-appwrite";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { STUDIO_TEAM_ID } from "../../model/team.ts";
import { setSiteTimeZone } from "../../lib/publish/site-time-zone.ts";
import { createUser, htmlSource, newUser, ready, sessionPages, statusOf, type Credentials } from "./admin-helpers.ts";
import { PHONE, startStack, type Stack } from "./helpers.ts";

let stack: Stack;
let owner: Credentials;

/** Tolerates what exists already (the site template may hold the studio team). */
const unlessExists = (error: unknown) => {
  if (!(error instanceof AppwriteException && error.code === 409)) throw error;
};

beforeAll(async () => {
  stack = await startStack();
  owner = await createUser(stack, newUser("Publisher"));
  const { users, client } = stack.backend.services;
  const ownerId = (await users.list({ search: owner.email })).users.find((u) => u.email === owner.email)!.$id;
  const teams = new Teams(client);
  await teams.create({ teamId: STUDIO_TEAM_ID, name: "Studio" }).catch(unlessExists);
  await teams.createMembership({ teamId: STUDIO_TEAM_ID, roles: ["owner"], userId: ownerId }).catch(unlessExists);
  await setSiteTimeZone(client, "Asia/Riyadh");
}, 180_000);
afterAll(async () => {
  await stack?.close();
});

/** A page of the owner's on the dashboard in `locale` (one sign-in for the file). */
const signedIn = sessionPages(
  () => stack,
  () => owner,
);

const field = (page: Page, name: string) => page.locator(`form [name="${name}"]`).first();
const button = (page: Page, intent: string) => page.locator(`form button[name=intent][value=${intent}]`).first();
const dialog = (page: Page) => page.locator("dialog[open]");
const flash = async (page: Page) =>
  ((await page.locator("main [role=status][aria-live=polite]").first().textContent()) ?? "").replace(
    /[\u2066-\u2069]/g,
    "",
  );
const venture = async (slug: string, locale = "en") =>
  (
    await stack.backend.services.tablesDB.listRows({
      databaseId: DATABASE_ID,
      tableId: CONTENT_MODEL.venture.collectionId,
      queries: [Query.equal("slug", slug), Query.equal("locale", locale)],
    })
  ).rows[0];

async function newVenture(page: Page, name: string, slug: string): Promise<void> {
  await page.goto("/admin/ventures/new");
  await ready(page);
  await field(page, "name").fill(name);
  await field(page, "slug").fill(slug);
  await field(page, "websiteURL").fill("https://publish.example");
  await field(page, "shortDescription").fill("Published on purpose.");
  await (await htmlSource(page, "caseStudy")).fill("<p>On purpose.</p>");
}

/**
 * Waits for a save to be done: it lands on the item's edit page (issue #29 item 3; a new item on its own),
 * whose flash says `text`.
 */
async function landed(page: Page, text: string): Promise<void> {
  await page.waitForURL((u) => u.pathname.startsWith("/admin/ventures/edit/"));
  await expect.poll(() => flash(page)).toContain(text);
  await ready(page);
}

async function openEdit(page: Page, id: string): Promise<void> {
  await page.goto(`/admin/ventures/edit/${id}`);
  await ready(page);
}

describe("explicit publishing", () => {
  it("in English: Save keeps a draft private, Publish… names the versions and publishes, Unpublish… hides it", async () => {
    const page = await signedIn("en");
    await newVenture(page, "Explicit Venture", "explicit-venture");
    expect(await button(page, "save").textContent()).toBe("Save");
    expect(await button(page, "publish").textContent()).toBe("Publish…");
    await button(page, "save").click();
    await landed(page, "Created “Explicit Venture”.");
    const draft = await venture("explicit-venture");
    expect(new URL(page.url()).pathname).toBe(`/admin/ventures/edit/${draft!.$id}`);
    expect(draft?.status).toBe("draft");
    expect(await statusOf(stack, "/en/ventures/explicit-venture")).toBe(404);

    // Saved again, still a draft: saving never changes visibility.
    await openEdit(page, draft!.$id);
    await button(page, "save").click();
    await landed(page, "Saved “Explicit Venture”.");
    expect((await venture("explicit-venture"))?.status).toBe("draft");

    await openEdit(page, draft!.$id);
    await button(page, "publish").click();
    await expect.poll(() => dialog(page).isVisible()).toBe(true);
    expect(await dialog(page).textContent()).toContain("Goes public now: English.");
    // Escape closes it, nothing sent.
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog(page).count()).toBe(0);
    expect((await venture("explicit-venture"))?.status).toBe("draft");
    await button(page, "publish").click();
    await dialog(page).getByRole("button", { name: "Publish", exact: true }).click();
    await landed(page, "Published “Explicit Venture”: English.");
    expect(await statusOf(stack, "/en/ventures/explicit-venture")).toBe(200);

    await openEdit(page, draft!.$id);
    expect(await button(page, "save").textContent()).toBe("Update");
    expect(await page.locator("form button[name=intent][value=publish]").count()).toBe(0);
    await button(page, "unpublish").click();
    expect(await dialog(page).textContent()).toContain("Becomes a draft that visitors cannot see");
    await dialog(page).getByRole("button", { name: "Unpublish", exact: true }).click();
    await landed(page, "“Explicit Venture” is now a draft.");
    expect(await statusOf(stack, "/en/ventures/explicit-venture")).toBe(404);
  });

  it("in English: an unreviewed Arabic translation stays private unless ticked; without the dialog it is refused", async () => {
    const page = await signedIn("en");
    await newVenture(page, "Two Tongues", "two-tongues");
    await page.getByRole("tab", { name: "العربية" }).click();
    await field(page, "ar.name").fill("لسانان");
    await field(page, "ar.shortDescription").fill("منشور عن قصد.");
    await (await htmlSource(page, "ar.caseStudy")).fill("<p>عن قصد.</p>");
    await button(page, "save").click();
    await landed(page, "Created “Two Tongues”.");
    const id = (await venture("two-tongues"))!.$id;

    // No JavaScript's way: the publish button's own submit, without the dialog, is refused.
    await openEdit(page, id);
    const refused = await page.evaluate(async () => {
      const form = document.querySelector<HTMLFormElement>("form[method=post][enctype]")!;
      const data = new FormData(form);
      data.set("intent", "publish");
      const response = await fetch(location.pathname, { method: "POST", body: data });
      return { status: response.status, text: await response.text() };
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("Not published: the");
    expect((await venture("two-tongues"))?.status).toBe("draft");

    await button(page, "publish").click();
    const text = (await dialog(page).textContent()) ?? "";
    expect(text).toContain("Goes public now: English.");
    expect(text).toContain("Not reviewed yet: العربية.");
    await dialog(page).getByRole("button", { name: "Publish", exact: true }).click();
    await landed(page, "Published “Two Tongues”: English. Not published, its translation not reviewed yet: العربية.");
    expect(await statusOf(stack, "/en/ventures/two-tongues")).toBe(200);
    // The Arabic page falls back to the English version; the Arabic one itself stays the team's.
    const arabic = await venture("two-tongues", "ar");
    expect(arabic?.status).toBe("draft");
    expect(arabic?.$permissions).not.toContain('read("any")');
    expect(await (await fetch(new URL("/ar/ventures/two-tongues", stack.site.url))).text()).not.toContain("لسانان");

    // Unpublished, then published with the box ticked: both go public.
    await openEdit(page, id);
    await button(page, "unpublish").click();
    await dialog(page).getByRole("button", { name: "Unpublish", exact: true }).click();
    await landed(page, "“Two Tongues” is now a draft.");
    await openEdit(page, id);
    await button(page, "publish").click();
    await dialog(page).getByRole("checkbox", { name: "Publish the unreviewed translation too" }).check();
    expect(await dialog(page).textContent()).toContain("Goes public now: English, العربية.");
    await dialog(page).getByRole("button", { name: "Publish", exact: true }).click();
    await landed(page, "Published “Two Tongues”: English, العربية.");
    expect((await venture("two-tongues", "ar"))?.status).toBe("published");
    await expect
      .poll(async () => (await fetch(new URL("/ar/ventures/two-tongues", stack.site.url))).text())
      .toContain("لسانان");
  });

  it("in Arabic on a 390 px phone: schedules at 09:07 Riyadh time, said in the dialog, the flash and the list", async () => {
    const page = await signedIn("ar", PHONE);
    await newVenture(page, "Minute Venture", "minute-venture-e2e");
    await field(page, "publishAt").fill("2099-12-01");
    await field(page, "publishAtTime").fill("09:07");
    expect(await page.locator("[data-time-zone]").textContent()).toBe("Asia/Riyadh (UTC+03:00)");
    expect(await button(page, "save").textContent()).toBe("حفظ");
    expect(await button(page, "publish").textContent()).toBe("جدولة…");
    await button(page, "publish").click();
    await expect.poll(() => dialog(page).isVisible()).toBe(true);
    const box = await dialog(page).boundingBox();
    expect(box!.width).toBeLessThanOrEqual(390);
    expect(((await dialog(page).textContent()) ?? "").replace(/[\u2066-\u2069]/g, "")).toContain(
      "يُنشر في 1 ديسمبر 2099، 09:07 Asia/Riyadh (UTC+03:00): العربية.",
    );
    await dialog(page).getByRole("button", { name: "جدولة", exact: true }).click();
    await landed(page, "«Minute Venture» مجدول للنشر في 1 ديسمبر 2099، 09:07 Asia/Riyadh (UTC+03:00): العربية.");
    // The list says the time too.
    await page.goto("/admin/ventures");
    await ready(page);
    const row = page.getByRole("row").filter({ hasText: "Minute Venture" });
    expect(((await row.locator("[data-scheduled-for]").textContent()) ?? "").replace(/[\u2066-\u2069]/g, "")).toBe(
      "1 ديسمبر 2099، 09:07 Asia/Riyadh (UTC+03:00)",
    );
    // A new item in the Arabic admin starts as its Arabic version (issue #29 item 5).
    const stored = await venture("minute-venture-e2e", "ar");
    expect(stored).toMatchObject({ status: "scheduled", publishAt: "2099-12-01T06:07:00.000+00:00" });
    expect(await statusOf(stack, "/ar/ventures/minute-venture-e2e")).toBe(404);
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);

    // The edit form shows the scheduled time back in the site's zone, and offers to change it or go back.
    await openEdit(page, stored!.$id);
    expect(await field(page, "publishAtTime").inputValue()).toBe("09:07");
    expect(await button(page, "save").textContent()).toBe("تحديث");
    expect(await button(page, "publish").textContent()).toBe("تغيير الموعد…");
    expect(await button(page, "unpublish").textContent()).toBe("إعادة إلى مسودة…");
  });
});
