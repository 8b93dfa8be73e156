/**
 * Formatting of bodies with Prettier (spec §2 "Format button that indents the HTML ... two spaces per
 * nesting level"; issue #7 `studio format`).
 */
import { format } from "prettier";

/** Prettier options shared by every body: two spaces per level. */
const COMMON = { tabWidth: 2, useTabs: false, printWidth: 100 } as const;

/**
 * Indents `html` two spaces per nesting level. Whitespace-sensitive inline content is kept as is.
 * @throws {Error} (Prettier's SyntaxError) when the HTML cannot be parsed.
 */
export async function formatHtml(html: string): Promise<string> {
  return (await format(html, { ...COMMON, parser: "html" })).trim();
}

/** Normalizes Markdown (headings, lists, emphasis markers, line breaks) with Prettier. */
export async function formatMarkdown(markdown: string): Promise<string> {
  return (await format(markdown, { ...COMMON, parser: "markdown", proseWrap: "preserve" })).trim();
}
