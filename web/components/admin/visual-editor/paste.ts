/**
 * Pasted HTML from Word, Google Docs and web pages, made ready for the editor's schema (issue #30 item 1):
 * the schema already drops every tag and mark it has no place for (fonts, spans, styles, classes); this step
 * handles what it would misread. Word's lists are paragraphs with a typed bullet (`<![if !supportLists]>·`):
 * they become `<ul>`/`<ol>`; Word's conditional comments, `<o:p>` and empty `&nbsp;` paragraphs go; headings
 * the site has no level for become the nearest one it has (h1 → h2, h4–h6 → h3); pasted `dir` and `lang`
 * attributes go, so each block takes its direction from its text. The server sanitizes the saved body again.
 *
 * Inline `style` attributes are read as text and removed before anything parses the fragment: the site's CSP
 * refuses inline styles (a parsed `style="…"` is a reported violation and is not applied, so the DOM would not
 * say that Google Docs' `<span style="font-weight:700">` is bold or that its `<b style="font-weight:normal">`
 * wrapper is not). Bold and italic styles become `<strong>` and `<em>`; the rest of the styling goes.
 */

/** Word's list-bullet block: `<![if !supportLists]>…<![endif]>`, in either of its clipboard spellings. */
const SUPPORT_LISTS = /<!(?:--)?\[if !supportLists\](?:--)?>([\s\S]*?)<!(?:--)?\[endif\](?:--)?>/gi;
/** Any other conditional comment block (VML shapes, Office settings). */
const CONDITIONAL = /<!--\[if [^\]]*\]>[\s\S]*?<!\[endif\]-->/gi;
/** A typed number or letter that starts a numbered list item (`1.`, `a)`, `iv.`). */
const NUMBERED = /^[\s\u00a0]*(?:\d{1,3}|[a-z]{1,4})[.)]/i;

/** A start tag and its attributes (attribute values hold no `>` in clipboard HTML). */
const START_TAG = /<([a-z][\w:-]*)(\s[^>]*?)?(\/?)>/gi;
const STYLE_ATTRIBUTE = /\sstyle\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;

/**
 * `html` without `style` attributes; an element styled bold or italic gets `data-paste-format` (`b`, `i`,
 * `bi`), Google Docs' normal-weight `<b>` wrapper `data-paste-format="plain"`, a Word list paragraph
 * (`mso-list:l0 level1 lfo1`) `data-paste-list`.
 */
function withoutStyles(html: string): string {
  return html.replace(START_TAG, (tag: string, name: string, attributes = "", close: string) => {
    const found = STYLE_ATTRIBUTE.exec(attributes);
    if (!found) return tag;
    const style = (found[1] ?? found[2] ?? found[3] ?? "").toLowerCase();
    const weight = /(?:^|;)\s*font-weight\s*:\s*([a-z0-9]+)/.exec(style)?.[1];
    const bold = weight === "bold" || weight === "bolder" || Number(weight) >= 600;
    const italic = /(?:^|;)\s*font-style\s*:\s*italic/.test(style);
    const plain = name.toLowerCase() === "b" && (weight === "normal" || weight === "400");
    const format = plain ? "plain" : `${bold ? "b" : ""}${italic ? "i" : ""}`;
    const list = /mso-list\s*:\s*l\d/.test(style) ? " data-paste-list" : "";
    const rest = attributes.replace(STYLE_ATTRIBUTE, "");
    return `<${name}${rest}${format ? ` data-paste-format="${format}"` : ""}${list}${close}>`;
  });
}

/** Wraps the content of elements marked by `withoutStyles` in `<strong>`/`<em>`, unwraps the plain ones. */
function applyFormats(root: DocumentFragment): void {
  for (const element of Array.from(root.querySelectorAll("[data-paste-format]"))) {
    const format = element.getAttribute("data-paste-format")!;
    element.removeAttribute("data-paste-format");
    if (format === "plain") {
      element.replaceWith(...Array.from(element.childNodes));
      continue;
    }
    for (const [flag, tag] of [
      ["i", "em"],
      ["b", "strong"],
    ] as const) {
      if (!format.includes(flag)) continue;
      const wrapper = element.ownerDocument.createElement(tag);
      wrapper.append(...Array.from(element.childNodes));
      element.append(wrapper);
    }
  }
}

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
  const unstyled = withoutStyles(marked);
  const template = document.createElement("template");
  template.innerHTML = unstyled;
  const root = template.content;
  applyFormats(root);
  root.querySelectorAll("o\\:p, style, meta, link, title, xml").forEach((element) => element.remove());
  // Word's list paragraphs without the bullet block (newer Word writes `mso-list` only).
  for (const paragraph of Array.from(root.querySelectorAll("p[data-paste-list]"))) {
    paragraph.removeAttribute("data-paste-list");
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
