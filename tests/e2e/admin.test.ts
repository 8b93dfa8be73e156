import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { Query, Teams } from "node-appwrite";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { startFakeGemini, type FakeGemini } from "../helpers/fake-gemini.ts";
import {
  adminPage,
  createUser,
  holdPosts,
  htmlSource,
  imageLoaded,
  newUser,
  ready,
  signInAs,
  signInThroughPage,
  statusOf,
  textRgb,
  type Credentials,
} from "./admin-helpers.ts";
import { DESKTOP, ROOT, SCREENSHOTS, startStack, type Stack } from "./helpers.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { STUDIO_TEAM_ID } from "../../model/team.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
  await mkdir(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await stack?.close();
});

const IMAGES = path.join(ROOT, "content", "images");
const image = (name: string) => path.join(IMAGES, name);
const h1 = (page: Page) => page.locator("h1").first().textContent();
const pathOf = (page: Page) => new URL(page.url()).pathname;
const textbox = (page: Page, name: string) => page.getByRole("textbox", { name, exact: true });
const inputValue = (page: Page, name: string) => textbox(page, name).inputValue();
/** The admin's flash message, without the bidi isolates around an item's name. */
const flash = async (page: Page) =>
  ((await page.locator("main [role=status][aria-live=polite]").first().textContent()) ?? "").replace(
    /[\u2066-\u2069]/g,
    "",
  );

/** The stored document of a collection by slug (what the public site and the studio read). */
async function storedBySlug(collectionId: string, slug: string) {
  const page = await stack.backend.services.databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId,
    queries: [Query.equal("slug", slug)],
  });
  return page.documents[0] ?? null;
}

/** How many items a collection holds: its language versions share a slug (the dashboard counts items, issue #29 item 10). */
async function total(collectionId: string): Promise<number> {
  const { documents } = await stack.backend.services.databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId,
    queries: [Query.limit(1000)],
  });
  return new Set(documents.map((d) => d.slug)).size;
}

/** A public page as a guest gets it over HTTP (the browser's loading of `/media` images is the admin list's). */
async function publicPage(path: string): Promise<{ status: number; h1: string; main: string; image: string | null }> {
  const response = await fetch(new URL(path, stack.site.url));
  const html = await response.text();
  const main = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
  return {
    status: response.status,
    h1: /<h1[^>]*>([^<]*)<\/h1>/.exec(main)?.[1] ?? "",
    main,
    image: /<img[^>]*? src="\/media\/([^"/?#]+)"/.exec(main)?.[1] ?? null,
  };
}

/**
 * The editor of the item and AI tests (each uses its own slugs), signed in once, in a time zone whose date
 * differs from UTC's right now ("today" in the blog form is the user's today, not the server's). Each test
 * starts with no input kept from another (`studio:unsaved` in localStorage).
 */
let editor: { user: Credentials; page: Page } | undefined;
async function editorPage(): Promise<{ user: Credentials; page: Page }> {
  if (editor) {
    await editor.page.evaluate(() => localStorage.clear());
    return editor;
  }
  const user = await createUser(stack, newUser("Vera Editor"));
  const timezoneId = new Date().getUTCHours() >= 12 ? "Pacific/Kiritimati" : "Etc/GMT+12";
  const page = await stack.page({ timezoneId });
  await signInAs(stack, page, user);
  editor = { user, page };
  return editor;
}

/** The file id of a `/media/<id>` URL. */
const mediaId = (src: string | null) => /^\/media\/([^/?#]+)$/.exec(src ?? "")?.[1] ?? null;

/** Deletes the row named `label` through the dialog, seeing "Deleting..." while the POST is held. */
async function deleteThroughDialog(page: Page, label: string, list: "ventures" | "blog"): Promise<void> {
  const row = page.getByRole("row").filter({ hasText: label });
  await row.waitFor();
  await row.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "Confirm Deletion" });
  await expect.poll(() => dialog.isVisible()).toBe(true);
  expect(await dialog.textContent()).toContain("history move to the trash for 30 days.");
  expect(await dialog.textContent()).toContain(label);
  const release = await holdPosts(page, new RegExp(`/admin/${list}\\.data`));
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect.poll(() => dialog.getByRole("button", { name: "Deleting..." }).isDisabled()).toBe(true);
  release();
  await expect.poll(() => dialog.isVisible()).toBe(false);
  await page.unroute(new RegExp(`/admin/${list}\\.data`));
}

