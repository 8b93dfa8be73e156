import { useLocale, useTranslation } from "../../hooks.ts";
import { VentureGrid } from "../../components/cards.tsx";
import { ListError } from "../../components/list-error.tsx";
import { PageHero } from "../../components/ui.tsx";
import { translatorOf } from "../../i18n/t.ts";
import { otherLocale, toLocale } from "../../i18n/i18n.ts";
import { pageMeta } from "../../seo.ts";
import { loadVentureCards } from "../../data/content.server.ts";
import type { Route } from "./+types/ventures";

/**
 * Every published venture, newest first (spec §2): those described in the page's language, then, under their
 * own heading, those described only in the other language (issue #35).
 */
export async function loader({ params }: Route.LoaderArgs) {
  return { ventures: await loadVentureCards(toLocale(params.locale)) };
}

export function meta(args: Route.MetaArgs) {
  const { t } = translatorOf(args.matches);
  return pageMeta(args, { title: t("ventures.title"), description: t("ventures.intro") });
}

export default function Ventures({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const own = loaderData.ventures.filter((v) => v.locale === locale);
  const others = loaderData.ventures.filter((v) => v.locale !== locale);
  return (
    <>
      <PageHero eyebrow={t("site.tagline")} title={t("ventures.title")} text={t("ventures.intro")} />
      {(own.length > 0 || others.length === 0) && <VentureGrid ventures={own} heading="h2" />}
      {others.length > 0 && (
        <section aria-labelledby="other-ventures" className="pt-14">
          <h2 id="other-ventures" className="mb-8 text-2xl font-bold sm:text-3xl">
            {t(`ventures.othersTitle.${otherLocale(locale)}`)}
          </h2>
          <VentureGrid ventures={others} />
        </section>
      )}
    </>
  );
}

/** A failed load shows the page's error text (spec §8 general.error). */
export function ErrorBoundary() {
  return <ListError kind="ventures" />;
}
