/**
 * HTML bodies as readable plain text for a terminal (`studio preview`): headings on their own lines (h2 in
 * capitals), paragraphs separated by blank lines, list items with bullets or numbers, quotes with a bar.
 */
import { JSDOM } from "jsdom";

const BLOCKS = new Set(["P", "H1", "H2", "H3", "H4", "UL", "OL", "BLOCKQUOTE", "PRE", "FIGURE", "TABLE", "HR"]);

function inline(node: Node): string {
  return (node.textContent ?? "").replace(/\s+/g, " ").trim();
}

function block(element: Element): string[] {
  switch (element.tagName) {
    case "H1":
    case "H2":
      return [inline(element).toUpperCase()];
    case "H3":
    case "H4":
      return [inline(element)];
    case "UL":
    case "OL":
      return [...element.children].map((li, i) => `${element.tagName === "OL" ? `${i + 1}.` : "•"} ${inline(li)}`);
    case "BLOCKQUOTE":
      return [`│ ${inline(element)}`];
    case "HR":
      return ["―――"];
    case "PRE":
      return (element.textContent ?? "").split("\n");
    default:
      return [inline(element)];
  }
}

/**
 * Converts `html` to plain text lines joined with newlines (blocks separated by a blank line). An image shows
 * as `[image: <alt> (<src>)]` where it stands, so a terminal preview names the file it shows (issue #30 item 4).
 */
export function htmlToText(html: string): string {
  const { document } = new JSDOM(`<body>${html}</body>`).window;
  const body = document.body;
  for (const img of body.querySelectorAll("img")) {
    const alt = img.getAttribute("alt")?.trim();
    img.replaceWith(document.createTextNode(` [image: ${alt || "no alt text"} (${img.getAttribute("src") ?? ""})] `));
  }
  const chunks: string[] = [];
  for (const node of body.childNodes) {
    if (node.nodeType === 1 && BLOCKS.has((node as Element).tagName)) chunks.push(block(node as Element).join("\n"));
    else if (inline(node)) chunks.push(inline(node));
  }
  return chunks.filter(Boolean).join("\n\n");
}
