/**
 * Stored HTML back to Markdown for `studio pull` (issue #30 item 5): turndown (the maintained HTML-to-Markdown
 * converter), set up for what the site's bodies hold (`ALLOWED_TAGS`): `##` headings, `-` bullets, fenced
 * code, `*` emphasis, `**` strong, `---` rules. The Markdown is kept only when it converts back
 * (`markdownToHtml`: marked, then the sanitizer) to the same HTML as the stored body (`sameBodyHtml`);
 * otherwise the caller writes HTML, and `markdownFor` says what Markdown could not express.
 */
import { JSDOM } from "jsdom";
import TurndownService from "turndown";
import { markdownToHtml } from "./markdown.ts";

let service: TurndownService | undefined;

/** CommonMark punctuation turndown leaves alone that would otherwise become markup: `<` (HTML) and `&` (entities). */
function escapeMore(text: string, escape: (s: string) => string): string {
  return escape(text).replace(/[<&]/g, (c) => `\\${c}`);
}

function turndown(): TurndownService {
  if (service) return service;
  const created = new TurndownService({
    headingStyle: "atx",
    hr: "---",
    bulletListMarker: "-",
    codeBlockStyle: "fenced",
    fence: "```",
    emDelimiter: "*",
    strongDelimiter: "**",
    linkStyle: "inlined",
  });
  const escape = created.escape.bind(created);
  created.escape = (text: string) => escapeMore(text, escape);
  // An image with a size (the admin's inline images may carry width and height) stays an HTML tag: Markdown's
  // `![alt](src)` has no place for them, and marked passes the tag through. Alone in its paragraph, the
  // paragraph is written as HTML too: a line holding only `<img …>` is an HTML block, without the `<p>`.
  // An image outside any paragraph (a line holding only `<img …>` in a Markdown file renders so) stays a tag
  // too: `![alt](src)` would put it in a paragraph.
  created.addRule("sizedImage", {
    filter: (node) =>
      node.nodeName === "IMG" &&
      (node.hasAttribute("width") ||
        node.hasAttribute("height") ||
        (node.parentNode as HTMLElement | null)?.id === "turndown-root"),
    replacement: (_content, node) => {
      const parent = node.parentNode as HTMLElement | null;
      const alone = parent?.nodeName === "P" && parent.childNodes.length === 1;
      return alone ? `<p>${(node as HTMLElement).outerHTML}</p>` : (node as HTMLElement).outerHTML;
    },
  });
  // turndown indents list item content by the marker's width plus spaces (`-   item`); one space reads as written.
  created.addRule("listItem", {
    filter: "li",
    replacement: (content, node) => {
      const parent = node.parentNode as HTMLElement;
      const index = Array.prototype.indexOf.call(parent.children, node) as number;
      const start = Number(parent.getAttribute("start") ?? 1);
      const marker = parent.nodeName === "OL" ? `${start + index}. ` : "- ";
      const body = content
        .replace(/^\n+/, "")
        .replace(/\n+$/, "\n")
        .replace(/\n/gm, `\n${" ".repeat(marker.length)}`);
      return `${marker}${body.trimEnd()}${node.nextSibling ? "\n" : ""}`;
    },
  });
  service = created;
  return service;
}

/** Tags whose block children, when a single paragraph, render the same without it (a tight list item). */
const UNWRAP_SOLE_PARAGRAPH = new Set(["LI", "BLOCKQUOTE", "TD", "TH"]);
const BLOCKS = new Set([
  "P",
  "H1",
  "H2",
  "H3",
  "H4",
  "UL",
  "OL",
  "LI",
  "BLOCKQUOTE",
  "PRE",
  "HR",
  "FIGURE",
  "FIGCAPTION",
  "TABLE",
  "THEAD",
  "TBODY",
  "TR",
  "TH",
  "TD",
]);
const SYNONYMS: Record<string, string> = { B: "strong", I: "em" };

/**
 * A body's HTML in a form two renderings of the same text share: whitespace between blocks dropped, runs of
 * whitespace in text made one space (not in `<pre>`), `<b>`/`<i>` as `<strong>`/`<em>`, a list item or quote
 * holding one paragraph as its text (a tight list), a code block without its final newline.
 */
