import { useTranslation } from "react-i18next";
import { PostGrid } from "../../components/cards.tsx";
import { getI18n, toLocale } from "../../i18n/i18n.ts";
import { loadPostCards } from "../../server/content.server.ts";
import type { Route } from "./+types/blog";

export async function loader() {
  return { posts: await loadPostCards() };
}

export function meta({ params }: Route.MetaArgs) {
  const { t } = getI18n(toLocale(params.locale));
  return [{ title: `${t("blog.title")} | ${t("site.name")}` }, { name: "description", content: t("blog.intro") }];
}

export default function Blog({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <section className="py-16">
      <h1 className="text-4xl font-bold">{t("blog.title")}</h1>
      <p className="mt-4 max-w-2xl text-lg text-mist">{t("blog.intro")}</p>
      <div className="mt-12">
        <PostGrid posts={loaderData.posts} />
      </div>
    </section>
  );
}
