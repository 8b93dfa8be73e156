import { Link, href } from "react-router";
import { useLocale, useTranslation } from "../hooks.ts";
import { formatLongDate } from "../i18n/i18n.ts";
import { MediaImage } from "./media-image.tsx";
import { VersionNotice, versionAttributes } from "./version-notice.tsx";
import type { PostCard as PostCardData, VentureCard as VentureCardData } from "../server/content.server.ts";

/** A venture in a grid: logo, name, short description, link to its page. */
function VentureCard({ venture, heading: Heading }: { venture: VentureCardData; heading: "h2" | "h3" }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <li
      className="group relative flex flex-col rounded-2xl border border-line bg-panel p-6 transition hover:border-gold/70"
      {...versionAttributes(venture.locale, locale)}
    >
      <div className="flex items-center gap-4">
        {venture.image ? (
          <MediaImage
            src={venture.image}
            alt={t("ventures.logoAlt", { name: venture.name })}
            slot="cardLogo"
            className="size-14 rounded-xl object-cover"
          />
        ) : (
          <span
            aria-hidden
            className="grid size-14 place-items-center rounded-xl bg-gold/15 text-xl font-bold text-gold"
          >
            {venture.name.slice(0, 1)}
          </span>
        )}
        <Heading className="text-lg font-bold" dir="auto">
          <Link
            to={href("/:locale/ventures/:slug", { locale, slug: venture.slug })}
            className="after:absolute after:inset-0"
          >
            {venture.name}
          </Link>
        </Heading>
      </div>
      <p className="mt-4 text-sm leading-relaxed text-mist" dir="auto">
        {venture.shortDescription}
      </p>
      <VersionNotice version={venture.locale} noun="ventures" className="mt-3 text-xs text-mist" />
      <span className="mt-auto pt-5 text-sm font-semibold text-gold group-hover:underline">
        {t("ventures.readMore")}
      </span>
    </li>
  );
}

/** A post in a grid: featured image, title, date, excerpt. */
function PostCard({ post }: { post: PostCardData }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <li
      className="group relative flex flex-col overflow-hidden rounded-2xl border border-line bg-panel transition hover:border-gold/70"
      {...versionAttributes(post.locale, locale)}
    >
      {post.image ? (
        <MediaImage src={post.image} alt="" slot="postCard" className="aspect-video w-full object-cover" />
      ) : (
        <div aria-hidden className="aspect-video w-full bg-gradient-to-br from-gold/25 to-transparent" />
      )}
      <div className="flex flex-1 flex-col p-6">
        <p className="text-xs text-mist">
          <time dateTime={post.publishedDate}>{formatLongDate(post.publishedDate, locale)}</time>
        </p>
        <h3 className="mt-2 text-lg font-bold leading-snug" dir="auto">
          <Link to={href("/:locale/blog/:slug", { locale, slug: post.slug })} className="after:absolute after:inset-0">
            {post.title}
          </Link>
        </h3>
        <p className="mt-3 text-sm leading-relaxed text-mist" dir="auto">
          {post.excerpt}
        </p>
        <VersionNotice version={post.locale} noun="blog" className="mt-3 text-xs text-mist" />
        <span className="mt-auto pt-5 text-sm font-semibold text-gold group-hover:underline">{t("blog.readMore")}</span>
      </div>
    </li>
  );
}

/** A responsive grid of cards. */
function CardGrid({ children }: { children: React.ReactNode }) {
  return <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">{children}</ul>;
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
