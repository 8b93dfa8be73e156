import { PostGrid } from "../../components/cards.tsx";
import { FadeIn } from "../../components/fade-in.tsx";
import { ListError } from "../../components/list-error.tsx";
import { PageHero } from "../../components/ui.tsx";
import { useTextList, useTranslation } from "../../hooks.ts";
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
  const blocks = useTextList<{ title: string; text: string }>("blog.blocks");
  return (
    <>
      <PageHero eyebrow={t("site.tagline")} title={t("blog.title")} text={t("blog.intro")} />
      <ul className="grid gap-4 md:grid-cols-3">
        {blocks.map((block, i) => (
          <li key={block.title} className="border-s-2 border-gold/60 ps-5">
            <p className="text-xs font-semibold text-gold">0{i + 1}</p>
            <h2 className="mt-1 font-bold">{block.title}</h2>
            <p className="mt-2 text-sm leading-relaxed text-mist">{block.text}</p>
          </li>
        ))}
      </ul>
      <section aria-labelledby="all-posts" className="pt-14">
        <FadeIn>
          <h2 id="all-posts" className="mb-8 text-2xl font-bold sm:text-3xl">
            {t("blog.allPosts")}
          </h2>
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
