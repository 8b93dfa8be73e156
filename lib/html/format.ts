/**
 * Formatting of bodies with Prettier (spec §2 "Format button that indents the HTML ... two spaces per
 * nesting level"; issue #7 `studio format`).
 */
import { parseDocument } from "htmlparser2";
import { format } from "prettier";

/** Prettier options shared by every body: two spaces per level. */
const COMMON = { tabWidth: 2, useTabs: false, printWidth: 100 } as const;
/** Prettier's options for an HTML body (also the formatter thread's, `format-thread.ts`). */
export const PRETTIER_HTML_OPTIONS = { ...COMMON, parser: "html" } as const;

/** Elements that hold blocks, and the block elements whose nesting in them is shown by indenting. */
export const BREAK_RULES: BreakRules = {
  containers: ["blockquote", "ul", "ol", "li", "div", "section", "article", "aside", "figure", "details"],
  blocks: "p h1 h2 h3 h4 h5 h6 ul ol li blockquote div section article aside figure figcaption pre table hr".split(" "),
};

/** The element names `breakBlockContainers` looks at. */
export interface BreakRules {
  containers: readonly string[];
  blocks: readonly string[];
}

interface Node {
  type: string;
  name?: string;
  data?: string;
  startIndex: number | null;
  endIndex: number | null;
  children?: Node[];
}

/**
 * `html` with a line break after each container's opening tag when its first child is a block, and before its
 * closing tag when its last child is one (`<blockquote><p>…</p></blockquote>` gets its `<p>` on a line of its
 * own). Prettier keeps such a break and indents the child; without it, it keeps a short container on one line.
 * Linear in the length (htmlparser2's `parse`, passed in).
 *
 * Self-contained (it reads nothing but its parameters, and declares no named inner function), so the formatter
 * thread runs its source as is (`format-thread.ts`): keep it that way.
 */
export function breakBlockContainers(html: string, parse: typeof parseDocument, rules: BreakRules): string {
  const containers = new Set(rules.containers);
  const blocks = new Set(rules.blocks);
  const inserts: number[] = [];
  const stack: Node[] = [parse(html, { withStartIndices: true, withEndIndices: true }) as unknown as Node];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const children = (node.children ?? []).filter((c) => !(c.type === "text" && !c.data?.trim()));
    if (node.type === "tag" && containers.has(node.name!) && children.length) {
      const first = children[0]!;
      const last = children[children.length - 1]!;
      if (first.type === "tag" && blocks.has(first.name!) && first.startIndex !== null) inserts.push(first.startIndex);
      if (last.type === "tag" && blocks.has(last.name!) && last.endIndex !== null) inserts.push(last.endIndex + 1);
    }
    stack.push(...(node.children ?? []));
  }
  let out = html;
  for (const at of [...new Set(inserts)].sort((a, b) => b - a)) out = out.slice(0, at) + "\n" + out.slice(at);
  return out;
}

/**
 * Indents `html` two spaces per nesting level (spec §2), a block inside a container on a line of its own.
 * Whitespace-sensitive inline content is kept as is.
 * @throws {Error} (Prettier's SyntaxError) when the HTML cannot be parsed.
 */
export async function formatHtml(html: string): Promise<string> {
  return (await format(breakBlockContainers(html, parseDocument, BREAK_RULES), PRETTIER_HTML_OPTIONS)).trim();
}

/** Normalizes Markdown (headings, lists, emphasis markers, line breaks) with Prettier. */
export async function formatMarkdown(markdown: string): Promise<string> {
  return (await format(markdown, { ...COMMON, parser: "markdown", proseWrap: "preserve" })).trim();
}
