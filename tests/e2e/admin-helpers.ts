/**
 * Helpers of the admin browser tests: users made through the Users API (so the sign-up throttle of 10 an
 * hour per IP is kept for the tests that register through the page), sign-in through the login page, items
 * seeded as a given user with the admin's own library, and what a user sees (colours, image loading).
 */
import { ID } from "node-appwrite";
import type { BrowserContextOptions, Locator, Page } from "playwright-core";
import { createItem, type PostInput, type VentureInput } from "../../server/admin/content.ts";
import { createSessionServices } from "../../lib/appwrite/client.ts";
import { signIn } from "../../server/auth/account.ts";
import { checkImage } from "../../lib/images/upload.ts";
import { DESKTOP, type Stack } from "./helpers.ts";

export interface Credentials {
  name: string;
  email: string;
  password: string;
}

let users = 0;

/** Credentials no other test uses. */
export function newUser(name: string): Credentials {
  users += 1;
  return { name, email: `admin${users}-${Date.now()}@example.com`, password: `pass-word-${users}-ok` };
}

/** Creates the user in Appwrite (Users API), without signing in. */
export async function createUser(stack: Stack, user: Credentials): Promise<Credentials> {
  await stack.backend.services.users.create({
    userId: ID.unique(),
    email: user.email,
    password: user.password,
    name: user.name,
  });
  return user;
}

/**
 * Waits until React has hydrated the page (its props, event handlers included, are attached to `<main>`'s
 * element), polling every 50 ms; it does not wait for the network to go quiet. The admin forms validate on the
 * server, so `hydrated()`'s `form[novalidate]` signal does not apply.
 */
export async function ready(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const root = document.querySelector("main") ?? document.body;
      return Object.keys(root).some((key) => key.startsWith("__reactProps"));
    },
    undefined,
    // Polled on a timer: animation frames do not run for pages in the background.
    { polling: 50 },
  );
}

/** Signs in through the login page at `url` and waits until the page after it has loaded. */
export async function signInThroughPage(page: Page, user: Credentials, url = "/en/login"): Promise<void> {
  if (!page.url().includes("/login")) await page.goto(url);
  await ready(page);
  await page.locator("#email").fill(user.email);
  await page.locator("#password").fill(user.password);
  await page.locator("form button[type=submit]").click();
  await page.waitForURL((u) => !u.pathname.endsWith("/login"));
  await ready(page);
}

/**
 * Signs `page`'s browser context in as `user` without the login page, then opens `to` (default `/admin`) and
 * waits for it to hydrate: the login form's own POST (`/{locale}/login`, intent `login`, the site's Origin) is
 * sent over HTTP, and every cookie it sets (the session, and the admin language the account prefers) is put in
 * the context. The server runs the same sign-in action as for the page (first sign-in rules included); only
 * the login page's load and the dashboard the form redirects to are saved, for the many tests whose subject is
 * not signing in (issue #27 item 4). Tests of the login page itself use `signInThroughPage`.
 * `locale: "ar"` signs in as from `/ar/login`: the admin in Arabic unless the account prefers English.
 * @throws Error naming the status when the site does not answer the POST with a redirect and a session.
 */
export async function signInAs(
  stack: Stack,
  page: Page,
  user: Credentials,
  { locale = "en", to = "/admin" }: { locale?: "en" | "ar"; to?: string } = {},
): Promise<void> {
  const base = stack.site.url;
  const form = new URLSearchParams({ intent: "login", email: user.email, password: user.password, redirectTo: to });
  const response = await fetch(`${base}/${locale}/login`, {
    method: "POST",
    body: form,
    headers: { Origin: base, ...(locale === "ar" ? { Cookie: "locale=ar" } : {}) },
    redirect: "manual",
  });
  const cookies = response.headers.getSetCookie().map((line) => {
    const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
    const at = pair.indexOf("=");
    const has = (name: string) => attributes.some((a) => a.toLowerCase().startsWith(name));
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url: base, httpOnly: has("httponly") };
  });
  if (response.status !== 302 || !cookies.some((c) => c.name.endsWith("studio_session") && c.value)) {
    throw new Error(`signing in ${user.email} over HTTP answered ${response.status} without a session`);
  }
  // The login page's loader sets its locale's cookie; the action then sets the account's own admin language.
  if (!cookies.some((c) => c.name === "locale"))
    cookies.push({ name: "locale", value: locale, url: base, httpOnly: false });
  await page.context().addCookies(cookies.filter((c) => c.value !== ""));
  await page.goto(to);
  await ready(page);
}

