/**
 * The visual editor's document schema (issue #30 item 1; docs/decisions/0020-visual-editor.md): Tiptap's
 * StarterKit cut down to what a body may hold on the site (spec §5: headings h2 and h3 only; the sanitizer's
 * allowlist, lib/html/allowlist.ts): paragraphs, h2, h3, bold, italic, links, bulleted and numbered lists,
 * blockquotes, inline code and code blocks, line breaks, rules, images (src, alt, title, width, height) and
 * tables. No h1/h4–h6, strike or underline: content the schema has no place for is dropped when it is parsed
 * (a paste), and `lostParts` names it before stored HTML is opened here.
 *
 * Plain module (no React): the editor component and the headless round trip (`html.ts`, unit tests) share it.
 */
import { Extension, type Extensions } from "@tiptap/core";
import Image from "@tiptap/extension-image";
import { Table, TableKit } from "@tiptap/extension-table";
import type { Node as ProseMirrorNode } from "@tiptap/pm/model";
import { Plugin, PluginKey } from "@tiptap/pm/state";
import { Decoration, DecorationSet } from "@tiptap/pm/view";
import StarterKit from "@tiptap/starter-kit";
import { isAllowedUrl } from "../../../../lib/html/allowlist.ts";

/** Block nodes that keep a `dir` or `lang` attribute of the stored HTML (both are in the allowlist). */
const BLOCKS = [
  "paragraph",
  "heading",
  "blockquote",
  "bulletList",
  "orderedList",
  "listItem",
  "codeBlock",
  "table",
  "tableRow",
  "tableCell",
  "tableHeader",
];

/**
 * Nodes whose content must start with a paragraph in the schema but whose HTML often has none
 * (`<li>text</li>`, `<td>text</td>`, `<blockquote>text</blockquote>`): `tight` ("1") remembers that the first
 * paragraph was not written, so the HTML is given back as it came (`finishHtml` unwraps it). New list items
 * and cells are tight, as Markdown's tight lists and the AI's bodies are; a new quote holds paragraphs.
 */
const TIGHT_BY_DEFAULT = ["listItem", "tableCell", "tableHeader"];

/** True when `element`'s first child with content is inline (text, `<strong>`, …), not a block. */
function startsInline(element: HTMLElement): boolean {
  for (const child of Array.from(element.childNodes)) {
    if (child.nodeType === 3 && !(child.textContent ?? "").trim()) continue;
    if (child.nodeType !== 1) return child.nodeType === 3;
    return !/^(P|H[1-6]|UL|OL|BLOCKQUOTE|PRE|TABLE|HR|DIV|FIGURE)$/.test((child as Element).tagName);
  }
  return false;
}

const Attributes = Extension.create({
  name: "storedAttributes",
  addGlobalAttributes() {
    return [
      {
        types: BLOCKS,
        attributes: {
          dir: {
            default: null,
            parseHTML: (element) => {
              const dir = element.getAttribute("dir")?.toLowerCase();
              return dir === "ltr" || dir === "rtl" || dir === "auto" ? dir : null;
            },
            renderHTML: (attributes) => (attributes.dir ? { dir: attributes.dir as string } : {}),
          },
          lang: {
            default: null,
            parseHTML: (element) => element.getAttribute("lang") || null,
            renderHTML: (attributes) => (attributes.lang ? { lang: attributes.lang as string } : {}),
          },
        },
      },
      ...[
        { types: TIGHT_BY_DEFAULT, fresh: "1" },
        { types: ["blockquote"], fresh: "0" },
      ].map(({ types, fresh }) => ({
        types,
        attributes: {
          tight: {
            default: fresh,
            parseHTML: (element: HTMLElement) => (startsInline(element) ? "1" : "0"),
            renderHTML: (attributes: Record<string, unknown>) =>
              attributes.tight === "1" ? { "data-tight": "1" } : {},
          },
        },
      })),
    ];
  },
});

/**
 * Each block of the editor shown in its own text's direction while it is written (`dir="auto"` on the view
 * only, a decoration: the document and its HTML are unchanged; `finishHtml` writes the directions the site
 * needs). An Arabic paragraph reads right-to-left in an English body, an English quote left-to-right in an
 * Arabic one, as soon as its first letter is typed.
 */
const AutoDirection = Extension.create({
  name: "autoDirection",
  addProseMirrorPlugins() {
    const directed = new Set(BLOCKS);
    const decorate = (doc: ProseMirrorNode) => {
      const decorations: Decoration[] = [];
      doc.descendants((node, pos) => {
        if (directed.has(node.type.name) && !node.attrs.dir) {
          decorations.push(Decoration.node(pos, pos + node.nodeSize, { dir: "auto" }));
        }
      });
      return DecorationSet.create(doc, decorations);
    };
    const key = new PluginKey<DecorationSet>("autoDirection");
    return [
      new Plugin<DecorationSet>({
        key,
        state: {
          init: (_config, state) => decorate(state.doc),
          apply: (tr, old) => (tr.docChanged ? decorate(tr.doc) : old),
        },
        props: { decorations: (state) => key.getState(state) },
      }),
    ];
  },
});

/**
 * Tables as the site stores them: `<table>` and its rows, without the column group and inline widths Tiptap
 * writes for resizable columns (the CSP refuses inline styles, the sanitizer removes them).
 */
const PlainTable = Table.extend({
  renderHTML({ HTMLAttributes }) {
    return ["table", HTMLAttributes, ["tbody", 0]];
  },
}).configure({ resizable: false });

/** What the editor is given by its component: the link dialog opens on Ctrl/Cmd+K. */
export interface SchemaOptions {
  onLinkShortcut?: () => void;
}

/**
 * The extensions of the editor (and of the headless round trip): the schema above, Markdown input rules
 * (`## `, `### `, `- `, `1. `, `> `, backticks; StarterKit's), keyboard shortcuts (Ctrl/Cmd+B, I, E, K,
 * Ctrl+Alt+2/3, Ctrl+Shift+7/8/B), links checked by the sanitizer's URL rule (`isAllowedUrl`), no
 * `target`/`rel`/`class` on links (the sanitizer would remove them).
 */
export function editorExtensions(options: SchemaOptions = {}): Extensions {
  return [
    StarterKit.configure({
      heading: { levels: [2, 3] },
      strike: false,
      underline: false,
      trailingNode: false,
      link: {
        openOnClick: false,
        autolink: true,
        defaultProtocol: "https",
        HTMLAttributes: { target: null, rel: null, class: null },
        isAllowedUri: (url) => isAllowedUrl(url),
      },
      codeBlock: { languageClassPrefix: null as unknown as string },
    }),
    Image.configure({ inline: true, allowBase64: false }),
    TableKit.configure({ table: false }),
    PlainTable,
    Attributes,
    AutoDirection,
    Extension.create({
      name: "linkShortcut",
      addKeyboardShortcuts() {
        return {
          "Mod-k": () => {
            options.onLinkShortcut?.();
            return options.onLinkShortcut !== undefined;
          },
        };
      },
    }),
  ];
}