describe("signed out", () => {
  // The redirect of each admin page to /en/login?redirectTo=<page> is tests/security/auth.test.ts "sends a
  // signed-out visitor of an admin page to the login page…"; here, what a person sees on the way there and back.
  it("/admin/blog/new goes to /en/login with redirectTo, and back after signing in, no other page flashing by", async () => {
    const user = await createUser(stack, newUser("Rita Redirect"));
    const [target, heading] = ["/admin/blog/new", "New Post"];
    const page = await stack.page();
    // Every main heading the page ever shows, across document loads: no other page may flash by.
    await page.addInitScript(() => {
      const seen = () => JSON.parse(sessionStorage.getItem("headings") ?? "[]") as string[];
      new MutationObserver(() => {
        const text = document.querySelector("main h1")?.textContent;
        if (text && seen().at(-1) !== text) sessionStorage.setItem("headings", JSON.stringify([...seen(), text]));
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.goto(target);
    const url = new URL(page.url());
    expect(url.pathname).toBe("/en/login");
    expect(url.searchParams.get("redirectTo")).toBe(target);
    await signInThroughPage(page, user);
    expect(pathOf(page)).toBe(target);
    await expect.poll(() => h1(page)).toBe(heading);
    expect(await page.evaluate(() => sessionStorage.getItem("headings"))).toBe(JSON.stringify(["Sign In", heading]));
  });
});

describe("registration and sign-in", () => {
  it("requires a name to register, then shows the dashboard counts, and the public header gets the Admin link", async () => {
    const page = await stack.page();
    await page.goto("/en/login");
    await ready(page);
    expect(
      await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link").allTextContents(),
    ).not.toContain("Admin");
    await page.getByRole("button", { name: "No account yet? Register" }).click();
    await expect.poll(() => h1(page)).toBe("Register");
    const user = newUser("Nadia Register");
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Register", exact: true }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Name is required for registration.");
    expect(pathOf(page)).toBe("/en/login");

    await page.getByLabel("Full Name").fill(user.name);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Register", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/admin");
    await ready(page);
    await expect.poll(() => h1(page)).toBe("Dashboard");
    const card = (label: string) => page.getByRole("listitem").filter({ hasText: label }).locator("p").nth(1);
    // The dashboard counts what the account may see (issue #28 item 3): everything for the studio team (the first
    // account to sign in becomes its owner), none of the others' items for anyone else.
    const [registered] = (await stack.backend.services.users.list({ queries: [Query.equal("email", user.email)] }))
      .users;
    const { memberships } = await new Teams(stack.backend.services.client).listMemberships({
      teamId: STUDIO_TEAM_ID,
      queries: [Query.equal("userId", registered!.$id)],
    });
    const seen = async (id: string) => (memberships.length > 0 ? String(await total(id)) : "0");
    expect(await card("Total ventures").textContent()).toBe(await seen(CONTENT_MODEL.venture.collectionId));
    expect(await card("Total blog posts").textContent()).toBe(await seen(CONTENT_MODEL.post.collectionId));
    expect(await page.locator("aside").textContent()).toContain(user.name);

    await page.goto("/en");
    await ready(page);
    const adminLink = page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Admin" });
    await adminLink.click();
    await page.waitForURL((u) => u.pathname === "/admin");

    // The login page sends a signed-in user to /admin.
    await page.goto("/en/login");
    expect(pathOf(page)).toBe("/admin");
  });

  it("shows Authentication failed. Please check your credentials. in red for a wrong password", async () => {
    const user = await createUser(stack, newUser("Walter Wrong"));
    const page = await stack.page();
    await page.goto("/en/login");
    await ready(page);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    const alert = page.getByRole("alert");
    await expect.poll(() => alert.textContent()).toBe("Authentication failed. Please check your credentials.");
    const [r, g, b] = await textRgb(alert);
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(150);
    expect(b).toBeLessThan(150);
    expect(pathOf(page)).toBe("/en/login");
    expect(await page.getByLabel("Email").inputValue()).toBe(user.email);
  });
});

describe("ventures", () => {
  it("creates a venture with a logo, shows it publicly, edits it, deletes it through the dialog: then 404", async () => {
    const { page } = await editorPage();
    await page.getByRole("link", { name: "Manage Ventures" }).click();
    await page.waitForURL((u) => u.pathname === "/admin/ventures");
    await page.getByRole("link", { name: "Create Venture" }).click();
    await page.waitForURL((u) => u.pathname === "/admin/ventures/new");
    await ready(page);
    await expect.poll(() => h1(page)).toBe("New Venture");

    await textbox(page, "Name").fill("Harbor Ledger");
    expect(await inputValue(page, "Slug")).toBe("harbor-ledger"); // follows the name until edited
    await textbox(page, "Slug").fill("harbor-ledger-e2e");
    await textbox(page, "Name").fill("Harbor Ledger Co");
    expect(await inputValue(page, "Slug")).toBe("harbor-ledger-e2e");
    await page.getByLabel("Website URL").fill("https://harbor-ledger.example");
    await page.getByLabel("Logo").setInputFiles(image("clinic-ledger-logo.png"));
    const preview = page.getByRole("img", { name: "Image preview" });
    await expect.poll(() => preview.getAttribute("src")).toMatch(/^blob:/);
    expect(await imageLoaded(preview)).toBe(true);
    await textbox(page, "Short Description").fill("Bookkeeping for harbour businesses.");

    const caseStudy = await htmlSource(page, "caseStudy");
    await caseStudy.fill(
      "<h2>The Problem</h2><p>Books lag.</p><ul><li><p>Late books</p><ul><li>Missed claims</li></ul></li></ul>",
    );
    await page.getByRole("button", { name: "Format" }).click();
    await expect
      .poll(() => caseStudy.inputValue())
      .toBe(
        [
          "<h2>The Problem</h2>",
          "<p>Books lag.</p>",
          "<ul>",
          "  <li>",
          "    <p>Late books</p>",
          "    <ul>",
          "      <li>Missed claims</li>",
          "    </ul>",
          "  </li>",
          "</ul>",
        ].join("\n"),
      );
    await page.getByRole("tab", { name: "Preview" }).click();
    await expect.poll(() => page.getByRole("tab", { name: "Preview" }).getAttribute("aria-selected")).toBe("true");
    await page.getByRole("heading", { name: "The Problem" }).waitFor();
    expect(await page.getByRole("button", { name: "Format" }).count()).toBe(0);
    await page.getByRole("tab", { name: "HTML" }).click();
    expect(await caseStudy.inputValue()).toContain("      <li>Missed claims</li>");

    // Issue #29: publishing asks first, in a dialog naming the versions.

    await page.getByRole("button", { name: "Publish…" }).click();

    await page.locator("dialog[open]").getByRole("button", { name: "Publish", exact: true }).click();
    // Saving stays in the editor (issue #29 item 3): a new item lands on its own edit page, with the flash.
    await page.waitForURL((u) => u.pathname.startsWith("/admin/ventures/edit/"));
    await ready(page);
    await expect.poll(() => flash(page)).toBe("Published “Harbor Ledger Co”: English.");
    await page.getByRole("link", { name: "Manage Ventures" }).click();
    await page.waitForURL((u) => u.pathname === "/admin/ventures");
    const row = page.getByRole("row").filter({ hasText: "harbor-ledger-e2e" });
    await row.waitFor();
    expect(await page.locator("thead th").allTextContents()).toEqual([
      "Logo",
      "Name",
      "Slug",
      "State",
      "English",
      "العربية",
      "Actions",
    ]);
    expect(await row.locator("td").nth(1).textContent()).toBe("Harbor Ledger Co");
    expect(await imageLoaded(row.locator("img"))).toBe(true);
    const logoId = mediaId(await row.locator("img").getAttribute("src"));
    expect(logoId).not.toBeNull();

    const shown = await publicPage("/en/ventures/harbor-ledger-e2e");
    expect(shown.h1).toBe("Harbor Ledger Co");
    expect(shown.main).toContain("Bookkeeping for harbour businesses.");
    expect(shown.main).toContain(`src="/media/${logoId}"`);

    await row.getByRole("link", { name: "Edit" }).click();
    await page.waitForURL((u) => u.pathname.startsWith("/admin/ventures/edit/"));
    await ready(page);
    await expect.poll(() => h1(page)).toBe("Edit Venture");
    expect(await inputValue(page, "Name")).toBe("Harbor Ledger Co");
    expect(await inputValue(page, "Slug")).toBe("harbor-ledger-e2e");
    expect(await page.getByRole("img", { name: "Image preview" }).getAttribute("src")).toBe(`/media/${logoId}`);
    await textbox(page, "Short Description").fill("Bookkeeping and payroll for harbour businesses.");
    const editPath = pathOf(page);
    await page.getByRole("button", { name: "Update", exact: true }).click();
    await expect.poll(() => flash(page)).toBe("Saved “Harbor Ledger Co”.");
    expect(pathOf(page)).toBe(editPath);
    expect((await publicPage("/en/ventures/harbor-ledger-e2e")).main).toContain(
      "Bookkeeping and payroll for harbour businesses.",
    );

    await page.getByRole("link", { name: "Manage Ventures" }).click();
    await page.waitForURL((u) => u.pathname === "/admin/ventures");
    await ready(page);
    await deleteThroughDialog(page, "Harbor Ledger Co", "ventures");
    await expect.poll(() => page.getByRole("row").filter({ hasText: "harbor-ledger-e2e" }).count()).toBe(0);
    expect(await storedBySlug(CONTENT_MODEL.venture.collectionId, "harbor-ledger-e2e")).toBeNull();
    const gone = await publicPage("/en/ventures/harbor-ledger-e2e");
    expect(gone.status).toBe(404);
    expect(gone.main).toContain("Venture not found.");
    // The logo stays while the venture is in the trash (issue #29 item 9): a restore brings it back with it.
    expect(await statusOf(stack, `/media/${logoId}`)).toBe(200);
  });
});

describe("blog posts", () => {
  it("defaults author and date, creates with an image, replaces the image (old URL 404), deletes: then 404", async () => {
    const { user, page } = await editorPage();
    await page.getByRole("link", { name: "Manage Blog" }).click();
    await page.waitForURL((u) => u.pathname === "/admin/blog");
    await page.getByRole("link", { name: "Create Post" }).click();
    await page.waitForURL((u) => u.pathname === "/admin/blog/new");
    await ready(page);
    await expect.poll(() => h1(page)).toBe("New Post");
    expect(await inputValue(page, "Author Name")).toBe(user.name);
    const today = await page.evaluate(() => new Date().toLocaleDateString("en-CA"));
    expect(today).not.toBe(new Date().toISOString().slice(0, 10));
    await expect.poll(() => page.getByLabel("Published Date").inputValue()).toBe(today);
    expect(await page.getByLabel("Excerpt").getAttribute("rows")).toBe("3");
    expect(await (await htmlSource(page, "content")).getAttribute("rows")).toBe("15");

    await textbox(page, "Title").fill("Harbours and Ledgers");
    expect(await inputValue(page, "Slug")).toBe("harbours-and-ledgers");
    await page.getByLabel("Published Date").fill("2026-03-14");
    await page.getByLabel("Featured Image").setInputFiles(image("join-learn-build-earn.jpg"));
    await page.getByLabel("Excerpt").fill("Why harbours need ledgers.");
    await (await htmlSource(page, "content")).fill("<h2>Ledgers</h2><p>Every harbour keeps books.</p>");
    // Issue #29: publishing asks first, in a dialog naming the versions.
    await page.getByRole("button", { name: "Publish…" }).click();
    await page.locator("dialog[open]").getByRole("button", { name: "Publish", exact: true }).click();
    await page.waitForURL((u) => u.pathname.startsWith("/admin/blog/edit/"));
    await ready(page);
    await expect.poll(() => flash(page)).toBe("Published “Harbours and Ledgers”: English.");
    await page.getByRole("link", { name: "Manage Blog" }).click();
    await page.waitForURL((u) => u.pathname === "/admin/blog");
    const row = page.getByRole("row").filter({ hasText: "Harbours and Ledgers" });
    await row.waitFor();
    expect(await page.locator("thead th").allTextContents()).toEqual([
      "Title",
      "Author",
      "Published Date",
      "State",
      "English",
      "العربية",
      "Actions",
    ]);
    expect(await row.locator("td").allTextContents()).toEqual([
      "Harbours and Ledgers",
      user.name,
      "14 Mar 2026", // the one date format (issue #29 item 7)
      "Published",
      "Up to date",
      "Missing",
      "EditView on siteDelete",
    ]);

    const shown = await publicPage("/en/blog/harbours-and-ledgers");
    expect(shown.h1).toBe("Harbours and Ledgers");
    const oldId = shown.image;
    expect(oldId).not.toBeNull();
    expect(await statusOf(stack, `/media/${oldId}`)).toBe(200);

    await row.getByRole("link", { name: "Edit" }).click();
    await page.waitForURL((u) => u.pathname.startsWith("/admin/blog/edit/"));
    await ready(page);
    await expect.poll(() => h1(page)).toBe("Edit Post");
    expect(await page.getByLabel("Published Date").inputValue()).toBe("2026-03-14");
    expect(await page.getByRole("img", { name: "Image preview" }).getAttribute("src")).toBe(`/media/${oldId}`);
    await page.getByLabel("Featured Image").setInputFiles(image("what-is-a-micro-service-agency.jpg"));
    await textbox(page, "Title").fill("Harbours and Ledgers, Revised");
    expect(await inputValue(page, "Slug")).toBe("harbours-and-ledgers"); // an existing slug stays
    const editPath = pathOf(page);
    await page.getByRole("button", { name: "Update", exact: true }).click();
    await expect.poll(() => flash(page)).toBe("Saved “Harbours and Ledgers, Revised”.");
    expect(pathOf(page)).toBe(editPath);

    const revised = await publicPage("/en/blog/harbours-and-ledgers");
    expect(revised.h1).toBe("Harbours and Ledgers, Revised");
    const newId = revised.image;
    expect(newId).not.toBeNull();
    expect(newId).not.toBe(oldId);
    expect(await statusOf(stack, `/media/${oldId}`)).toBe(404);
    expect(await statusOf(stack, `/media/${newId}`)).toBe(200);

    await page.getByRole("link", { name: "Manage Blog" }).click();
    await page.waitForURL((u) => u.pathname === "/admin/blog");
    await ready(page);
    await deleteThroughDialog(page, "Harbours and Ledgers, Revised", "blog");
    await expect.poll(() => page.getByRole("row").filter({ hasText: "Harbours and Ledgers" }).count()).toBe(0);
    const gone = await publicPage("/en/blog/harbours-and-ledgers");
    expect(gone.status).toBe(404);
    expect(gone.main).toContain("Blog post not found.");
    expect(await statusOf(stack, `/media/${newId}`)).toBe(200); // kept in the trash with the post (issue #29 item 9)
  });
});

describe("the account page", () => {
  // The rules themselves and the new password signing in (the old one refused): tests/integration/admin-lib.test.ts
  // "updates the name and the password with the spec's rules and messages"; the Arabic texts: tests/unit/admin-flash.test.ts
  // and tests/security/auth.test.ts "tells a mismatch in the admin's language…".
  it("changes the name, then the password (current required, match, empty new), one success message at a time", async () => {
    const user = await createUser(stack, newUser("Amal Account"));
    const page = await adminPage(stack, user);
    await page.getByRole("link", { name: "Manage Account" }).click();
    await page.waitForURL((u) => u.pathname === "/admin/account");
    await ready(page);
    const email = textbox(page, "Email");
    expect(await email.inputValue()).toBe(user.email);
    expect(await email.getAttribute("readonly")).not.toBeNull();
    // Update Name only for a changed name.
    const update = page.getByRole("button", { name: "Update Name" });
    expect(await update.isDisabled()).toBe(true);
    await textbox(page, "Full Name").fill("Amal Renamed");
    expect(await update.isEnabled()).toBe(true);
    await textbox(page, "Full Name").fill("Amal Account");
    expect(await update.isDisabled()).toBe(true);
    await textbox(page, "Full Name").fill("Amal Renamed");
    await update.click();
    await expect.poll(() => flash(page)).toBe("Name updated successfully.");
    expect(await page.locator("main [data-flash]").getAttribute("data-flash")).toBe("success");
    expect(await page.locator("main [data-flash]").getAttribute("aria-atomic")).toBe("true");
    await expect.poll(() => page.locator("aside").textContent()).toContain("Amal Renamed");
    await expect.poll(() => update.isDisabled()).toBe(true);

    const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Update Password" }) });
    const submit = form.getByRole("button", { name: "Update Password" });
    const message = form.getByRole("status");
    const next = "a-brand-new-password";
    expect(await submit.isDisabled()).toBe(true);

    await form.getByLabel("New Password", { exact: true }).fill(next);
    await form.getByLabel("Confirm New Password").fill(next);
    await submit.click();
    await expect.poll(() => message.textContent()).toBe("Current password is required to change your password.");

    await form.getByLabel("Current Password").fill(user.password);
    await form.getByLabel("Confirm New Password").fill("something-else-entirely");
    await submit.click();
    await expect.poll(() => message.textContent()).toBe("New passwords do not match.");

    await form.getByLabel("New Password", { exact: true }).fill("");
    expect(await submit.isDisabled()).toBe(true);

    await form.getByLabel("New Password", { exact: true }).fill(next);
    await form.getByLabel("Confirm New Password").fill(next);
    // Every state the page is left in after a DOM change (a MutationObserver runs after React's commit and its
    // layout effects, before any later effect): the flash, the form's failure and the password fields.
    await form.evaluate((element) => {
      const frames: { flash: string | null; failure: string | null; fields: string[] }[] = [];
      (window as unknown as { frames_: typeof frames }).frames_ = frames;
      new MutationObserver(() =>
        frames.push({
          flash: document.querySelector("main [role=status][aria-live=polite]")?.textContent ?? null,
          failure: element.querySelector("[role=status]")?.textContent ?? null,
          fields: [...element.querySelectorAll("input[type=password]")].map(
            (input) => (input as HTMLInputElement).value,
          ),
        }),
      ).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await submit.click();
    // The success is the admin's flash message, one at a time (issue #17 item 3), not a second line in the form:
    // it replaces the name's.
    await expect
      .poll(() => page.locator("main [role=status][aria-live=polite]").first().textContent(), { timeout: 10_000 })
      .toBe("Password updated successfully.");
    // The first state that shows the flash no longer shows the form's earlier failure, and the fields are empty.
    const frames = await page.evaluate(
      () =>
        (window as unknown as { frames_: { flash: string | null; failure: string | null; fields: string[] }[] })
          .frames_,
    );
    expect(frames.find((frame) => frame.flash === "Password updated successfully.")).toEqual({
      flash: "Password updated successfully.",
      failure: null,
      fields: ["", "", ""],
    });
    const shown = await page.locator("main").textContent();
    expect(shown).not.toContain("Name updated successfully.");
    expect(shown?.split("Password updated successfully.").length).toBe(2);
    expect(await submit.isDisabled()).toBe(true);

    // Shown once: a reload has no message, and the new name stays.
    await page.reload();
    await ready(page);
    expect(await flash(page)).toBe("");
    expect(await textbox(page, "Full Name").inputValue()).toBe("Amal Renamed");
  });
});

describe("logout", () => {
  it("goes to /en/login; Back goes to the login page; the header loses the Admin link", async () => {
    const user = await createUser(stack, newUser("Lina Logout"));
    const page = await adminPage(stack, user);
    await page.goto("/admin/ventures");
    await ready(page);
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL((u) => u.pathname === "/en/login");
    await ready(page);
    await expect.poll(() => h1(page)).toBe("Sign In");
    expect(
      await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Admin" }).count(),
    ).toBe(0);
    // The session is gone on the server and its cookie cleared: tests/security/auth.test.ts "invalidates the session
    // server-side…"; Back does not show the admin page again.
    await page.goBack();
    await expect.poll(() => pathOf(page)).toBe("/en/login");
    await expect.poll(() => h1(page)).toBe("Sign In");
    expect((await page.context().cookies()).filter((c) => c.name.includes("studio_session"))).toEqual([]);
  });
});

describe("Arabic", () => {
  it("renders the admin right-to-left with Arabic labels; slug and URL stay left-to-right; logout goes to /ar/login", async () => {
    const user = await createUser(stack, newUser("ليلى المشرفة"));
    const page = await stack.page();
    await page.goto("/ar/login");
    await ready(page);
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    await expect.poll(() => h1(page)).toBe("تسجيل الدخول");
    await signInThroughPage(page, user, "/ar/login");
    expect(pathOf(page)).toBe("/admin");
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    expect(await page.locator("html").getAttribute("lang")).toBe("ar");
    await expect.poll(() => h1(page)).toBe("لوحة التحكم");
    const sidebar = await page.locator("aside nav").textContent();
    for (const label of ["إدارة المشاريع", "إدارة المدونة", "إدارة الحساب", "عرض الموقع", "تسجيل الخروج"]) {
      expect(sidebar).toContain(label);
    }
    // The sidebar sits on the right in right-to-left.
    const aside = (await page.locator("aside").boundingBox())!;
    expect(aside.x).toBeGreaterThan(DESKTOP.width / 2);

    await page.getByRole("link", { name: "إدارة المشاريع" }).click();
    await page.waitForURL((u) => u.pathname === "/admin/ventures");
    await page.getByRole("link", { name: "إنشاء مشروع" }).click();
    await page.waitForURL((u) => u.pathname === "/admin/ventures/new");
    await ready(page);
    await expect.poll(() => h1(page)).toBe("مشروع جديد");
    // A new item in the Arabic admin starts as its Arabic version (issue #29 item 8): its fields run right-to-left.
    expect(await page.getByLabel("الاسم", { exact: true }).getAttribute("dir")).toBe("rtl");
    expect(await page.getByLabel("المعرّف").getAttribute("dir")).toBe("ltr");
    expect(await page.getByLabel("رابط الموقع").getAttribute("dir")).toBe("ltr");
    await page.getByLabel("الاسم", { exact: true }).fill("دفتر الميناء");
    expect(await page.getByLabel("المعرّف").inputValue()).not.toBe("");
    // A new item's buttons (issue #29 item 1): "Save" and "Publish…".
    expect(await page.getByRole("button", { name: "حفظ", exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "نشر…", exact: true }).isVisible()).toBe(true);

    await page.goto("/admin/blog/new");
    await ready(page);
    expect(await page.getByLabel("اسم الكاتب").inputValue()).toBe("ليلى المشرفة");
    expect(await page.getByLabel("تاريخ النشر").getAttribute("dir")).toBe("ltr");

    await page.getByRole("button", { name: "تسجيل الخروج" }).click();
    await page.waitForURL((u) => u.pathname === "/ar/login");
  });
});

describe("the AI assistant boxes", () => {
  // Without a Gemini key: server HTML, tests/integration/autosave.test.ts "the AI assistant boxes without a Gemini key".
  describe("with Gemini configured (a local fake)", () => {
    let gemini: FakeGemini;
    beforeAll(async () => {
      gemini = await startFakeGemini();
      process.env.GEMINI_API_KEY = "test-key";
      process.env.GEMINI_BASE_URL = gemini.baseUrl;
    });
    afterAll(async () => {
      delete process.env.GEMINI_API_KEY;
      delete process.env.GEMINI_BASE_URL;
      await gemini?.close();
    });

    it("fills the venture form from Generate Details (disabled with an empty topic)", async () => {
      const { page } = await editorPage();
      await page.goto("/admin/ventures/new");
      await ready(page);
      const generate = page.getByRole("button", { name: "Generate Details" });
      expect(await generate.isDisabled()).toBe(true);
      await page.getByLabel("Venture topic").fill("   ");
      expect(await generate.isDisabled()).toBe(true);
      const draft = {
        name: "Ledger Loop",
        slug: "ledger-loop",
        shortDescription: "Bookkeeping for clinics.",
        caseStudy:
          "<h2>The Problem</h2><p>Books lag.</p><h2>Our Solution</h2><ul><li>Close monthly</li></ul>" +
          "<blockquote>Done by the tenth.</blockquote><h2>The Market Opportunity</h2><p>Every clinic.</p>",
      };
      gemini.script({ json: draft });
      await page.getByLabel("Venture topic").fill("bookkeeping for clinics");
      await generate.click();
      await expect.poll(() => inputValue(page, "Name")).toBe("Ledger Loop");
      expect(await inputValue(page, "Slug")).toBe("ledger-loop");
      expect(await inputValue(page, "Short Description")).toBe("Bookkeeping for clinics.");
      expect(await (await htmlSource(page, "caseStudy")).inputValue()).toContain("<h2>The Market Opportunity</h2>");
      expect(JSON.stringify(gemini.requests.at(-1)?.body)).toContain("bookkeeping for clinics");
    });

    it("puts a generated image into the post's featured-image preview, once there is a title", async () => {
      const { page } = await editorPage();
      await page.goto("/admin/blog/new");
      await ready(page);
      expect(await page.getByRole("button", { name: "Generate Content" }).isDisabled()).toBe(true);
      const generate = page.getByRole("button", { name: "Generate with AI" });
      const requests = gemini.requests.length;
      await generate.click();
      await expect
        .poll(() => page.locator("main form").textContent())
        .toContain("Please generate or enter a title first to create a relevant image.");
      expect(gemini.requests.length).toBe(requests);

      gemini.script({ image: await readFile(image("clinic-ledger-logo.png")) });
      await textbox(page, "Title").fill("Harbour Ledgers");
      await generate.click();
      const preview = page.getByRole("img", { name: "Image preview" });
      await expect.poll(() => preview.getAttribute("src"), { timeout: 15_000 }).toMatch(/^blob:/);
      expect(await imageLoaded(preview)).toBe(true);
      expect(
        await page.getByLabel("Featured Image").evaluate((el) => (el as HTMLInputElement).files?.[0]?.name ?? null),
      ).toBe("harbour-ledgers.jpg");
      expect(await page.locator("main form").textContent()).not.toContain("Please generate or enter a title first");
    });
  });
});
