import { useTextList, useTranslation } from "../hooks.ts";

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

/** The heading over the blog's post grid: `title`, by default "All posts". */
export function AllPostsHeading({ title }: { title?: string }) {
  const { t } = useTranslation();
  return (
    <h2 id="all-posts" className="mb-8 text-2xl font-bold sm:text-3xl">
      {title ?? t("blog.allPosts")}
    </h2>
  );
}
