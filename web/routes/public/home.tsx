import { useTranslation } from "react-i18next";
import { Link, href } from "react-router";
import { PostGrid, VentureGrid } from "../../components/cards.tsx";
import { useLocale } from "../../hooks.ts";
import { getI18n, toLocale } from "../../i18n/i18n.ts";
import { loadPostCards, loadVentureCards } from "../../server/content.server.ts";
import type { Route } from "./+types/home";

/** Home shows the latest 3 ventures and 3 posts (spec §2, §9). */
export async function loader() {
  const [ventures, posts] = await Promise.all([loadVentureCards(3), loadPostCards(3)]);
  return { ventures, posts };
}

export function meta({ params }: Route.MetaArgs) {
  const { t } = getI18n(toLocale(params.locale));
  return [
    { title: `${t("site.name")} | ${t("site.tagline")}` },
    { name: "description", content: t("site.description") },
  ];
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const why = [1, 2, 3] as const;
  return (
    <>
      <section className="py-20 sm:py-28">
        <p className="text-sm font-semibold tracking-widest text-gold uppercase">{t("home.heroEyebrow")}</p>
        <h1 className="mt-4 max-w-3xl text-4xl leading-tight font-bold sm:text-6xl">{t("home.heroTitle")}</h1>
        <p className="mt-6 max-w-2xl text-lg leading-relaxed text-mist">{t("home.heroText")}</p>
        <div className="mt-10 flex flex-wrap gap-4">
          <Link
            to={href("/:locale/ventures", { locale })}
            className="rounded-full bg-gold px-6 py-3 font-semibold text-ink hover:bg-gold-soft"
          >
            {t("home.heroPrimary")}
          </Link>
          <Link
            to={`/${locale}/community`}
            className="rounded-full border border-line px-6 py-3 font-semibold hover:border-gold hover:text-gold"
          >
            {t("home.heroSecondary")}
          </Link>
        </div>
      </section>

      <section aria-labelledby="why" className="py-12">
        <h2 id="why" className="text-2xl font-bold">
          {t("home.whyTitle")}
        </h2>
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {why.map((n) => (
            <li key={n} className="rounded-2xl border border-line bg-panel p-6">
              <h3 className="font-bold text-gold">{t(`home.why${n}Title`)}</h3>
              <p className="mt-3 text-sm leading-relaxed text-mist">{t(`home.why${n}Text`)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="grid gap-6 py-12 md:grid-cols-2">
        <div className="rounded-2xl bg-gradient-to-br from-gold/20 to-panel p-8">
          <h2 className="text-2xl font-bold">{t("home.studioTitle")}</h2>
          <p className="mt-4 leading-relaxed text-mist">{t("home.studioText")}</p>
        </div>
        <div className="rounded-2xl border border-line bg-panel p-8">
          <h2 className="text-2xl font-bold">{t("home.communityTitle")}</h2>
          <p className="mt-4 leading-relaxed text-mist">{t("home.communityText")}</p>
        </div>
      </section>

      <LatestSection
        id="latest-ventures"
        title={t("home.latestVentures")}
        more={t("home.allVentures")}
        to={href("/:locale/ventures", { locale })}
      >
        <VentureGrid ventures={loaderData.ventures} />
      </LatestSection>

      <LatestSection
        id="latest-posts"
        title={t("home.latestPosts")}
        more={t("home.allPosts")}
        to={href("/:locale/blog", { locale })}
      >
        <PostGrid posts={loaderData.posts} />
      </LatestSection>
    </>
  );
}

/** A home section listing the latest items, with a link to all of them. */
function LatestSection(props: { id: string; title: string; more: string; to: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={props.id} className="py-12">
      <div className="mb-8 flex items-end justify-between gap-4">
        <h2 id={props.id} className="text-2xl font-bold">
          {props.title}
        </h2>
        <Link to={props.to} className="text-sm font-semibold text-gold hover:underline">
          {props.more}
        </Link>
      </div>
      {props.children}
    </section>
  );
}
