/**
 * The inbox (issue #31 item 1) in real Chromium, in English and in Arabic (right to left), on a desktop and on
 * a 390 px phone: the studio team's owner sees both kinds of submission newest first, filters them, opens one
 * (marked read, Reply as a `mailto:` link), archives it; the navigation's unread count rises live when a
 * submission arrives; no inbox page scrolls sideways. (A signed-in stranger's 404s and missing link: tests/integration/inbox.test.ts, C65.)
 */
import { Teams, ID } from "node-appwrite";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSubmission } from "../../lib/appwrite/submissions.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { SUBMISSION_MODEL } from "../../model/site-models.ts";
import { STUDIO_TEAM_ID } from "../../model/team.ts";
import { createUser, newUser, ready, signInAs, type Credentials } from "./admin-helpers.ts";
import { DESKTOP, PHONE, startStack, type Stack } from "./helpers.ts";

let stack: Stack;
let owner: Credentials;
let samiId: string;

beforeAll(async () => {
  stack = await startStack();
  owner = await createUser(stack, newUser("Owner"));
  const { users, client } = stack.backend.services;
  const ownerId = (await users.list({ search: owner.email })).users.find((u) => u.email === owner.email)!.$id;
  const teams = new Teams(client);
  await teams.create({ teamId: STUDIO_TEAM_ID, name: "Studio" });
  await teams.createMembership({ teamId: STUDIO_TEAM_ID, roles: ["owner"], userId: ownerId });
  const services = stack.backend.services;
  await createSubmission(
    services,
    "contactMessage",
    { name: "Dana", email: "dana@visitor.test", message: "Hello from Dana" },
    "en",
  );
  const sami = await createSubmission(
    services,
    "communityApplication",
    { name: "سامي", email: "sami@visitor.test", projectIdea: "وكالة تسويق رقمية للمطاعم" },
    "ar",
  );
  if (!sami.success) throw sami.error;
  samiId = sami.id;
}, 180_000);
afterAll(async () => {
  await stack?.close();
});

async function signedIn(user: Credentials, locale: "en" | "ar", viewport = DESKTOP): Promise<Page> {
  const page = await stack.page({ viewport });
  await signInAs(stack, page, user, { locale });
  return page;
}

/** Whether the page scrolls sideways (its document wider than the window). */
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
const TEXT = {
  en: {
    title: "Inbox",
    archive: "Archive",
    archived: "Marked as Archived.",
    state: "State",
    search: "Search",
    newState: "New",
  },
  ar: {
    title: "صندوق الوارد",
    archive: "أرشفة",
    archived: "الحالة الآن: مؤرشفة.",
    state: "الحالة",
    search: "بحث",
    newState: "جديدة",
  },
} as const;

/**
 * Whether the page scrolls sideways at its own width or at `other`'s (narrowed or widened in place: the
 * layout is CSS media queries, which apply on resize as on load); the window is put back after.
 */
async function overflowsAtEither(page: Page, other: { width: number; height: number }): Promise<boolean> {
  const own = page.viewportSize()!;
  const here = await overflows(page);
  await page.setViewportSize(other);
  const there = await overflows(page);
  await page.setViewportSize(own);
  return here || there;
}

// One run a language, each on one width and checked at the other too (issue #27 item 4: four runs before).
describe("the inbox", () => {
  it.each([
    ["en", "a desktop", DESKTOP, PHONE],
    ["ar", "a phone", PHONE, DESKTOP],
  ] as const)(
    "in %s: lists, filters and opens submissions on %s, scrolling sideways at neither width",
    async (locale, _name, viewport, other) => {
      const text = TEXT[locale];
      await stack.backend.services.tablesDB.updateRow({
        databaseId: DATABASE_ID,
        tableId: SUBMISSION_MODEL.communityApplication.collectionId,
        rowId: samiId,
        data: { state: "new", readAt: null },
      });
      const page = await signedIn(owner, locale, viewport);
      await page.goto("/admin/inbox");
      await ready(page);
      expect(await page.locator("html").getAttribute("dir")).toBe(locale === "ar" ? "rtl" : "ltr");
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain(text.title);
      const names = await page.locator("[data-inbox-name]").allTextContents();
      expect(names.slice(0, 2)).toEqual(["سامي", "Dana"]);
      expect(await overflowsAtEither(page, other)).toBe(false);

      await page.getByLabel(text.state).selectOption("new");
      await page.getByRole("button", { name: text.search, exact: true }).click();
      await page.waitForURL((u) => u.searchParams.get("state") === "new");
      await ready(page);
      expect(await page.locator("[data-inbox-item]").count()).toBeGreaterThan(0);

      await page.locator("[data-inbox-item] a").filter({ hasText: "سامي" }).click();
      await page.waitForURL((u) => u.pathname.startsWith("/admin/inbox/communityApplication/"));
      await ready(page);
      expect(await page.locator("[data-inbox-text]").textContent()).toBe("وكالة تسويق رقمية للمطاعم");
      const mailto = await page.getByRole("link", {
        name: locale === "ar" ? "الرد من تطبيق البريد" : "Reply in your mail app",
      });
      expect(await mailto.getAttribute("href")).toMatch(/^mailto:sami@visitor\.test\?subject=/);
      expect(await overflowsAtEither(page, other)).toBe(false);
      await page.getByRole("button", { name: text.archive, exact: true }).click();
      await expect.poll(() => page.getByRole("status").filter({ hasText: text.archived }).count()).toBe(1);
      await expect.poll(() => page.locator("h1 [data-state]").getAttribute("data-state")).toBe("archived");
    },
  );
});

describe("the navigation's unread count", () => {
  it("rises without a reload when a submission arrives", async () => {
    const page = await signedIn(owner, "en");
    await page.goto("/admin");
    await ready(page);
    const badge = page.locator("[data-unread-count]");
    const before = Number((await badge.count()) ? await badge.getAttribute("data-unread-count") : 0);
    await page.waitForLoadState("networkidle").catch(() => {});
    await createSubmission(
      stack.backend.services,
      "contactMessage",
      { name: "Live", email: `live-${ID.unique()}@visitor.test`, message: "Arrives while the admin is open" },
      "ar",
    );
    await expect.poll(async () => Number(await badge.getAttribute("data-unread-count"))).toBe(before + 1);
  });
});
