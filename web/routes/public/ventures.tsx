import { useTranslation } from "../../hooks.ts";
import { VentureGrid } from "../../components/cards.tsx";
import { ListError } from "../../components/list-error.tsx";
import { PageHero } from "../../components/ui.tsx";
import { translatorOf } from "../../i18n/t.ts";
import { toLocale } from "../../i18n/i18n.ts";
import { pageMeta } from "../../seo.ts";
import { loadVentureCards } from "../../server/content.server.ts";
import type { Route } from "./+types/ventures";

/** Every published venture, newest first (spec §2). */
export async function loader({ params }: Route.LoaderArgs) {
  return { ventures: await loadVentureCards(toLocale(params.locale)) };
}

export function meta(args: Route.MetaArgs) {
  const { t } = translatorOf(args.matches);
  return pageMeta(args, { title: t("ventures.title"), description: t("ventures.intro") });
}

export default function Ventures({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <PageHero eyebrow={t("site.tagline")} title={t("ventures.title")} text={t("ventures.intro")} />
      <VentureGrid ventures={loaderData.ventures} heading="h2" />
    </>
  );
}

/** A failed load shows the page's error text (spec §8 general.error). */
export function ErrorBoundary() {
  return <ListError kind="ventures" />;
}
