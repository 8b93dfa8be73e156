/**
 * Inline images of a body rendered like featured images (issue #30 item 3): each `<img src="/media/<fileId>">`
 * of a sanitized body gets `srcset` of its width variants and `sizes` (the browser downloads the width it
 * shows), `width` and `height` from the image's stored dimensions (the box is reserved before it loads: no
 * layout shift), and every image after the body's first `loading="lazy"` and `decoding="async"` (the first
 * may be above the fold). A render-time transform: what the sanitizer stores is unchanged, and every value
 * written here is built from the file id (`MEDIA_FILE_ID`), `MEDIA_WIDTHS` and integers, never from the body's
 * text (docs/security.md, issue #30 rows). Plain string work on DOMPurify's output, no DOM.
 */
import { MEDIA_WIDTHS, type MediaWidth } from "./media.ts";

/** An image's size in pixels. */
export interface ImageSize {
  width: number;
  height: number;
}

/**
 * `sizes` of an inline image `width` CSS px wide at most in the body column (`max-w-3xl`, 768 px, with the
 * page's 20 px padding each side below 808 px): its own width when narrower than the column.
 */
export function inlineSizes(width: number | null): string {
  const column = "(min-width: 808px) 768px, calc(100vw - 40px)";
  if (width === null || width >= 768) return column;
  return `(min-width: ${width + 40}px) ${width}px, calc(100vw - 40px)`;
}

/** The `srcset` of `/media/<id>` at its natural width `natural` (null: unknown): smaller variants, then the original. */
export function inlineSrcSet(id: string, natural: number | null): string {
  const src = `/media/${id}`;
  const widths: readonly MediaWidth[] = natural === null ? MEDIA_WIDTHS : MEDIA_WIDTHS.filter((w) => w < natural);
  const entries = widths.map((w) => `${src}?w=${w} ${w}w`);
  if (natural !== null) entries.push(`${src} ${natural}w`);
  return entries.join(", ");
}

const IMG = /<img((?:\s+[a-zA-Z-]+(?:="[^"]*")?)*)\s*\/?>/gi;
const ATTR = /\s([a-zA-Z-]+)(?:="([^"]*)")?/g;
const MEDIA_SRC = /^\/media\/([A-Za-z0-9][A-Za-z0-9._-]{0,35})$/;
const DIMENSION = /^[1-9]\d{0,4}$/;
/** Attributes this transform writes; the body's own values of them are replaced. */
const WRITTEN = new Set(["srcset", "sizes", "loading", "decoding", "width", "height"]);

/**
 * `html` (sanitized) with its inline images made responsive as the module says. A bucket image's size is the
 * body's own `width` and `height` (both whole numbers), else `sizeOf(id)` when given; without either it gets
 * the `srcset` of every variant and no size. Images of other origins get only the lazy loading.
 */
export function responsiveBodyImages(
  html: string,
  sizeOf: (id: string) => ImageSize | undefined = () => undefined,
): string {
  let index = 0;
  return html.replace(IMG, (_tag, attributes: string) => {
    const attrs = new Map<string, string | undefined>();
    for (const match of attributes.matchAll(ATTR)) attrs.set(match[1]!.toLowerCase(), match[2]);
    const first = index++ === 0;
    const id = MEDIA_SRC.exec(attrs.get("src") ?? "")?.[1];
    const own =
      DIMENSION.test(attrs.get("width") ?? "") && DIMENSION.test(attrs.get("height") ?? "")
        ? { width: Number(attrs.get("width")), height: Number(attrs.get("height")) }
        : undefined;
    const size = own ?? (id === undefined ? undefined : sizeOf(id));
    const kept = [...attrs].filter(
      ([name]) => !WRITTEN.has(name) || (!size && (name === "width" || name === "height")),
    );
    const out = kept.map(([name, value]) => (value === undefined ? ` ${name}` : ` ${name}="${value}"`));
    if (id !== undefined) {
      out.push(` srcset="${inlineSrcSet(id, size?.width ?? null)}"`, ` sizes="${inlineSizes(size?.width ?? null)}"`);
    }
    if (size) out.push(` width="${size.width}" height="${size.height}"`);
    if (!first) out.push(` loading="lazy" decoding="async"`);
    return `<img${out.join("")}>`;
  });
}
