import { data, redirect } from "react-router";
import { AllPostsHeading, BlogBlocks } from "../../components/blog-parts.tsx";
import { PostGrid } from "../../components/cards.tsx";
import type { NotFoundData } from "../../components/error-view.tsx";
import { FadeIn } from "../../components/fade-in.tsx";
import { ListError } from "../../components/list-error.tsx";
import { Pagination, pageHref } from "../../components/pagination.tsx";
import { PageHero } from "../../components/ui.tsx";
import { useTranslation } from "../../hooks.ts";
import { formatNumber, toLocale } from "../../i18n/i18n.ts";
import { translatorOf } from "../../i18n/t.ts";
import { pageMeta } from "../../seo.ts";
import { loadPostPage } from "../../server/content.server.ts";
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
 * Every published post, newest first (spec §2), a page at a time (issue #18 item 3): `?page=N`, page 1 at the
 * bare URL. A malformed or `1` page parameter redirects (301) to the bare URL, so old or hand-typed links
 * still land on the list and crawlers learn its one canonical address; a page past the last is 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const page = requestedPage(url);
  if (page === null) throw redirect(url.pathname, 301);
  const found = await loadPostPage(toLocale(params.locale), page);
  if (!found) throw data<NotFoundData>({ notFound: "page" }, { status: 404 });
  return found;
}

export function meta(args: Route.MetaArgs) {
  const { t } = translatorOf(args.matches);
  const locale = toLocale(args.params.locale);
  const { page = 1, pages = 1 } = args.loaderData ?? {};
  const path = args.location.pathname;
  const title =
    page > 1
      ? t("blog.pagination.title", { title: t("blog.title"), page: formatNumber(page, locale) })
      : t("blog.title");
  return pageMeta(args, {
    title,
    description: t("blog.intro"),
    page: {
      search: page > 1 ? `?page=${page}` : "",
      prev: page > 1 ? pageHref(path, page - 1) : undefined,
      next: page < pages ? pageHref(path, page + 1) : undefined,
    },
  });
}

export default function Blog({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { posts, page, pages } = loaderData;
  return (
    <>
      <PageHero eyebrow={t("site.tagline")} title={t("blog.title")} text={t("blog.intro")} />
      <BlogBlocks />
      <section aria-labelledby="all-posts" className="pt-14">
        <FadeIn>
          <AllPostsHeading />
          <PostGrid posts={posts} />
          <Pagination path={`/${params.locale}/blog`} page={page} pages={pages} />
        </FadeIn>
      </section>
    </>
  );
}

/** A failed load shows the page's error text (spec §8 general.error); a page past the last, the 404 page. */
export function ErrorBoundary() {
  return <ListError kind="blog" />;
}
