import { href } from "react-router";
import { FadeIn } from "../../components/fade-in.tsx";
import { ButtonLink, CallToAction, InfoCard, PageHero, Section } from "../../components/ui.tsx";
import { useLocale, useTextList, useTranslation } from "../../hooks.ts";
import { messagesFor } from "../../i18n/catalog.server.ts";
import { formatNumber, toLocale } from "../../i18n/i18n.ts";
import { translatorOf, whenLocaleChanges } from "../../i18n/t.ts";
import { pageMeta } from "../../seo.ts";
import type { Route } from "./+types/about";

interface Titled {
  title: string;
  text: string;
}

/** The page's texts, in its language (issue 18: messages reach the browser as data). */
export function loader({ params }: Route.LoaderArgs) {
  return { messages: messagesFor(toLocale(params.locale), ["about"]) };
}

export const shouldRevalidate = whenLocaleChanges;

export function meta(args: Route.MetaArgs) {
  const { t } = translatorOf(args.matches);
  return pageMeta(args, { title: t("about.title"), description: t("about.description") });
}

/** About (spec §2): founder profile, philosophy, experience timeline, core values, pillars, join buttons. */
export default function About() {
  const { t } = useTranslation();
  const locale = useLocale();
  const bio = useTextList<string>("about.founderBio");
  const timeline = useTextList<Titled & { period: string }>("about.timeline");
  const values = useTextList<Titled>("about.values");
  const pillars = useTextList<Titled>("about.pillars");
  const stats = [
    { value: t("about.statsAtLeast", { value: formatNumber(14, locale) }), label: t("about.statsYears") },
    {
      value: t("about.statsAtLeast", { value: formatNumber(5000, locale, { notation: "compact" }) }),
      label: t("about.statsStudents"),
    },
    { value: formatNumber(8, locale), label: t("about.statsPhases") },
  ];
  return (
    <>
      <PageHero eyebrow={t("about.eyebrow")} title={t("about.heroTitle")} text={t("about.heroText")} />

      <section aria-labelledby="founder" className="py-8">
        <FadeIn className="grid gap-10 rounded-3xl border border-line bg-panel p-6 sm:p-10 lg:grid-cols-[auto_1fr]">
          <div className="flex flex-col items-center gap-4 text-center lg:w-56">
            <div
              aria-hidden
              className="grid size-36 place-items-center rounded-full border border-gold/50 bg-gradient-to-br from-gold/40 to-ink text-4xl font-bold text-gold-soft"
            >
              {t("about.founderName")
                .split(" ")
                .map((part) => part.slice(0, 1))
                .join("")}
            </div>
            <div>
              <p className="text-xs font-semibold tracking-[0.2em] text-gold uppercase">{t("about.founderEyebrow")}</p>
              <h2 id="founder" className="mt-2 text-2xl font-bold">
                {t("about.founderName")}
              </h2>
              <p className="mt-1 text-sm text-mist">{t("about.founderRole")}</p>
            </div>
          </div>
          <div>
            {bio.map((paragraph) => (
              <p key={paragraph} className="mb-4 leading-relaxed text-mist last:mb-0">
                {paragraph}
              </p>
            ))}
            <dl className="mt-8 grid gap-4 sm:grid-cols-3">
              {stats.map((stat) => (
                <div key={stat.label} className="flex flex-col gap-1 rounded-2xl border border-line bg-ink/50 p-5">
                  <dt className="text-sm text-mist">{stat.label}</dt>
                  <dd className="order-first text-3xl font-bold text-gold">{stat.value}</dd>
                </div>
              ))}
            </dl>
          </div>
        </FadeIn>
      </section>

      <Section id="philosophy" title={t("about.philosophyTitle")}>
        <div className="grid gap-8 lg:grid-cols-[2fr_1fr] lg:items-center">
          <p className="text-lg leading-relaxed text-mist">{t("about.philosophyText")}</p>
          <blockquote className="border-s-4 border-gold ps-6 text-2xl font-bold text-gold-soft">
            {t("about.philosophyQuote")}
          </blockquote>
        </div>
      </Section>

      <Section id="timeline" title={t("about.timelineTitle")}>
        <ol className="relative ms-3 border-s border-gold/40">
          {timeline.map((item) => (
            <li key={item.period} className="relative ps-8 pb-10 last:pb-0">
              <span
                aria-hidden
                className="absolute -start-[7px] top-1.5 size-3.5 rounded-full border-2 border-gold bg-ink"
              />
              <p className="text-sm font-semibold text-gold">{item.period}</p>
              <h3 className="mt-1 text-lg font-bold">{item.title}</h3>
              <p className="mt-2 max-w-2xl leading-relaxed text-mist">{item.text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section id="values" title={t("about.valuesTitle")}>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {values.map((value) => (
            <InfoCard key={value.title} title={value.title} text={value.text} />
          ))}
        </ul>
      </Section>

      <Section id="pillars" title={t("about.pillarsTitle")} intro={t("about.pillarsIntro")}>
        <ol className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {pillars.map((pillar, i) => (
            <li key={pillar.title} className="rounded-2xl bg-gradient-to-b from-gold/15 to-panel p-6">
              <span className="text-4xl font-bold text-gold/75">{formatNumber(i + 1, locale)}</span>
              <h3 className="mt-3 text-xl font-bold">{pillar.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-mist">{pillar.text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <CallToAction id="join" title={t("about.joinTitle")} text={t("about.joinText")}>
        <ButtonLink to={href("/:locale/services", { locale })} variant="ghost">
          {t("about.joinServices")}
        </ButtonLink>
        <ButtonLink to={href("/:locale/community", { locale })} arrow>
          {t("about.joinCommunity")}
        </ButtonLink>
        <ButtonLink to={href("/:locale/contact", { locale })} variant="ghost">
          {t("about.joinContact")}
        </ButtonLink>
      </CallToAction>
    </>
  );
}
