import { Link, data, href } from "react-router";
import type { NotFoundData } from "../../components/error-view.tsx";
import { useLocale, useTranslation } from "../../hooks.ts";
import { ArrowBack } from "../../components/icons.tsx";
import { MediaImage } from "../../components/media-image.tsx";
import { directionOf, formatLongDate, toLocale } from "../../i18n/i18n.ts";
import { MARK, Names, withSlot } from "../../components/names.tsx";
import { VersionNotice, versionAttributes } from "../../components/version-notice.tsx";
import { translatorOf } from "../../i18n/t.ts";
import { absoluteUrl, originFrom, pageMeta } from "../../seo.ts";
import { PreviewBanner } from "../../components/preview-banner.tsx";
import { loadPost } from "../../data/content.server.ts";
import { loadItemPage, PREVIEW_HEADERS } from "../../data/preview.server.ts";
import type { Route } from "./+types/post";

/**
 * Blog post (spec §2); an unknown slug answers 404 "Blog post not found.". A draft or scheduled post is shown
 * as a preview to a signed-in user or with a shared link, never cached (issue #16).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const page = await loadItemPage(request, "post", params.slug, (slug, reader) =>
    loadPost(slug, toLocale(params.locale), reader),
  );
  if (!page) throw data<NotFoundData>({ notFound: "blog" }, { status: 404 });
  const loaded = { post: page.item, preview: page.preview };
  return page.preview ? data(loaded, { headers: PREVIEW_HEADERS }) : loaded;
}

/** A preview's `no-store` and `noindex` reach the document response. */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export function meta(args: Route.MetaArgs) {
  if (!args.loaderData) return [];
  const { post, preview } = args.loaderData;
  const origin = originFrom(args.matches);
  const { t } = translatorOf(args.matches);
  return pageMeta(args, {
    title: post.title,
    description: post.excerpt,
    image: post.image,
    type: "article",
    locales: post.locales,
    noindex: preview,
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "BlogPosting",
      headline: post.title,
      inLanguage: post.locale,
      description: post.excerpt,
      datePublished: post.publishedDate,
      author: { "@type": "Person", name: post.authorName },
      publisher: { "@type": "Organization", name: t("site.name"), url: absoluteUrl(origin, "/") },
      mainEntityOfPage: absoluteUrl(origin, args.location.pathname),
      ...(post.image ? { image: absoluteUrl(origin, post.image) } : {}),
    },
  });
}

export default function PostPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { post, preview } = loaderData;
  const version = versionAttributes(post.locale, locale);
  return (
    <article className="mx-auto max-w-3xl pt-10 pb-12">
      {preview && <PreviewBanner />}
      <Link
        to={href("/:locale/blog", { locale })}
        className="inline-flex items-center gap-2 text-sm text-mist hover:text-gold"
      >
        <ArrowBack />
        {t("blog.backToBlog")}
      </Link>
      <VersionNotice version={post.locale} noun="blog" />
      <div {...version}>
        <h1 className="mt-8 text-3xl leading-tight font-bold text-balance sm:text-4xl">
          <Names text={post.title} lang={post.locale} />
        </h1>
        {/* The byline is the page's sentence around the version's name: it reads in the page's order, even
            inside an English version on an Arabic page (issue #35). A preview has no publication date yet. */}
        <p className="mt-4 flex flex-wrap gap-x-4 text-sm text-mist" lang={locale} dir={directionOf(locale)}>
          <span>{withSlot(t("blog.by", { author: MARK }), <bdi lang={post.locale}>{post.authorName}</bdi>)}</span>
          {preview ? (
            <span>{t("blog.notPublished")}</span>
          ) : (
            <time dateTime={post.publishedDate}>
              {t("blog.publishedOn", { date: formatLongDate(post.publishedDate, locale) })}
            </time>
          )}
        </p>
        {post.image && (
          <MediaImage
            src={post.image}
            alt=""
            slot="postHero"
            className="mt-10 aspect-video w-full rounded-2xl object-cover"
            priority
          />
        )}
        <div className="prose-body mt-10" dangerouslySetInnerHTML={{ __html: post.contentHtml }} />
      </div>
    </article>
  );
}
