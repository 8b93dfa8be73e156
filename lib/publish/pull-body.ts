/**
 * The text `studio pull` writes for a document (issue #30 items 4, 5): which file, in which format, and the
 * body's images as local files.
 *
 * - The body's images (`/media/<id>`, or a bucket view URL) become paths relative to the file: the local image
 *   the file already used for those bytes, else one in `images/` (downloaded when missing).
 * - When the body shows the same as the local file's (`sameBodyHtml`), only the front matter is rewritten:
 *   the body's bytes stay as they are.
 * - Otherwise a Markdown file stays Markdown when the stored HTML converts to Markdown and back to the same
 *   HTML (`markdownFor`); when not, it is written as HTML (`x.md` → `x.html`) and `note` says why. An HTML file
 *   (or a new item) is written as formatted HTML, as before.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Models } from "node-appwrite";
import { IMAGES_BUCKET_ID } from "../../model/content.ts";
import { imageStem, type ContentKind } from "../../model/model.ts";
import { parseFileViewUrl, type AdminServices } from "../appwrite/client.ts";
import { bodyHtml } from "../content/body-html.ts";
import { imageSources, replaceImageSources } from "../content/body-images.ts";
import { formattedOrAsIs } from "../content/format.ts";
import { parseFrontMatter } from "../content/front-matter.ts";
import type { ContentItem } from "../content/read.ts";
import { localeOfFile, versionFile } from "../content/versions.ts";
import { serializeContentFile, serializeFrontMatter } from "../content/write.ts";
import { normalizeBody } from "../html/body.ts";
import { markdownToHtml } from "../html/markdown.ts";
import { markdownFor, sameBodyHtml } from "../html/to-markdown.ts";
import { imageFileId, mediaPath } from "./documents.ts";
import type { LockEntry } from "./lock.ts";
import { localFileRef, type PulledImages } from "./pull-images.ts";
import { sha256Hex } from "../content/body-digest.ts";

/** What to write for one pulled document. */
export interface PulledFile {
  /** The file (relative to the content folder) to write. */
  file: string;
  format: ContentItem["format"];
  /** Its whole text. */
  text: string;
  /** Why a Markdown file is written as HTML (`posts/x.md: the body has a table Markdown can't express; …`). */
  note?: string;
  /**
   * The stored media URL of each local path the body now uses that is not the content-addressed one of its
   * bytes (an image the admin uploaded): the lock records them by the bytes' SHA-256 (`LockEntry.bodyImages`).
   */
  storedUrls: Map<string, string>;
}

/** The images-bucket file id an `<img src>` of a stored body names, or null (an external image). */
function bucketFileOf(src: string): string | null {
  const media = /^\/media\/([^/?#]+)$/.exec(src);
  if (media) {
    try {
      return decodeURIComponent(media[1]!);
    } catch {
      return null;
    }
  }
  const view = parseFileViewUrl(src);
  return view?.bucketId === IMAGES_BUCKET_ID ? view.fileId : null;
}

/**
 * The stored body `html` with its bucket images as local paths: the `src` the local file `local` writes for
 * those bytes (or for the file the lock `entry` recorded for them), else `../images/<name>` (`localFileRef`).
 * @returns the HTML, and each local path → the stored URL it replaced.
 */
async function localizedBody(
  services: AdminServices,
  contentDir: string,
  stem: string,
  html: string,
  local: ContentItem | null,
  entry: LockEntry | undefined,
  images: PulledImages,
): Promise<{ html: string; storedUrls: Map<string, string> }> {
  const known = new Map<string, string>();
  for (const b of local?.bodyImages ?? []) {
    known.set(imageFileId(b.image.bytes), b.src);
    const recorded = entry?.bodyImages?.[sha256Hex(b.image.bytes)];
    const recordedId = recorded ? bucketFileOf(recorded) : null;
    if (recordedId) known.set(recordedId, b.src);
  }
  const refs = new Map<string, string>();
  const storedUrls = new Map<string, string>();
  for (const src of imageSources(html)) {
    const fileId = bucketFileOf(src);
    if (!fileId) continue;
    const ref =
      known.get(fileId) ??
      (await localFileRef(services, contentDir, `${stem}-${fileId.replace(/^img-/, "").slice(0, 8)}`, fileId, images));
    refs.set(src, ref);
    storedUrls.set(ref, mediaPath(fileId));
  }
  return { html: replaceImageSources(html, (src) => refs.get(src)), storedUrls };
}

/**
 * The file `studio pull` writes for `doc` (see the module comment).
 * @param target the file a new item gets (`posts/<slug>.html`, with its locale suffix).
 * @param frontMatter what the file's front matter holds (`frontMatterOf` and the kept local keys).
 * @throws {HtmlBoundsError} when the stored body breaks a bound; what Appwrite throws reading an image.
 */
export async function pulledFile(
  services: AdminServices,
  args: {
    contentDir: string;
    kind: ContentKind;
    slug: string;
    doc: Models.DefaultRow;
    bodyField: string;
    frontMatter: Record<string, unknown>;
    local: ContentItem | null;
    entry: LockEntry | undefined;
    target: string;
    /** An invalid file of this version that a forced pull replaces (its name and format are kept). */
    replacing?: string;
    images: PulledImages;
  },
): Promise<PulledFile> {
  const { kind, local } = args;
  const stored = normalizeBody(String(args.doc[args.bodyField] ?? ""));
  const stem = imageStem(kind, args.slug);
  const { html, storedUrls } = await localizedBody(
    services,
    args.contentDir,
    stem,
    stored,
    local,
    args.entry,
    args.images,
  );
  if (local && sameBodyHtml(bodyHtml(local), html)) {
    // Only the front matter changed: the body is kept byte for byte.
    const text = await readFile(path.join(args.contentDir, local.file), "utf8");
    const body = parseFrontMatter(text).content;
    return {
      file: local.file,
      format: local.format,
      text: serializeFrontMatter(kind, args.frontMatter) + body,
      storedUrls,
    };
  }
  // The file this one replaces: the valid local version, or (pulled with --force) an invalid file of that name.
  const existing = local?.file ?? args.replacing;
  if (existing && /\.(md|markdown)$/i.test(existing)) {
    const converted = markdownFor(html);
    if ("markdown" in converted) {
      const formatted = await formattedOrAsIs("markdown", converted.markdown);
      const markdown = sameBodyHtml(markdownToHtml(formatted), html) ? formatted : converted.markdown;
      return {
        file: existing,
        format: "markdown",
        text: serializeContentFile(kind, args.frontMatter, markdown),
        storedUrls,
      };
    }
    const file = versionFile(existing, localeOfFile(existing).locale, ".html");
    const text = serializeContentFile(kind, args.frontMatter, await formattedOrAsIs("html", html));
    return { file, format: "html", text, storedUrls, note: `${existing}: ${converted.reason}; written as HTML` };
  }
  const file = existing ?? args.target;
  return {
    file,
    format: "html",
    text: serializeContentFile(kind, args.frontMatter, await formattedOrAsIs("html", html)),
    storedUrls,
  };
}

/**
 * What the lock records of a pulled item's body images (`LockEntry.bodyImages`): SHA-256 of each local image's
 * bytes → the media URL the stored body has for it (`storedUrls`, by the `src` the file now writes).
 */
export function bodyImagesRecord(item: ContentItem, storedUrls: ReadonlyMap<string, string>): Record<string, string> {
  return Object.fromEntries(
    (item.bodyImages ?? []).flatMap((b) => {
      const url = storedUrls.get(b.src);
      return url ? [[sha256Hex(b.image.bytes), url]] : [];
    }),
  );
}
