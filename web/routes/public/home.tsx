import { Link, href } from "react-router";
import { PostGrid, VentureGrid } from "../../components/cards.tsx";
import { FadeIn } from "../../components/fade-in.tsx";
import { ArrowForward } from "../../components/icons.tsx";
import { ButtonLink, Eyebrow, InfoCard } from "../../components/ui.tsx";
import { useLocale, useTranslation } from "../../hooks.ts";
import { messagesFor } from "../../i18n/catalog.server.ts";
import { toLocale } from "../../i18n/i18n.ts";
import { translatorOf } from "../../i18n/t.ts";
import { absoluteUrl, originFrom, pageMeta } from "../../seo.ts";
import { loadPostCards, loadVentureCards } from "../../data/content.server.ts";
import { SITE } from "../../site.ts";
import type { Route } from "./+types/home";

/** Home shows the latest 3 ventures and 3 posts (spec §2, §9), and its texts. */
export async function loader({ params }: Route.LoaderArgs) {
  const locale = toLocale(params.locale);
  const [ventures, posts] = await Promise.all([loadVentureCards(locale, 3), loadPostCards(locale, 3)]);
  return { ventures, posts, messages: messagesFor(toLocale(params.locale), ["home"]) };
}

export function meta(args: Route.MetaArgs) {
  const locale = toLocale(args.params.locale);
  const { t } = translatorOf(args.matches);
  const origin = originFrom(args.matches);
  return pageMeta(args, {
    title: `${t("site.name")} | ${t("site.tagline")}`,
    full: true,
    description: t("site.description"),
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Organization",
      name: t("site.name"),
      legalName: SITE.legalName,
      url: absoluteUrl(origin, `/${locale}`),
      logo: absoluteUrl(origin, "/favicon.svg"),
      description: t("site.description"),
      slogan: t("site.tagline"),
      email: SITE.supportEmail,
      address: {
        "@type": "PostalAddress",
        streetAddress: SITE.office.street,
        addressLocality: SITE.office.locality,
        addressRegion: SITE.office.region,
        postalCode: SITE.office.postalCode,
        addressCountry: SITE.office.country,
      },
      sameAs: Object.values(SITE.social),
    },
  });
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const why = [1, 2, 3] as const;
  return (
    <>
      <section className="relative isolate py-20 sm:py-28">
        <div
          aria-hidden
          className="pointer-events-none absolute -top-32 end-0 -z-10 h-[32rem] w-[32rem] max-w-full bg-radial-[closest-side] from-gold/20 from-20% to-transparent"
        />
        <Eyebrow>{t("home.heroEyebrow")}</Eyebrow>
        <h1 className="mt-5 max-w-3xl text-4xl leading-tight font-bold text-balance sm:text-6xl">
          {t("home.heroTitle")}
        </h1>
        <p className="mt-6 max-w-2xl text-lg leading-relaxed text-mist">{t("home.heroText")}</p>
        <div className="mt-10 flex flex-wrap gap-4">
          <ButtonLink to={href("/:locale/ventures", { locale })} arrow>
            {t("home.heroPrimary")}
          </ButtonLink>
          <ButtonLink to={href("/:locale/community", { locale })} variant="ghost">
            {t("home.heroSecondary")}
          </ButtonLink>
        </div>
        <p className="mt-14 text-sm font-semibold tracking-wide text-gold-soft">{t("site.tagline")}</p>
      </section>

      <section aria-labelledby="why" className="py-12">
        <FadeIn>
          <h2 id="why" className="text-2xl font-bold sm:text-3xl">
            {t("home.whyTitle")}
          </h2>
          <ul className="mt-8 grid gap-6 md:grid-cols-3">
            {why.map((n) => (
              <InfoCard
                key={n}
                title={t(`home.why${n}Title`)}
                text={t(`home.why${n}Text`)}
                badge={<span className="mb-4 text-3xl font-bold text-gold/75">0{n}</span>}
              />
            ))}
          </ul>
        </FadeIn>
      </section>

      <FadeIn className="grid gap-6 py-12 md:grid-cols-2">
        <IntroPanel
          title={t("home.studioTitle")}
          text={t("home.studioText")}
          link={t("home.studioLink")}
          to={href("/:locale/services", { locale })}
          highlight
        />
        <IntroPanel
          title={t("home.communityTitle")}
          text={t("home.communityText")}
          link={t("home.communityLink")}
          to={href("/:locale/community", { locale })}
        />
      </FadeIn>

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

/** One of the two offerings (studio, community) with a link to its page. */
function IntroPanel(props: { title: string; text: string; link: string; to: string; highlight?: boolean }) {
  return (
    <section
      className={`flex flex-col rounded-3xl p-8 sm:p-10 ${props.highlight ? "border border-gold/30 bg-gradient-to-br from-gold/20 via-panel to-panel" : "border border-line bg-panel"}`}
    >
      <h2 className="text-2xl font-bold">{props.title}</h2>
      <p className="mt-4 leading-relaxed text-mist">{props.text}</p>
      <Link
        to={props.to}
        className="mt-8 inline-flex items-center gap-2 self-start text-sm font-semibold text-gold hover:underline"
      >
        {props.link}
        <ArrowForward />
      </Link>
    </section>
  );
}

/** A home section listing the latest items, with a link to all of them. */
function LatestSection(props: { id: string; title: string; more: string; to: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={props.id} className="py-12">
      <FadeIn>
        <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
          <h2 id={props.id} className="text-2xl font-bold sm:text-3xl">
            {props.title}
          </h2>
          <Link
            to={props.to}
            className="inline-flex items-center gap-2 text-sm font-semibold text-gold hover:underline"
          >
            {props.more}
            <ArrowForward />
          </Link>
        </div>
        {props.children}
      </FadeIn>
    </section>
  );
}
