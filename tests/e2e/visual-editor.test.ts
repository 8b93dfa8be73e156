/**
 * Issue #30 items 1 and 2 in real Chromium: the post body's visual editor, in the English admin on a desktop
 * and in the Arabic admin on a 390 px phone. Markdown shortcuts as one types (`## `, `- `, `> `), a link
 * through the dialog (a `javascript:` address refused with the admin's sentence), a Word fragment pasted
 * (a `paste` event with `text/html`) and cleaned; Arabic blocks right-to-left with an English quote
 * left-to-right; no CSP violation on the way; the HTML tab shows the source left-to-right with each line in
 * its own direction, and switching back loses nothing (a part the editor cannot keep is named first and kept). Saved, the public
 * pages hold the structure.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, newUser, ready, signInAs, type Credentials } from "./admin-helpers.ts";
import { axeSerious, PHONE, startStack, type Stack } from "./helpers.ts";

let stack: Stack;
let user: Credentials;
let page: Page;
const slug = `visual-editor-e2e-${Date.now()}`;
/** The edit page of the post the first test writes. */
let editPath = "";

beforeAll(async () => {
  stack = await startStack();
  user = await createUser(stack, newUser("Vera Visual"));
});
afterAll(async () => {
  await stack?.close();
});

const WORD =
  '<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style>p.MsoNormal{margin:0}</style></head><body>' +
  '<p class="MsoNormal" style="margin-bottom:0cm"><b style="mso-bidi-font-weight:normal"><span style="font-size:14pt;font-family:Calibri">' +
  'Pasted</span></b> from <i><font color="red">Word</font></i>.<o:p></o:p></p>' +
  '<p class="MsoNormal"><o:p>&nbsp;</o:p></p>' +
  '<p class="MsoListParagraphCxSpFirst" style="text-indent:-18pt;mso-list:l0 level1 lfo1"><![if !supportLists]>' +
  '<span style="font-family:Symbol">·<span>&nbsp;&nbsp; </span></span><![endif]>Listed<o:p></o:p></p>' +
  "</body></html>";

/** The body editor of a language version's panel: its state (`visual`, `html`, `preview`) and its parts. */
function body(panel: Locator, label: string) {
  const root = panel.locator("[data-body-editor]");
  return {
    root,
    state: () => root.getAttribute("data-body-editor"),
    area: panel.getByRole("textbox", { name: label, exact: true }),
    tab: (name: string) => panel.getByRole("tablist", { name: label, exact: true }).getByRole("tab", { name }),
    value: () => root.locator("input[type=hidden], textarea").first().inputValue(),
  };
}

/** Pastes `html` into the focused editor as a browser does from the clipboard. */
async function paste(editor: Locator, html: string): Promise<void> {
  await editor.evaluate((element, text) => {
    const data = new DataTransfer();
    data.setData("text/html", text);
    data.setData("text/plain", text.replace(/<[^>]*>/g, ""));
    element.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, html);
}

/** The tags (and attribute names) of the public page's body, as a nested outline. */
const outline = (visitor: Page) =>
  visitor
    .locator("main .prose-body")
    .first()
    .evaluate((root) => {
      const walk = (element: Element): string =>
        [...element.children]
          .map((child) => {
            const attrs = [...child.attributes].map((a) => a.name).join(",");
            return `${child.tagName.toLowerCase()}${attrs ? `[${attrs}]` : ""}${child.children.length ? `(${walk(child)})` : ""}`;
          })
          .join(" ");
      return walk(root);
    });

const direction = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element).direction);