export function canonicalBodyHtml(html: string): string {
  const { document } = new JSDOM(`<body>${html}</body>`).window;
  const walk = (element: Element) => {
    for (const child of [...element.childNodes]) {
      if (child.nodeType === 3) {
        if (element.closest("pre")) continue;
        const text = (child.textContent ?? "").replace(/\s+/g, " ");
        const prev = child.previousSibling as Element | null;
        const next = child.nextSibling as Element | null;
        const atEdge = (sibling: Element | null) => !sibling || BLOCKS.has(sibling.nodeName);
        const blockParent = element === document.body || BLOCKS.has(element.nodeName);
        let value = text;
        if (blockParent && atEdge(prev)) value = value.replace(/^ /, "");
        if (blockParent && atEdge(next)) value = value.replace(/ $/, "");
        if (value === "") child.remove();
        else child.textContent = value;
      } else if (child.nodeType === 1) {
        walk(child as Element);
      } else {
        child.remove();
      }
    }
    const only = element.children.length === 1 ? element.children[0]! : null;
    if (only?.nodeName === "P" && UNWRAP_SOLE_PARAGRAPH.has(element.nodeName) && element.childNodes.length === 1) {
      only.replaceWith(...only.childNodes);
    }
    if (element.nodeName === "CODE" && element.parentElement?.nodeName === "PRE") {
      const last = element.lastChild;
      if (last?.nodeType === 3) last.textContent = (last.textContent ?? "").replace(/\n$/, "");
    }
  };
  walk(document.body);
  let out = document.body.innerHTML;
  for (const [tag, name] of Object.entries(SYNONYMS)) {
    out = out.replace(new RegExp(`<(/?)${tag.toLowerCase()}>`, "g"), `<$1${name}>`);
  }
  return out;
}

/** True when two bodies' HTML show the same (`canonicalBodyHtml` equal). */
export function sameBodyHtml(a: string, b: string): boolean {
  return a === b || canonicalBodyHtml(a) === canonicalBodyHtml(b);
}

/** What Markdown cannot say, by tag, for the reason a body is written as HTML. */
const TAG_NAMES: Record<string, string> = {
  table: "a table",
  u: "underlined text (<u>)",
  s: "struck-through text (<s>)",
  sub: "a subscript (<sub>)",
  sup: "a superscript (<sup>)",
  figure: "a figure",
  figcaption: "a figure caption",
  br: "a line break inside a block",
};

/** Tags and attributes of `html`, counted: `tag` and `tag[attribute]`. */
function shape(html: string): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const element of new JSDOM(`<body>${html}</body>`).window.document.body.querySelectorAll("*")) {
    const tag = element.nodeName.toLowerCase();
    add(SYNONYMS[element.nodeName] ?? tag);
    for (const attribute of element.getAttributeNames()) add(`${tag}[${attribute}]`);
  }
  return counts;
}

/** Why `markdown` does not render `html` again: the first tag or attribute it loses, in words, or "" when none is. */
function lostPart(html: string, markdown: string): string {
  let rendered = "";
  try {
    rendered = markdownToHtml(markdown);
  } catch {
    // Not renderable at all: nothing of it survives.
  }
  const want = shape(html);
  const have = shape(rendered);
  for (const [key, count] of want) {
    if ((have.get(key) ?? 0) >= count) continue;
    const attribute = /^(\w+)\[(.+)\]$/.exec(key);
    if (attribute) return `a ${attribute[2]} attribute on <${attribute[1]}>`;
    return TAG_NAMES[key] ?? `<${key}>`;
  }
  return "";
}

/**
 * The Markdown of a stored body (sanitized HTML), when it converts back to the same HTML (`sameBodyHtml`
 * with `markdownToHtml`), else why not: `the body has a table Markdown can't express`.
 * @throws {HtmlBoundsError} when the Markdown renders past the body bounds (it never does for a stored body
 *   within them).
 */
export function markdownFor(html: string): { markdown: string } | { reason: string } {
  const markdown = turndown().turndown(html);
  if (sameBodyHtml(markdownToHtml(markdown), html)) return { markdown };
  const lost = lostPart(html, markdown);
  return {
    reason: lost
      ? `the body has ${lost} Markdown can't express`
      : "its Markdown would not convert back to the same HTML",
  };
}
