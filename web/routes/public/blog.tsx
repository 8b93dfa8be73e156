import { data, redirect } from "react-router";
import { ALL_PARAM, AllPostsHeading, BlogBlocks } from "../../components/blog-parts.tsx";
import { PostGrid } from "../../components/cards.tsx";
import type { NotFoundData } from "../../components/error-view.tsx";
import { FadeIn } from "../../components/fade-in.tsx";
import { ListError } from "../../components/list-error.tsx";
import { Pagination, pageHref } from "../../components/pagination.tsx";
import { PageHero } from "../../components/ui.tsx";
import { useLocale, useTranslation } from "../../hooks.ts";
import { formatNumber, toLocale, type Locale } from "../../i18n/i18n.ts";
import { translatorOf, type Translator } from "../../i18n/t.ts";
import { pageMeta } from "../../seo.ts";
import { loadPostPage } from "../../data/content.server.ts";
import type { Route } from "./+types/blog";

/**
 * The page number in `?page=`: 1 when absent; null for anything but a plain decimal 2 or more (`1`, `01`,
 * `0`, `-3`, `x`, a repeated parameter), which the loader redirects to the list's first page.
 */
export function requestedPage(url: URL): number | null {
  const values = url.searchParams.getAll("page");
  if (values.length === 0) return 1;
  if (values.length > 1 || !/^[1-9]\d{0,8}$/.test(values[0]!) || values[0] === "1") return null;
  return Number(values[0]);
}

/**
 * The published posts, newest first (spec §2), a page at a time (issue #18 item 3): `?page=N`, page 1 at the
 * bare URL. By default those written in the page's language (issue #35: an Arabic reader's pages hold Arabic
 * posts); with `?all=1` (a link, so it works without JavaScript) every post, in the page's language when it
 * has it. A malformed or `1` page parameter redirects (301) to the bare URL, so old or hand-typed links
 * still land on the list and crawlers learn its one canonical address; a page past the last is 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const page = requestedPage(url);
  if (page === null) throw redirect(url.pathname, 301);
  const all = url.searchParams.get("all") === "1";
  const found = await loadPostPage(toLocale(params.locale), page, all);
  if (!found) throw data<NotFoundData>({ notFound: "page" }, { status: 404 });
  return { ...found, all };
}

export function meta(args: Route.MetaArgs) {
  const { t } = translatorOf(args.matches);
  const locale = toLocale(args.params.locale);
  const { page = 1, pages = 1, all = false } = args.loaderData ?? {};
  const path = args.location.pathname;
  const query = all ? ALL_PARAM : "";
  return pageMeta(args, {
    title: pageTitle(t, page, locale),
    description: t("blog.intro"),
    // The switched-on list repeats the default one's posts: not indexed (the posts are, by the sitemap).
    noindex: all,
    page: {
      search: pageHref("", page, query),
      prev: page > 1 ? pageHref(path, page - 1, query) : undefined,
      next: page < pages ? pageHref(path, page + 1, query) : undefined,
    },
  });
}

/** "Insights", or from page 2 "Insights, page 2" (in the page's digits). */
function pageTitle(t: Translator["t"], page: number, locale: Locale) {
  return page > 1
    ? t("blog.pagination.title", { title: t("blog.title"), page: formatNumber(page, locale) })
    : t("blog.title");
}

/**
 * Page 1 opens with the blog's hero and its three blocks; from page 2 on only the list, under the page's
 * title (issue #35). Over the posts, the switch to and from the posts written only in the other language.
 */
export default function Blog({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { posts, page, pages, all } = loaderData;
  const path = `/${locale}/blog`;
  return (
    <>
      {page === 1 ? (
        <>
          <PageHero eyebrow={t("site.tagline")} title={t("blog.title")} text={t("blog.intro")} />
          <BlogBlocks />
        </>
      ) : (
        <h1 className="pt-14 text-3xl font-bold sm:text-4xl">{pageTitle(t, page, locale)}</h1>
      )}
      <section aria-labelledby="all-posts" className={page === 1 ? "pt-14" : "pt-8"}>
        <FadeIn>
          <AllPostsHeading all={all} />
          <PostGrid posts={posts} />
          <Pagination path={path} page={page} pages={pages} query={all ? ALL_PARAM : ""} />
        </FadeIn>
      </section>
    </>
  );
}

/** A failed load shows the page's error text (spec §8 general.error); a page past the last, the 404 page. */
export function ErrorBoundary() {
  return <ListError kind="blog" />;
}
