import { Link } from "react-router";
import { useLocale, useTextList, useTranslation } from "../hooks.ts";
import { otherLocale } from "../i18n/i18n.ts";
import { pageHref } from "./pagination.tsx";

/**
 * The blog page's parts above its posts (spec §2), shared by the page and its loading skeleton
 * (list-skeleton.tsx) so that the skeleton has the page's shape: the three numbered blocks, and the
 * "All posts" heading (`id` all-posts, which the posts' section is labelled by).
 */
export function BlogBlocks() {
  const blocks = useTextList<{ title: string; text: string }>("blog.blocks");
  return (
    <ul className="grid gap-4 md:grid-cols-3">
      {blocks.map((block, i) => (
        <li key={block.title} className="border-s-2 border-gold/60 ps-5">
          <p className="text-xs font-semibold text-gold">0{i + 1}</p>
          <h2 className="mt-1 font-bold">{block.title}</h2>
          <p className="mt-2 text-sm leading-relaxed text-mist">{block.text}</p>
        </li>
      ))}
    </ul>
  );
}

/** The blog list's switch that adds the posts written only in the other language (issue #35): `?all=1`. */
export const ALL_PARAM = "all=1";

/**
 * The heading over the blog's post grid and, under it, the switch (a link, so it works without JavaScript)
 * to and from the posts written only in the other language (issue #35): "Posts in Arabic" and "Also show
 * posts available in English only" by default; with `all`, "All posts" and the way back.
 */
export function AllPostsHeading({ all = false }: { all?: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const path = `/${locale}/blog`;
  const other = otherLocale(locale);
  return (
    <>
      <h2 id="all-posts" className="mb-3 text-2xl font-bold sm:text-3xl">
        {all ? t("blog.allPosts") : t(`blog.postsIn.${locale}`)}
      </h2>
      <p className="mb-8 text-sm">
        <Link
          to={all ? path : pageHref(path, 1, ALL_PARAM)}
          className="font-semibold text-gold underline-offset-4 hover:underline"
        >
          {t(all ? `blog.others.hide.${other}` : `blog.others.show.${other}`)}
        </Link>
      </p>
    </>
  );
}
