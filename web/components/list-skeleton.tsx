import { useTranslation } from "../hooks.ts";
import { AllPostsHeading, BlogBlocks } from "./blog-parts.tsx";
import { CARD_BOX } from "./cards.tsx";
import { PageHero } from "./ui.tsx";

/** A list page by its kind's public path (`ventures`, `blog`), which names its messages. */
export type ListKind = string;

/** Number of placeholder cards while a list loads (spec §9). */
export const SKELETON_COUNT = 6;

const BAR = "rounded bg-line/60";

/**
 * Placeholder text: `widths.length` lines inside a box with the typography of the text it stands for
 * (`box`, from CARD_BOX), each line box one line-height (`1lh`) tall with a bar in its middle, so the
 * placeholder is as tall as that many lines of the real text.
 */
function Lines({ box, widths }: { box: string; widths: string[] }) {
  return (
    <div className={box}>
      {widths.map((width, i) => (
        <div key={i} className="flex h-[1lh] items-center">
          <div className={`h-[0.7em] ${width} ${BAR}`} />
        </div>
      ))}
    </div>
  );
}

/**
 * A venture card's shape (cards.tsx VentureCard): small logo beside the name, six lines (a short description
 * of about 220 characters, as in content/, at a phone's or the three-column grid's width), "read more".
 */
function VentureSkeleton() {
  return (
    <li data-skeleton-card className={`${CARD_BOX.venture} animate-pulse`}>
      <div className={CARD_BOX.ventureHead}>
        <div data-skeleton-logo className={`${CARD_BOX.ventureLogo} shrink-0 bg-line/70`} />
        <Lines box={`${CARD_BOX.ventureName} flex-1`} widths={["w-2/3"]} />
      </div>
      <Lines box={CARD_BOX.ventureText} widths={["w-full", "w-full", "w-full", "w-full", "w-full", "w-3/5"]} />
      <Lines box={CARD_BOX.readMore} widths={["w-1/3"]} />
    </li>
  );
}

/**
 * A post card's shape (cards.tsx PostCard): featured image, date, a two-line title, six lines of excerpt
 * (about 250 characters, as in content/), "read more".
 */
function PostSkeleton() {
  return (
    <li data-skeleton-card className={`${CARD_BOX.post} animate-pulse`}>
      <div className={`${CARD_BOX.postImage} bg-line/70`} />
      <div className={CARD_BOX.postBody}>
        <Lines box={CARD_BOX.postDate} widths={["w-1/3"]} />
        <Lines box={CARD_BOX.postTitle} widths={["w-full", "w-2/3"]} />
        <Lines box={CARD_BOX.postText} widths={["w-full", "w-full", "w-full", "w-full", "w-full", "w-1/2"]} />
        <Lines box={CARD_BOX.readMore} widths={["w-1/3"]} />
      </div>
    </li>
  );
}

/**
 * A grid of 6 placeholder cards announced as "Loading..." (spec §2: ventures and blog while loading), each
 * in the shape of the list's real cards (issue 18 item 6), in the same grid.
 */
export function SkeletonGrid({ kind }: { kind: ListKind }) {
  const { t } = useTranslation();
  const Card = kind === "ventures" ? VentureSkeleton : PostSkeleton;
  return (
    <div role="status" aria-live="polite">
      <span className="sr-only">{t("general.loading")}</span>
      <ul aria-hidden className={CARD_BOX.grid}>
        {Array.from({ length: SKELETON_COUNT }, (_, i) => (
          <Card key={i} />
        ))}
      </ul>
    </div>
  );
}

/**
 * The ventures or blog page as it looks while its list loads: its title and intro, what the blog shows above
 * its posts (its texts are shell messages, already here), then the skeletons.
 */
export function ListSkeleton({ kind }: { kind: ListKind }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHero eyebrow={t("site.tagline")} title={t(`${kind}.title`)} text={t(`${kind}.intro`)} />
      {kind === "blog" ? (
        <>
          <BlogBlocks />
          <div className="pt-14">
            <AllPostsHeading />
            <SkeletonGrid kind={kind} />
          </div>
        </>
      ) : (
        <SkeletonGrid kind={kind} />
      )}
    </>
  );
}
