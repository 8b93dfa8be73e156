import { useTranslation } from "react-i18next";
import { Link, data, href } from "react-router";
import type { NotFoundData } from "../../components/error-view.tsx";
import { useLocale } from "../../hooks.ts";
import { formatLongDate } from "../../i18n/i18n.ts";
import { loadPost } from "../../server/content.server.ts";
import type { Route } from "./+types/post";

/** Blog post (spec §2); an unknown slug answers 404 "Blog post not found.". */
export async function loader({ params }: Route.LoaderArgs) {
  const post = await loadPost(params.slug);
  if (!post) throw data<NotFoundData>({ notFound: "post" }, { status: 404 });
  return { post };
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [];
  return [{ title: data.post.title }, { name: "description", content: data.post.excerpt }];
}

export default function PostPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { post } = loaderData;
  return (
    <article className="mx-auto max-w-3xl py-12">
      <Link to={href("/:locale/blog", { locale })} className="text-sm text-mist hover:text-gold">
        <span aria-hidden className="inline-block rtl:-scale-x-100">
          ←
        </span>{" "}
        {t("blog.backToBlog")}
      </Link>
      <h1 className="mt-8 text-4xl leading-tight font-bold" dir="auto">
        {post.title}
      </h1>
      <p className="mt-4 flex flex-wrap gap-x-4 text-sm text-mist">
        <span>{t("blog.by", { author: post.authorName })}</span>
        <span>{t("blog.publishedOn", { date: formatLongDate(post.publishedDate, locale) })}</span>
      </p>
      {post.image && (
        <img
          src={post.image}
          alt=""
          width={1600}
          height={900}
          className="mt-10 aspect-video w-full rounded-2xl object-cover"
        />
      )}
      <div className="prose-body mt-10" dir="auto" dangerouslySetInnerHTML={{ __html: post.contentHtml }} />
    </article>
  );
}
