import { Link, href } from "react-router";
import { useLocale, useTranslation } from "../hooks.ts";
import { formatLongDate } from "../i18n/i18n.ts";
import { MediaImage } from "./media-image.tsx";
import { Names } from "./names.tsx";
import { VersionNotice, versionAttributes } from "./version-notice.tsx";
import type { PostCard as PostCardData, VentureCard as VentureCardData } from "../data/content.server.ts";

/**
 * The boxes of the cards' parts, shared with their loading skeletons (list-skeleton.tsx) so a skeleton has
 * the shape of the card that replaces it (issue 18 item 6: no layout shift when the list arrives).
 */
export const CARD_BOX = {
  venture: "group relative flex flex-col rounded-2xl border border-line bg-panel p-6 transition hover:border-gold/70",
  ventureHead: "flex items-center gap-4",
  ventureLogo: "size-14 rounded-xl",
  ventureName: "text-lg font-bold",
  ventureText: "mt-4 text-sm leading-relaxed",
  post: "group relative flex flex-col overflow-hidden rounded-2xl border border-line bg-panel transition hover:border-gold/70",
  postImage: "aspect-video w-full",
  postBody: "flex flex-1 flex-col p-6",
  postDate: "text-xs",
  postTitle: "mt-2 text-lg font-bold leading-snug",
  postText: "mt-3 text-sm leading-relaxed",
  readMore: "mt-auto pt-5 text-sm font-semibold",
  grid: "grid gap-6 sm:grid-cols-2 lg:grid-cols-3",
} as const;

/** A venture in a grid: logo, name, short description, link to its page. */
function VentureCard({ venture, heading: Heading }: { venture: VentureCardData; heading: "h2" | "h3" }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <li className={CARD_BOX.venture} {...versionAttributes(venture.locale, locale)}>
      <div className={CARD_BOX.ventureHead}>
        {venture.image ? (
          <MediaImage
            src={venture.image}
            alt={t("ventures.logoAlt", { name: venture.name })}
            slot="cardLogo"
            className={`${CARD_BOX.ventureLogo} object-cover`}
          />
        ) : (
          <span
            aria-hidden
            className={`${CARD_BOX.ventureLogo} grid place-items-center bg-gold/15 text-xl font-bold text-gold`}
          >
            {venture.name.slice(0, 1)}
          </span>
        )}
        <Heading className={CARD_BOX.ventureName}>
          <Link
            to={href("/:locale/ventures/:slug", { locale, slug: venture.slug })}
            className="after:absolute after:inset-0"
          >
            <Names text={venture.name} lang={venture.locale} />
          </Link>
        </Heading>
      </div>
      <p className={`${CARD_BOX.ventureText} text-mist`}>
        <Names text={venture.shortDescription} lang={venture.locale} />
      </p>
      <VersionNotice version={venture.locale} noun="ventures" className="mt-3 text-xs text-mist" />
      <span className={`${CARD_BOX.readMore} text-gold group-hover:underline`}>{t("ventures.readMore")}</span>
    </li>
  );
}

/** A post in a grid: featured image, title, date, excerpt. */
function PostCard({ post }: { post: PostCardData }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <li className={CARD_BOX.post} {...versionAttributes(post.locale, locale)}>
      {post.image ? (
        <MediaImage src={post.image} alt="" slot="postCard" className={`${CARD_BOX.postImage} object-cover`} />
      ) : (
        <div aria-hidden className={`${CARD_BOX.postImage} bg-gradient-to-br from-gold/25 to-transparent`} />
      )}
      <div className={CARD_BOX.postBody}>
        <p className={`${CARD_BOX.postDate} text-mist`}>
          <time dateTime={post.publishedDate}>{formatLongDate(post.publishedDate, locale)}</time>
        </p>
        <h3 className={CARD_BOX.postTitle}>
          <Link to={href("/:locale/blog/:slug", { locale, slug: post.slug })} className="after:absolute after:inset-0">
            <Names text={post.title} lang={post.locale} />
          </Link>
        </h3>
        <p className={`${CARD_BOX.postText} text-mist`}>
          <Names text={post.excerpt} lang={post.locale} />
        </p>
        <VersionNotice version={post.locale} noun="blog" className="mt-3 text-xs text-mist" />
        <span className={`${CARD_BOX.readMore} text-gold group-hover:underline`}>{t("blog.readMore")}</span>
      </div>
    </li>
  );
}

/** A responsive grid of cards. */
function CardGrid({ children }: { children: React.ReactNode }) {
  return <ul className={CARD_BOX.grid}>{children}</ul>;
}

/** Venture cards in a grid, or the "none yet" text; `heading` is the cards' heading level (default h3). */
export function VentureGrid({ ventures, heading = "h3" }: { ventures: VentureCardData[]; heading?: "h2" | "h3" }) {
  const { t } = useTranslation();
  if (ventures.length === 0) return <p className="text-mist">{t("ventures.empty")}</p>;
  return (
    <CardGrid>
      {ventures.map((v) => (
        <VentureCard key={v.slug} venture={v} heading={heading} />
      ))}
    </CardGrid>
  );
}

/** Post cards in a grid, or the "none yet" text. */
export function PostGrid({ posts }: { posts: PostCardData[] }) {
  const { t } = useTranslation();
  if (posts.length === 0) return <p className="text-mist">{t("blog.empty")}</p>;
  return (
    <CardGrid>
      {posts.map((p) => (
        <PostCard key={p.slug} post={p} />
      ))}
    </CardGrid>
  );
}
