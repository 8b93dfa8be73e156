import { AllPostsHeading, BlogBlocks } from "../../components/blog-parts.tsx";
import { PostGrid } from "../../components/cards.tsx";
import { FadeIn } from "../../components/fade-in.tsx";
import { ListError } from "../../components/list-error.tsx";
import { PageHero } from "../../components/ui.tsx";
import { useTranslation } from "../../hooks.ts";
import { translatorOf } from "../../i18n/t.ts";
import { toLocale } from "../../i18n/i18n.ts";
import { pageMeta } from "../../seo.ts";
import { loadPostCards } from "../../server/content.server.ts";
import type { Route } from "./+types/blog";

/** Every published post, newest first (spec §2). */
export async function loader({ params }: Route.LoaderArgs) {
  return { posts: await loadPostCards(toLocale(params.locale)) };
}

export function meta(args: Route.MetaArgs) {
  const { t } = translatorOf(args.matches);
  return pageMeta(args, { title: t("blog.title"), description: t("blog.intro") });
}

export default function Blog({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <PageHero eyebrow={t("site.tagline")} title={t("blog.title")} text={t("blog.intro")} />
      <BlogBlocks />
      <section aria-labelledby="all-posts" className="pt-14">
        <FadeIn>
          <AllPostsHeading />
          <PostGrid posts={loaderData.posts} />
        </FadeIn>
      </section>
    </>
  );
}

/** A failed load shows the page's error text (spec §8 general.error). */
export function ErrorBoundary() {
  return <ListError kind="blog" />;
}
