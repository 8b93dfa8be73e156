/**
 * Images inside a body (issue #30 item 4): the `<img>` sources of a body as the site stores it (Markdown
 * rendered, HTML sanitized), which of them are local files relative to the content file, and the same body
 * with some sources replaced (push writes `/media/<id>`, pull writes the local path back).
 *
 * The HTML these functions read is sanitizer output (`lib/html/body.ts`): one serializer, attributes in double
 * quotes. Tags are found with htmlparser2's parser (no DOM built: push reads every file); only the `src` value
 * of an `<img>` is ever rewritten, every other byte is kept.
 */
import { Parser } from "htmlparser2";
import { IMAGES_BUCKET_ID } from "../../model/content.ts";

/** The site's Content-Security-Policy `img-src` (web/entry.server.tsx): what a page may load images from. */
export const SITE_IMG_SRC = "img-src 'self' data: blob: https:";

/** One `<img>` start tag of a body: where it is (`start`..`end` inclusive) and its `src`, entities decoded. */
interface ImageTag {
  start: number;
  end: number;
  src: string;
}

function imageTags(html: string): ImageTag[] {
  const tags: ImageTag[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "img" && typeof attributes.src === "string") {
          tags.push({ start: parser.startIndex, end: parser.endIndex, src: attributes.src });
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return tags;
}

/** The distinct `src` values of the `<img>` elements of `html` (entities decoded), in order of appearance. */
export function imageSources(html: string): string[] {
  if (!/<img\b/i.test(html)) return [];
  return [...new Set(imageTags(html).map((t) => t.src))];
}

/** `&`, `"`, `<` and `>` as entities: an attribute value inside double quotes. */
function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

const SRC_ATTRIBUTE = /(\ssrc\s*=\s*)(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+)/i;

/**
 * `html` with the `src` of each `<img>` for which `replace(src)` returns a string set to that string (as a
 * double-quoted, escaped attribute); every other byte unchanged.
 */
export function replaceImageSources(html: string, replace: (src: string) => string | undefined): string {
  if (!/<img\b/i.test(html)) return html;
  let out = "";
  let at = 0;
  for (const tag of imageTags(html)) {
    const next = replace(tag.src);
    if (next === undefined || next === tag.src) continue;
    const text = html.slice(tag.start, tag.end + 1);
    out +=
      html.slice(at, tag.start) + text.replace(SRC_ATTRIBUTE, (_, name: string) => `${name}"${escapeAttribute(next)}"`);
    at = tag.end + 1;
  }
  return out + html.slice(at);
}

/**
 * What an image source of a body is: `local` (a file path relative to the content file, percent-escapes
 * decoded, as `marked` encodes spaces), `https` (kept as it is), `insecure` (an `http:` URL, which the site's
 * CSP blocks), or `site` (a path on the site itself, such as `/media/<id>`, kept as it is).
 */
export function imageSourceKind(
  src: string,
): { kind: "local"; path: string } | { kind: "https" | "insecure" | "site" } {
  if (/^https:\/\//i.test(src)) return { kind: "https" };
  if (/^http:\/\//i.test(src)) return { kind: "insecure" };
  if (/^[/\\#?]/.test(src) || /^[a-z][a-z0-9+.-]*:/i.test(src)) return { kind: "site" };
  let path = src.replace(/[?#].*$/, "");
  try {
    path = decodeURI(path);
  } catch {
    // A stray `%`: the path as written.
  }
  return { kind: "local", path };
}

/**
 * The 1-based line of `text` (a whole content file) on which `needles` first appear at or after `from` (the
 * body's offset), or the line of `from` when none does.
 */
export function lineOf(text: string, from: number, needles: readonly string[]): number {
  const found = needles.map((n) => (n ? text.indexOf(n, from) : -1)).filter((i) => i >= 0);
  const at = found.length ? Math.min(...found) : from;
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** `/media/<fileId>` in a stored body (the site's media route), and Appwrite file view URLs of any bucket. */
const MEDIA_REFERENCE = /\/media\/([A-Za-z0-9][A-Za-z0-9._%-]{0,107})(?=[?#"'\s<>]|&quot;|&amp;|$)/g;
const VIEW_REFERENCE = /\/storage\/buckets\/([^/?#"'\s]+)\/files\/([^/?#"'\s]+)\/view/g;

/**
 * The ids of the images-bucket files a stored text (a body) references: as `/media/<fileId>` (what push and
 * the admin write into bodies) or as an Appwrite view URL of bucket `bucketId` (default the images bucket).
 */
export function referencedImageIds(text: string, bucketId: string = IMAGES_BUCKET_ID): Set<string> {
  const ids = new Set<string>();
  if (!text.includes("/media/") && !text.includes("/storage/buckets/")) return ids;
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  for (const match of text.matchAll(MEDIA_REFERENCE)) ids.add(decode(match[1]!));
  for (const match of text.matchAll(VIEW_REFERENCE)) if (decode(match[1]!) === bucketId) ids.add(decode(match[2]!));
  return ids;
}
