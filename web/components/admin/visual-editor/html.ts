/**
 * The visual editor's HTML (issue #30 item 1): what it writes is the HTML the site stores (sanitized on save,
 * lib/html/sanitize.ts), given back as it came for every construct the editor keeps, and each block's
 * direction written where it differs from the version's (an English quote in an Arabic body).
 * Runs in the browser (and jsdom in tests): it uses the DOM's `<template>`.
 */
import { getHTMLFromFragment, getSchema } from "@tiptap/core";
import { DOMParser as SchemaParser, type Schema } from "@tiptap/pm/model";
import { ALLOWED_ATTR } from "../../../../lib/html/allowlist.ts";
import { editorExtensions } from "./extensions.ts";

/** Letters of right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms). */
const RTL_LETTER = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;

/**
 * The direction of `text` by its first strong letter (Unicode bidi rules P2–P3, as `dir="auto"` decides),
 * or null when it has no letter.
 */
export function firstStrongDirection(text: string): "ltr" | "rtl" | null {
  const letter = /\p{L}/u.exec(text)?.[0];
  if (!letter) return null;
  return RTL_LETTER.test(letter) ? "rtl" : "ltr";
}

/** Elements whose direction follows their text (`dir="auto"` when it differs from around them). */
const DIRECTED = new Set(["P", "H2", "H3", "BLOCKQUOTE", "UL", "OL", "LI", "PRE", "TABLE", "TH", "TD"]);
const KEPT_ATTRIBUTES = new Set<string>(ALLOWED_ATTR);

function template(html: string): HTMLTemplateElement {
  const element = document.createElement("template");
  element.innerHTML = html;
  return element;
}

/** Gives `dir="auto"` to each block whose first letter's direction differs from the one it inherits. */
function markDirections(parent: ParentNode, inherited: "ltr" | "rtl"): void {
  for (const child of Array.from(parent.children)) {
    let direction = inherited;
    if (DIRECTED.has(child.tagName)) {
      const own = child.getAttribute("dir");
      const strong = firstStrongDirection(child.textContent ?? "");
      if (own === "ltr" || own === "rtl") direction = own;
      else if (own === "auto") direction = strong ?? inherited;
      else if (strong && strong !== inherited) {
        child.setAttribute("dir", "auto");
        direction = strong;
      }
    }
    markDirections(child, direction);
  }
}

/** Undoes what Tiptap adds to tables (column groups, inline widths) and puts leading header rows in `<thead>`. */
function finishTables(root: DocumentFragment): void {
  root.querySelectorAll("colgroup").forEach((group) => group.remove());
  for (const cell of Array.from(root.querySelectorAll("td, th"))) {
    for (const name of ["colspan", "rowspan"]) if (cell.getAttribute(name) === "1") cell.removeAttribute(name);
  }
  for (const table of Array.from(root.querySelectorAll("table"))) {
    const body = table.querySelector(":scope > tbody");
    if (!body || table.querySelector(":scope > thead")) continue;
    const head = table.ownerDocument.createElement("thead");
    for (const row of Array.from(body.children)) {
      if (row.children.length === 0 || Array.from(row.children).some((cell) => cell.tagName !== "TH")) break;
      head.append(row);
    }
    if (head.children.length > 0) table.insertBefore(head, body);
    if (body.children.length === 0) body.remove();
  }
}

/**
 * Tiptap's HTML (`editor.getHTML()`) as the site stores it: tables without Tiptap's additions, the first
 * paragraph of a tight list item, cell or quote unwrapped (as it was written), attributes outside the
 * sanitizer's allowlist removed, `dir="auto"` on blocks whose text runs against `base` (the version's
 * direction: Arabic `rtl`), and an empty document as the empty string.
 * @param html Tiptap's serialization of the editor's document
 * @param base the direction of the body's language version
 */
export function finishHtml(html: string, base: "ltr" | "rtl"): string {
  const root = template(html).content;
  finishTables(root);
  for (const tight of Array.from(root.querySelectorAll("[data-tight]"))) {
    tight.removeAttribute("data-tight");
    const first = tight.firstElementChild;
    if (first?.tagName === "P" && first.attributes.length === 0 && tight.firstChild === first) {
      first.replaceWith(...Array.from(first.childNodes));
    }
  }
  for (const element of Array.from(root.querySelectorAll("*"))) {
    for (const { name } of Array.from(element.attributes)) {
      if (!KEPT_ATTRIBUTES.has(name)) element.removeAttribute(name);
    }
  }
  markDirections(root, base);
  const out = document.createElement("div");
  out.append(root);
  const result = out.innerHTML;
  return result === "<p></p>" ? "" : result;
}

let schema: Schema | undefined;

/** The editor's schema, built once (the same extensions as the editor). */
export function editorSchema(): Schema {
  schema ??= getSchema(editorExtensions());
  return schema;
}

/**
 * `html` parsed through the editor's schema and written back (what the editor would save if opened on `html`
 * and edited without changing anything), as {@link finishHtml} gives it.
 */
export function roundTrip(html: string, base: "ltr" | "rtl"): string {
  const doc = SchemaParser.fromSchema(editorSchema()).parse(template(html).content);
  return finishHtml(getHTMLFromFragment(doc.content, editorSchema()), base);
}

/** Tags the editor writes under another name. */
const SAME_AS: Record<string, string> = { B: "STRONG", I: "EM" };
/** Containers the editor may add or drop without losing anything (tables get `<tbody>`, code blocks `<code>`). */
const STRUCTURE = new Set(["TBODY", "THEAD", "CODE"]);

/** Counts of `<tag>` and `<tag attr>` (attributes with their values for `dir`) in `html`, and its text. */
function inventory(html: string): { counts: Map<string, number>; text: string } {
  const root = template(html).content;
  const counts = new Map<string, number>();
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const element of Array.from(root.querySelectorAll("*"))) {
    const tag = SAME_AS[element.tagName] ?? element.tagName;
    if (STRUCTURE.has(tag)) continue;
    add(`<${tag.toLowerCase()}>`);
    for (const { name, value } of Array.from(element.attributes)) {
      if (name === "dir" && value.toLowerCase() === "auto") continue;
      add(`${tag.toLowerCase()} ${name}${name === "dir" ? `=${value.toLowerCase()}` : ""}`);
    }
  }
  return { counts, text: (root.textContent ?? "").replace(/\s+/g, "") };
}

/**
 * What the visual editor would lose of `html` (stored or typed HTML) if it were opened there: tags it has no
 * place for (`<h4>`, `<u>`, `<figure>`…), attributes it does not keep, and text (as "text"), each once, in
 * the order found. Empty when `html` survives the round trip whole (issue #30 item 2: say so before
 * switching, never lose it silently).
 */
export function lostParts(html: string, base: "ltr" | "rtl"): string[] {
  if (!html.trim()) return [];
  const before = inventory(html);
  const after = inventory(roundTrip(html, base));
  const lost: string[] = [];
  for (const [key, count] of before.counts) {
    if ((after.counts.get(key) ?? 0) < count) lost.push(key.startsWith("<") ? key : `<${key}>`);
  }
  if (before.text !== after.text) lost.push("text");
  return lost;
}
