/**
 * The local images a content file's body references (issue #30 item 4): Markdown `![alt](../images/x.jpg)`
 * and HTML `<img src="../images/x.jpg">`, relative to the content file. Each is read and checked as the
 * featured image is (`readImage`: type by signature, size, inside the content folder, SECURITY C30, C31, C63);
 * one that is missing, not an image or outside the folder is an issue naming the line and the path.
 */
import path from "node:path";
import { normalizeBody } from "../html/body.ts";
import { markdownToHtml } from "../html/markdown.ts";
import { imageSourceKind, imageSources, lineOf, SITE_IMG_SRC } from "./body-images.ts";
import type { BodyImage, ContentIssue, ContentItem } from "./item.ts";
import { readImage } from "./local-image.ts";

/** Cheap test for a body that may reference an image: most do not, and are not rendered again. */
const MAY_HAVE_IMAGE = /<img\b|!\[/i;

/**
 * The images of `body` (of the file `file` at `absolutePath`, whose whole text is `text`).
 * @param root the content folder: an image must stay inside it.
 * @returns the local images (`src` as in the rendered body), and one issue (field `body`, with `line`) per
 *   source that cannot be published: a missing, oversized or non-image file, a path leading outside `root`, or
 *   an `http:` URL (the site's CSP only loads `https:` images).
 * @throws {HtmlBoundsError} when the body breaks a bound (callers check the bounds first).
 */
export async function readBodyImages(
  text: string,
  body: string,
  format: ContentItem["format"],
  absolutePath: string,
  file: string,
  root: string,
): Promise<{ images: BodyImage[]; issues: ContentIssue[] }> {
  const images: BodyImage[] = [];
  const issues: ContentIssue[] = [];
  if (!MAY_HAVE_IMAGE.test(body)) return { images, issues };
  const html = format === "markdown" ? markdownToHtml(body) : normalizeBody(body);
  const bodyStart = Math.max(0, text.lastIndexOf(body));
  for (const src of imageSources(html)) {
    const source = imageSourceKind(src);
    if (source.kind === "https" || source.kind === "site") continue;
    const line = lineOf(text, bodyStart, source.kind === "local" ? [source.path, src] : [src]);
    const issue = (message: string) => issues.push({ file, field: "body", line, message: `line ${line}: ${message}` });
    if (source.kind === "insecure") {
      issue(
        `the image "${src}" is an http: URL, which the site's Content-Security-Policy (${SITE_IMG_SRC}) blocks: ` +
          `write its https:// address, or copy the file to images/ and write ../images/<name>`,
      );
      continue;
    }
    if (source.kind !== "local") continue;
    const checked = await readImage(path.dirname(absolutePath), source.path, root);
    if (typeof checked === "string") issue(`image ${checked}`);
    else if ("bytes" in checked) images.push({ src, image: checked });
  }
  return { images, issues };
}
