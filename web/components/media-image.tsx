import { isMediaUrl, mediaSrcSet, type MediaWidth } from "../media.ts";

/**
 * Where an image sits in the design: the ratio of its CSS box as `width`/`height` attributes (the box is
 * reserved before the image loads: no layout shift; `object-cover` fills it), the `sizes` it is shown at in
 * CSS px, and the widths of `MEDIA_WIDTHS` worth offering for that size at 1–2.5× pixel density.
 * docs/decisions/0004-responsive-images.md says why the ratios are fixed rather than read from the files.
 */
interface ImageSlot {
  width: number;
  height: number;
  widths: readonly MediaWidth[];
  sizes: string;
}

// Column widths of `CardGrid` inside `main` (max-w-6xl = 1152px, px-5 = 20px each side, gap-6 = 24px):
// 3 columns from lg (1024px), 2 from sm (640px), 1 below.
const CARD_COLUMN =
  "(min-width: 1152px) 355px, (min-width: 1024px) calc((100vw - 88px) / 3), (min-width: 640px) calc((100vw - 64px) / 2), calc(100vw - 40px)";

export const IMAGE_SLOTS = {
  /** A venture's logo on its card: a 56 CSS px square (`size-14`). */
  cardLogo: { width: 56, height: 56, widths: [160, 320], sizes: "56px" },
  /** A venture's logo on its page: a 96 CSS px square (`size-24`). */
  ventureLogo: { width: 96, height: 96, widths: [160, 320], sizes: "96px" },
  /** A post's featured image on its card: the card's width, 16:9 (spec §7: featured images are 16:9). */
  postCard: { width: 640, height: 360, widths: [320, 480, 640, 960], sizes: CARD_COLUMN },
  /** A post's featured image on its page: the article's width (max-w-3xl = 768px), 16:9. */
  postHero: {
    width: 1600,
    height: 900,
    widths: [640, 960, 1280, 1920],
    sizes: "(min-width: 808px) 768px, calc(100vw - 40px)",
  },
} as const satisfies Record<string, ImageSlot>;

export type ImageSlotName = keyof typeof IMAGE_SLOTS;

/** The Element Timing name of a page's largest image (`priority`), which the loader waits for (decision 0018). */
export const HERO_TIMING = "hero";

/**
 * An `<img>` for `src` in one of `IMAGE_SLOTS`, always with `width` and `height`. A bucket image
 * (`/media/<fileId>`) also gets `srcset` of its width variants and `sizes`, so the browser downloads the width
 * it shows; an external http(s) image keeps its plain `src`. `priority` marks the page's largest image (LCP):
 * fetched first, never lazy, and named to Element Timing (`elementtiming="hero"`: the loader starts the web fonts
 * once it has painted, docs/decisions/0018); every other image loads lazily and decodes off the main thread.
 */
export function MediaImage({
  src,
  alt,
  slot,
  className,
  priority = false,
}: {
  src: string;
  alt: string;
  slot: ImageSlotName;
  className?: string;
  priority?: boolean;
}) {
  const { width, height, widths, sizes } = IMAGE_SLOTS[slot];
  const responsive = isMediaUrl(src) ? { srcSet: mediaSrcSet(src, widths), sizes } : {};
  const loading = priority
    ? ({ fetchPriority: "high", elementtiming: HERO_TIMING } as const)
    : ({ loading: "lazy", decoding: "async" } as const);
  return <img {...responsive} src={src} alt={alt} width={width} height={height} className={className} {...loading} />;
}
