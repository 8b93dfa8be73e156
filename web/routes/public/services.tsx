import { href, useSearchParams } from "react-router";
import { Tabs, type ApproachTab } from "../../components/tabs.tsx";
import { ButtonLink, CallToAction, InfoCard, PageHero, Section } from "../../components/ui.tsx";
import { useLocale, useTextList, useTranslation } from "../../hooks.ts";
import { messagesFor } from "../../i18n/catalog.server.ts";
import { formatNumber, toLocale } from "../../i18n/i18n.ts";
import { translatorOf, whenLocaleChanges } from "../../i18n/t.ts";
import { servicesTab } from "../../../lib/http/page-query.ts";
import { pageMeta } from "../../seo.ts";
import type { Route } from "./+types/services";

/** The six studio services in the order of spec §1. */
const CAPABILITIES = [
  "ideaStrategy",
  "productEngineering",
  "brandingMarketing",
  "growthScale",
  "sharedServices",
  "seedFunding",
] as const;

/** The page's texts, in its language (issue 18: messages reach the browser as data). */
export function loader({ params }: Route.LoaderArgs) {
  return { messages: messagesFor(toLocale(params.locale), ["services"]) };
}

export const shouldRevalidate = whenLocaleChanges;

export function meta(args: Route.MetaArgs) {
  const { t } = translatorOf(args.matches);
  return pageMeta(args, { title: t("services.title"), description: t("services.description") });
}

/** Services / model (spec §2): intro, approach tabs, the eight phases, six capabilities, calls to action. */
export default function Services() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [searchParams] = useSearchParams();
  const tabs = useTextList<ApproachTab>("services.tabs");
  const phases = useTextList<{ name: string; text: string }>("services.phases");
  return (
    <>
      <PageHero eyebrow={t("services.eyebrow")} title={t("services.heroTitle")} text={t("services.heroText")}>
        <ButtonLink to={href("/:locale/contact", { locale })} arrow>
          {t("services.ctaContact")}
        </ButtonLink>
      </PageHero>

      <Section id="approach" title={t("services.approachTitle")} intro={t("services.approachIntro")}>
        <Tabs
          tabs={tabs}
          initial={servicesTab(searchParams.get("tab"), tabs.length)}
          label={t("services.approachTitle")}
        />
      </Section>

      <Section id="process" title={t("services.processTitle")} intro={t("services.processIntro")}>
        <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {phases.map((phase, i) => (
            <li key={phase.name} className="relative rounded-2xl border border-line bg-panel p-6">
              <span className="text-3xl font-bold text-gold/75">
                {formatNumber(i + 1, locale, { minimumIntegerDigits: 2 })}
              </span>
              <h3 className="mt-3 text-lg font-bold">{phase.name}</h3>
              <p className="mt-2 text-sm leading-relaxed text-mist">{phase.text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section id="capabilities" title={t("services.capabilitiesTitle")} intro={t("services.capabilitiesIntro")}>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {CAPABILITIES.map((key) => (
            <InfoCard
              key={key}
              title={t(`services.capabilities.${key}.title`)}
              text={t(`services.capabilities.${key}.text`)}
              badge={<span aria-hidden className="mb-4 block h-1 w-10 rounded-full bg-gold" />}
            />
          ))}
        </ul>
      </Section>

      <CallToAction id="services-cta" title={t("services.ctaTitle")} text={t("services.ctaText")}>
        <ButtonLink to={href("/:locale/contact", { locale })} arrow>
          {t("services.ctaContact")}
        </ButtonLink>
        <ButtonLink to={href("/:locale/ventures", { locale })} variant="ghost">
          {t("services.ctaVentures")}
        </ButtonLink>
      </CallToAction>
    </>
  );
}
