import { href } from "react-router";
import { CheckIcon } from "../../components/icons.tsx";
import { ButtonLink, CallToAction, InfoCard, PageHero, Section } from "../../components/ui.tsx";
import { useLocale, useTextList, useTranslation } from "../../hooks.ts";
import { messagesFor } from "../../i18n/catalog.server.ts";
import { formatNumber, toLocale } from "../../i18n/i18n.ts";
import { translatorOf, whenLocaleChanges } from "../../i18n/t.ts";
import { pageMeta } from "../../seo.ts";
import type { Route } from "./+types/partner";

/** Spec §9: at most 5 why points and 4 who points. */
const MAX_WHY = 5;
const MAX_WHO = 4;

/** The page's texts, in its language (issue 18: messages reach the browser as data). */
export function loader({ params }: Route.LoaderArgs) {
  return { messages: messagesFor(toLocale(params.locale), ["partner"]) };
}

export const shouldRevalidate = whenLocaleChanges;

export function meta(args: Route.MetaArgs) {
  const { t } = translatorOf(args.matches);
  return pageMeta(args, { title: t("partner.title"), description: t("partner.description") });
}

/** Partner (spec §2): why partner, who we partner with, how it works, a call to contact. */
export default function Partner() {
  const { t } = useTranslation();
  const locale = useLocale();
  const why = useTextList<string>("partner.why").slice(0, MAX_WHY);
  const who = useTextList<{ title: string; text: string }>("partner.who").slice(0, MAX_WHO);
  const how = useTextList<{ title: string; text: string }>("partner.how");
  return (
    <>
      <PageHero eyebrow={t("partner.eyebrow")} title={t("partner.heroTitle")} text={t("partner.heroText")}>
        <ButtonLink to={href("/:locale/contact", { locale })} arrow>
          {t("partner.ctaButton")}
        </ButtonLink>
      </PageHero>

      <Section id="why" title={t("partner.whyTitle")}>
        <ul className="grid gap-4 md:grid-cols-2">
          {why.map((point) => (
            <li key={point} className="flex items-start gap-3 rounded-2xl border border-line bg-panel p-5">
              <CheckIcon className="mt-0.5 size-5 text-gold" />
              <span className="leading-relaxed">{point}</span>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="who" title={t("partner.whoTitle")}>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {who.map((item) => (
            <InfoCard key={item.title} title={item.title} text={item.text} />
          ))}
        </ul>
      </Section>

      <Section id="how" title={t("partner.howTitle")}>
        <ol className="grid gap-6 md:grid-cols-2 lg:grid-cols-4">
          {how.map((step, i) => (
            <li key={step.title} className="border-t-2 border-gold/60 pt-5">
              <span className="text-sm font-bold text-gold">
                {formatNumber(i + 1, locale, { minimumIntegerDigits: 2 })}
              </span>
              <h3 className="mt-2 text-lg font-bold">{step.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-mist">{step.text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <CallToAction id="partner-cta" title={t("partner.ctaTitle")} text={t("partner.ctaText")}>
        <ButtonLink to={href("/:locale/contact", { locale })} arrow>
          {t("partner.ctaButton")}
        </ButtonLink>
      </CallToAction>
    </>
  );
}
