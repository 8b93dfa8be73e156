import { useTranslation } from "react-i18next";
import { VentureGrid } from "../../components/cards.tsx";
import { getI18n, toLocale } from "../../i18n/i18n.ts";
import { loadVentureCards } from "../../server/content.server.ts";
import type { Route } from "./+types/ventures";

export async function loader() {
  return { ventures: await loadVentureCards() };
}

export function meta({ params }: Route.MetaArgs) {
  const { t } = getI18n(toLocale(params.locale));
  return [
    { title: `${t("ventures.title")} | ${t("site.name")}` },
    { name: "description", content: t("ventures.intro") },
  ];
}

export default function Ventures({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <section className="py-16">
      <h1 className="text-4xl font-bold">{t("ventures.title")}</h1>
      <p className="mt-4 max-w-2xl text-lg text-mist">{t("ventures.intro")}</p>
      <div className="mt-12">
        <VentureGrid ventures={loaderData.ventures} />
      </div>
    </section>
  );
}
