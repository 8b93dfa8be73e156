/**
 * Pasted HTML from Word, Google Docs and web pages, made ready for the editor's schema (issue #30 item 1):
 * the schema already drops every tag and mark it has no place for (fonts, spans, styles, classes); this step
 * handles what it would misread. Word's lists are paragraphs with a typed bullet (`<![if !supportLists]>·`):
 * they become `<ul>`/`<ol>`; Word's conditional comments, `<o:p>` and empty `&nbsp;` paragraphs go; headings
 * the site has no level for become the nearest one it has (h1 → h2, h4–h6 → h3); pasted `dir` and `lang`
 * attributes go, so each block takes its direction from its text. The server sanitizes the saved body again.
 */

/** Word's list-bullet block: `<![if !supportLists]>…<![endif]>`, in either of its clipboard spellings. */
const SUPPORT_LISTS = /<!(?:--)?\[if !supportLists\](?:--)?>([\s\S]*?)<!(?:--)?\[endif\](?:--)?>/gi;
/** Any other conditional comment block (VML shapes, Office settings). */
const CONDITIONAL = /<!--\[if [^\]]*\]>[\s\S]*?<!\[endif\]-->/gi;
/** A typed number or letter that starts a numbered list item (`1.`, `a)`, `iv.`). */
const NUMBERED = /^[\s\u00a0]*(?:\d{1,3}|[a-z]{1,4})[.)]/i;

function textOf(html: string): string {
  return html.replace(/<[^>]*>/g, "").replace(/&nbsp;/g, " ");
}

/** Turns runs of Word list paragraphs (marked `data-word-list`) into lists of their own kind. */
function buildWordLists(root: DocumentFragment): void {
  for (const marker of Array.from(root.querySelectorAll("[data-word-list]"))) {
    const paragraph = marker.closest("p, h1, h2, h3, h4, h5, h6, div") ?? marker.parentElement;
    const kind = marker.getAttribute("data-word-list") === "ol" ? "OL" : "UL";
    marker.remove();
    if (!paragraph || !paragraph.parentNode) continue;
    const item = paragraph.ownerDocument.createElement("li");
    item.append(...Array.from(paragraph.childNodes));
    const previous = paragraph.previousElementSibling;
    if (previous?.tagName === kind && previous.hasAttribute("data-word-list-run")) {
      previous.append(item);
      paragraph.remove();
    } else {
      const list = paragraph.ownerDocument.createElement(kind);
      list.setAttribute("data-word-list-run", "");
      list.append(item);
      paragraph.replaceWith(list);
    }
  }
  root.querySelectorAll("[data-word-list-run]").forEach((list) => list.removeAttribute("data-word-list-run"));
}

/**
 * `html` from the clipboard, cleaned for the editor's schema (see the module's header).
 * @param html the clipboard's `text/html`
 * @returns HTML the editor parses; never throws
 */
export function cleanPastedHtml(html: string): string {
  const marked = html
    .replace(SUPPORT_LISTS, (_all, bullet: string) => {
      const kind = NUMBERED.test(textOf(bullet)) ? "ol" : "ul";
      return `<span data-word-list="${kind}"></span>`;
    })
    .replace(CONDITIONAL, "");
  const template = document.createElement("template");
  template.innerHTML = marked;
  const root = template.content;
  root.querySelectorAll("o\\:p, style, meta, link, title, xml").forEach((element) => element.remove());
  // Word's list paragraphs without the bullet block (newer Word writes `mso-list` only).
  for (const paragraph of Array.from(root.querySelectorAll("p[style*='mso-list']"))) {
    if (!paragraph.querySelector("[data-word-list]")) {
      const marker = paragraph.ownerDocument.createElement("span");
      marker.setAttribute("data-word-list", "ul");
      paragraph.prepend(marker);
    }
  }
  buildWordLists(root);
  for (const heading of Array.from(root.querySelectorAll("h1, h4, h5, h6"))) {
    const renamed = heading.ownerDocument.createElement(heading.tagName === "H1" ? "h2" : "h3");
    renamed.append(...Array.from(heading.childNodes));
    heading.replaceWith(renamed);
  }
  for (const element of Array.from(root.querySelectorAll("[dir], [lang]"))) {
    element.removeAttribute("dir");
    element.removeAttribute("lang");
  }
  for (const paragraph of Array.from(root.querySelectorAll("p"))) {
    if (!(paragraph.textContent ?? "").replace(/[\s\u00a0]/g, "") && !paragraph.querySelector("img, br")) {
      paragraph.remove();
    }
  }
  const out = document.createElement("div");
  out.append(root);
  return out.innerHTML;
}