/**
 * One user's signed-in pages for a test file: the session is made on the first call, over HTTP (`signInAs`),
 * and every later page starts from its cookies in a fresh context, in the admin language `locale` (its cookie,
 * as that language's login page sets it). `stack` and `user` are read at each call (a file's `beforeAll` sets
 * them). Each call resolves with a new page on `/admin`, hydrated, at `viewport` (default `DESKTOP`).
 */
export function sessionPages(
  stack: () => Stack,
  user: () => Credentials,
): (locale: "en" | "ar", viewport?: { width: number; height: number }) => Promise<Page> {
  let session: BrowserContextOptions["storageState"];
  return async (locale, viewport = DESKTOP) => {
    const page = await stack().page({ viewport, storageState: session });
    if (!session) {
      await signInAs(stack(), page, user(), { locale, to: "/admin" });
      session = await page.context().storageState();
      return page;
    }
    await page.context().addCookies([{ name: "locale", value: locale, url: stack().site.url }]);
    await page.goto("/admin");
    await ready(page);
    return page;
  };
}

/** A new page signed in as `user` (`signInAs`), on `/admin`. */
export async function adminPage(stack: Stack, user: Credentials): Promise<Page> {
  const page = await stack.page();
  await signInAs(stack, page, user);
  return page;
}

/** Creates a venture or post as `user` through the admin's library, with that user's session. */
export async function seedAs(
  stack: Stack,
  user: Credentials,
  item: { kind: "venture"; input: VentureInput } | { kind: "post"; input: PostInput },
  imageBytes: Buffer | null = null,
) {
  const { emulator } = stack.backend;
  const target = { endpoint: emulator.endpoint, projectId: emulator.projectId };
  const session = await signIn(stack.backend.services, user.email, user.password);
  const services = createSessionServices(target, session.secret);
  const image = imageBytes ? await checkImage(new Uint8Array(imageBytes)) : null;
  return createItem(emulator, services, session.user, item.kind, item.input as never, image);
}

/** The rendered colour of a locator's text as sRGB [r, g, b] (Tailwind v4 colours are oklch). */
export async function textRgb(locator: Locator): Promise<[number, number, number]> {
  return locator.evaluate((el) => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const context = canvas.getContext("2d")!;
    context.fillStyle = getComputedStyle(el).color;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!] as [number, number, number];
  });
}

/** Whether an `<img>` has loaded a real image (a broken one has no natural width). */
export async function imageLoaded(image: Locator): Promise<boolean> {
  return image.evaluate(async (el) => {
    const img = el as HTMLImageElement;
    if (!img.complete) {
      await new Promise((resolve) => {
        img.addEventListener("load", resolve, { once: true });
        img.addEventListener("error", resolve, { once: true });
      });
    }
    return img.naturalWidth > 0;
  });
}

/** The HTTP status of a GET to the site, outside the browser (no cache). */
export async function statusOf(stack: Stack, path: string): Promise<number> {
  return (await fetch(new URL(path, stack.site.url), { redirect: "manual" })).status;
}

/** Holds the page's POSTs matching `pattern` until `release` is called, so a busy state can be seen. */
export async function holdPosts(page: Page, pattern: RegExp): Promise<() => void> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    if (route.request().method() === "POST") await gate;
    await route.continue();
  });
  return release;
}

/**
 * The HTML source (the textarea) of the body field `name` (`content`, `caseStudy`, `ar.content`…) within
 * `scope`. A body opens in the visual editor once its chunk has loaded (issue #30); this waits for that, then
 * chooses the field's HTML tab, so the textarea can be filled and read as before.
 */
export async function htmlSource(scope: Page | Locator, name: string): Promise<Locator> {
  const page = "goto" in scope ? scope : scope.page();
  const label = page.locator(`label[for="field-${name}"]`);
  const editor = scope.locator("[data-body-editor]").filter({ has: label });
  await scope.locator('[data-body-editor]:not([data-body-editor="loading"])').filter({ has: label }).waitFor();
  await editor.getByRole("tab").nth(1).click();
  const source = editor.locator(`textarea[name="${name}"]`);
  await source.waitFor();
  return source;
}