describe("the visual body editor", () => {
  it("writes a post with Markdown shortcuts, a checked link and a cleaned paste, in English and Arabic; the HTML tab keeps it", async () => {
    page = await stack.page();
    // Violations of the site's CSP (Tiptap's injected stylesheet, a pasted style="…" parsed) are collected.
    await page.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { cspViolations: seen });
      document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.sourceFile}`));
    });
    await signInAs(stack, page, user, { to: "/admin/blog/new" });
    const en = page.getByRole("tabpanel", { name: "English" });
    await en.getByRole("textbox", { name: "Title", exact: true }).fill("Visual editor e2e");
    await page.getByRole("textbox", { name: "Slug", exact: true }).fill(slug);
    await en.getByRole("textbox", { name: "Excerpt", exact: true }).fill("Written visually.");
    await en.getByRole("textbox", { name: "Author Name", exact: true }).fill("Vera");

    // The textarea first, then the visual editor once its chunk has loaded.
    const enBody = body(en, "Content (HTML)");
    await expect.poll(enBody.state).toBe("visual");
    const toolbar = en.getByRole("toolbar", { name: "Formatting" });
    expect(await toolbar.getByRole("button", { name: "Bold" }).getAttribute("aria-pressed")).toBe("false");
    expect(await axeSerious(page)).toEqual([]);
    await enBody.area.click();
    await page.keyboard.type("## Before you hire");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Three questions.");
    await page.keyboard.press("Enter");
    await page.keyboard.type("- First");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Second");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.keyboard.type("the guide");
    await page.keyboard.press("Shift+Home");
    // The editor reads a keyboard selection on the browser's selectionchange event, a task after the key: a
    // person's next key comes later; the test's waits for it (under load the shortcut could otherwise see none).
    await expect.poll(() => page.evaluate(() => window.getSelection()?.toString())).toBe("the guide");
    await page.waitForFunction(() => new Promise((resolve) => setTimeout(() => resolve(true), 0)));
    await page.keyboard.press("Control+k");
    const dialog = page.getByRole("dialog", { name: "Link" });
    await dialog.waitFor();
    const address = dialog.getByRole("textbox", { name: "Link address" });
    await address.fill("javascript:alert(1)");
    await dialog.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => dialog.getByRole("alert").textContent()).toContain("This address cannot be linked.");
    expect(await address.getAttribute("aria-invalid")).toBe("true");
    await address.fill("https://example.com/guide");
    await dialog.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await toolbar.getByRole("button", { name: "Link" }).getAttribute("aria-pressed")).toBe("true");
    await page.keyboard.press("End");
    // The link's text is still selected until the editor takes the End (a task later): Enter would replace it.
    await expect.poll(() => page.evaluate(() => window.getSelection()?.isCollapsed)).toBe(true);
    await page.waitForFunction(() => new Promise((resolve) => setTimeout(() => resolve(true), 0)));
    await page.keyboard.press("Enter");
    await paste(enBody.area, WORD);
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.keyboard.type("> Hire slowly.");
    await expect
      .poll(enBody.value)
      .toBe(
        "<h2>Before you hire</h2><p>Three questions.</p><ul><li>First</li><li>Second</li></ul>" +
          '<p><a href="https://example.com/guide">the guide</a></p><p><strong>Pasted</strong> from <em>Word</em>.</p>' +
          "<ul><li>Listed</li></ul><blockquote><p>Hire slowly.</p></blockquote>",
      );

    // The HTML tab: the same HTML, left to right, each line in its own direction; back to Visual, nothing lost.
    const written = await enBody.value();
    await enBody.tab("HTML").click();
    expect(await enBody.area.inputValue()).toBe(written);
    expect(await enBody.area.getAttribute("dir")).toBe("ltr");
    expect(await enBody.area.evaluate((e) => getComputedStyle(e).unicodeBidi)).toBe("plaintext");
    await enBody.tab("Visual").click();
    await expect.poll(enBody.state).toBe("visual");
    expect(await enBody.value()).toBe(written);

    // The Arabic version: Arabic typed right to left, an English quote inside it left to right, in Naskh.
    await page.getByRole("tab", { name: "العربية" }).click();
    const ar = page.getByRole("tabpanel", { name: "العربية" });
    await ar.getByRole("textbox", { name: "Title (العربية)" }).fill("المحرر المرئي");
    await ar.getByRole("textbox", { name: "Excerpt (العربية)" }).fill("مكتوب بالمحرر المرئي.");
    await ar.getByRole("textbox", { name: "Author Name (العربية)" }).fill("فيرا");
    const arBody = body(ar, "Content (HTML) (العربية)");
    await expect.poll(arBody.state).toBe("visual");
    await arBody.area.click();
    await page.keyboard.type("## قبل التوظيف");
    await page.keyboard.press("Enter");
    await page.keyboard.type("ثلاثة أسئلة.");
    await page.keyboard.press("Enter");
    await page.keyboard.type("> Hire slowly.");
    await expect
      .poll(arBody.value)
      .toBe('<h2>قبل التوظيف</h2><p>ثلاثة أسئلة.</p><blockquote dir="auto"><p>Hire slowly.</p></blockquote>');
    expect(await direction(arBody.area.locator("p").first())).toBe("rtl");
    expect(await direction(arBody.area.locator("blockquote"))).toBe("ltr");
    expect(await arBody.area.evaluate((e) => getComputedStyle(e).fontFamily)).toContain("Noto Naskh Arabic");
    // Its HTML: left to right, Arabic lines in their own direction, a proportional face with Naskh in it.
    await arBody.tab("HTML").click();
    expect(await arBody.area.getAttribute("dir")).toBe("ltr");
    expect(await arBody.area.evaluate((e) => getComputedStyle(e).fontFamily)).toMatch(/^Inter, "Noto Naskh Arabic"/);
    // A part the editor cannot keep is named before switching, and the HTML is kept.
    await arBody.area.fill(`${await arBody.area.inputValue()}<h4>صغير</h4>`);
    await arBody.tab("Visual").click();
    await expect.poll(() => ar.getByRole("alert").textContent()).toContain("<h4>");
    await ar.getByRole("button", { name: "Keep the HTML" }).click();
    expect(await arBody.state()).toBe("html");
    expect(await arBody.area.inputValue()).toContain("<h4>صغير</h4>");
    await arBody.area.fill((await arBody.area.inputValue()).replace("<h4>صغير</h4>", ""));

    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    // A version written in the form counts as a translation of the English one: the writer marks it reviewed,
    // so that the publish takes it too (an unreviewed translation is held back, issue #29 item 2).
    await ar.getByRole("checkbox", { name: /^Reviewed:/ }).check();
    // Published through the Publish… dialog; the new post lands on its own edit page (issue #29).
    await page.getByRole("button", { name: "Publish…", exact: true }).click();
    await page.locator("dialog[open]").getByRole("button", { name: "Publish", exact: true }).click();
    await page.waitForURL((u) => u.pathname.startsWith("/admin/blog/edit/"));
    editPath = new URL(page.url()).pathname;
    await expect
      .poll(async () => (await page.locator("main [data-flash]").first().textContent())?.replace(/[\u2068\u2069]/g, ""))
      .toBe("Published “Visual editor e2e”: English, العربية.");

    // The public pages: the structure written, nothing else (no class, style or span from Word).
    const visitor = await stack.page();
    await visitor.goto(`/en/blog/${slug}`);
    await expect.poll(() => outline(visitor)).toBe("h2 p ul(li li) p(a[href]) p(strong em) ul(li) blockquote(p)");
    await visitor.goto(`/ar/blog/${slug}`);
    await expect.poll(() => outline(visitor)).toBe("h2 p blockquote[dir](p)");
    expect(await direction(visitor.locator("main .prose-body p").first())).toBe("rtl");
    expect(await direction(visitor.locator("main .prose-body blockquote"))).toBe("ltr");
  });

  it("works in the Arabic admin on a phone: Arabic names, a wrapping toolbar, no sideways scroll", async () => {
    // The same session as the first test's (its cookies), in the Arabic admin (the locale cookie).
    const phone = await stack.page({ viewport: PHONE, storageState: await page.context().storageState() });
    await phone.context().addCookies([{ name: "locale", value: "ar", url: stack.site.url }]);
    expect(editPath).toMatch(/^\/admin\/blog\/edit\//);
    await phone.goto(editPath);
    await ready(phone);
    const en = phone.getByRole("tabpanel").first();
    const label = await en.locator("[data-body-editor] label").textContent();
    const enBody = body(en, label!);
    await expect.poll(enBody.state).toBe("visual");
    expect(await enBody.tab("مرئي").getAttribute("aria-selected")).toBe("true");
    const toolbar = en.getByRole("toolbar", { name: "التنسيق" });
    const bold = toolbar.getByRole("button", { name: "عريض" });
    // The toolbar wraps onto more lines than one button's height; the page does not scroll sideways.
    const [barHeight, buttonHeight] = [(await toolbar.boundingBox())!.height, (await bold.boundingBox())!.height];
    expect(barHeight).toBeGreaterThan(buttonHeight * 2);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // Keyboard: one tab stop, arrow keys move in the reading direction (left is next in Arabic).
    await toolbar.getByRole("button", { name: "عنوان", exact: true }).focus();
    await phone.keyboard.press("ArrowLeft");
    expect(await phone.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("عنوان فرعي");
    // Bold by shortcut, shown pressed; the link dialog in Arabic refuses an address without https://.
    // As above, the editor takes each caret move on the selectionchange a task later: the test waits for the
    // caret to be in the paragraph clicked, then at its end, before Enter (under load Enter split the heading).
    const firstParagraph = enBody.area.locator("p").first();
    const caretIn = () =>
      firstParagraph.evaluate((p) => {
        const selection = window.getSelection();
        return selection !== null && selection.rangeCount > 0 && p.contains(selection.anchorNode)
          ? selection.anchorOffset === (selection.anchorNode?.textContent ?? "").length
          : null;
      });
    await firstParagraph.click();
    await expect.poll(caretIn).not.toBeNull();
    await phone.keyboard.press("End");
    await expect.poll(caretIn).toBe(true);
    await phone.waitForFunction(() => new Promise((resolve) => setTimeout(() => resolve(true), 0)));
    await phone.keyboard.press("Enter");
    await phone.keyboard.press("Control+b");
    await phone.keyboard.type("Bold words");
    await expect.poll(() => bold.getAttribute("aria-pressed")).toBe("true");
    await toolbar.getByRole("button", { name: "رابط" }).click();
    const dialog = phone.getByRole("dialog", { name: "رابط" });
    await dialog.getByRole("textbox", { name: "عنوان الرابط" }).fill("example.com");
    await dialog.getByRole("button", { name: "تطبيق" }).click();
    await expect.poll(() => dialog.getByRole("alert").textContent()).toContain("https://");
    await dialog.getByRole("button", { name: "إلغاء" }).click();
    expect(await axeSerious(phone)).toEqual([]);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expect.poll(enBody.value).toContain("<p><strong>Bold words</strong></p><ul>");
    // A published post is updated in place, confirmed by the flash (issue #29).
    await phone.getByRole("button", { name: "تحديث", exact: true }).click();
    await expect
      .poll(async () =>
        (await phone.locator("main [data-flash]").first().textContent())?.replace(/[\u2068\u2069]/g, ""),
      )
      .toBe("تم حفظ «Visual editor e2e».");
    const visitor = await stack.page();
    await visitor.goto(`/en/blog/${slug}`);
    await expect
      .poll(() => outline(visitor))
      .toBe("h2 p p(strong) ul(li li) p(a[href]) p(strong em) ul(li) blockquote(p)");
  });
});
