/**
 * The worst HTML bodies of SECURITY C53, shared by `tests/timing/render-cost.test.ts` and
 * `scripts/bench/stall.ts`. Each is at most `LIMITS.html` characters (what Appwrite's column holds).
 */
import { ID, Permission, Role, type TablesDB } from "node-appwrite";
import { HTML_BOUNDS } from "../../lib/html/bounds.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL, placeholderDocument } from "../../model/model.ts";
import { LIMITS } from "../../model/limits.ts";

/** `depth` nested `<tag>` around `inner`. */
export const nest = (tag: string, depth: number, inner: string) =>
  `<${tag}>`.repeat(depth) + inner + `</${tag}>`.repeat(depth);

/** What every over-bound body carries: its text must show, its markup must not. */
export const STALL_PAYLOAD = "<script>alert(1)</script>Deep text <img src=x onerror=alert(1)>";

export const STALL_BODIES = {
  /** 3,000 nested allowed tags: ~1.7 s of blocked loop per request before C53. */
  blockquotes: nest("blockquote", 3000, STALL_PAYLOAD),
  /** 10,000 nested divs: 23 s and a stack overflow before C53. */
  divs: nest("div", 10_000, STALL_PAYLOAD),
  /** The stored field's full size, 40,000 unclosed divs. */
  full: `<p>${STALL_PAYLOAD}</p>` + "<div>".repeat((LIMITS.html - 100) / 5),
  /** The largest body within every bound: as many elements as allowed, as deep as allowed, padded to the size limit. */
  worstAccepted: (() => {
    const removed = "<span>s</span>".repeat(HTML_BOUNDS.removedElements);
    const nested = nest("blockquote", HTML_BOUNDS.depth - 1, "<em>deep</em>");
    const flat = "<p>ab</p>".repeat(HTML_BOUNDS.elements - HTML_BOUNDS.removedElements - HTML_BOUNDS.depth);
    const body = removed + nested + flat;
    return body + "z".repeat(LIMITS.html - body.length);
  })(),
  /** The admin preview of C53: 20,000 nested divs (over the size limit too). */
  preview: nest("div", 20_000, "x"),
} as const;

/**
 * Writes a public venture (`caseStudy`) or post (`content`) holding `body` straight through the Appwrite API
 * with the API key, around the product's own checks (as the console or a REST client could).
 */
export async function writeAroundProduct(
  databases: Pick<TablesDB, "createRow">,
  kind: "venture" | "post",
  slug: string,
  body: string,
): Promise<void> {
  const { collectionId, title, body: bodyField } = CONTENT_MODEL[kind];
  await databases.createRow({
    databaseId: DATABASE_ID,
    tableId: collectionId,
    rowId: ID.unique(),
    data: placeholderDocument(kind, { [title]: slug, slug, [bodyField]: body }),
    permissions: [Permission.read(Role.any())],
  });
}
