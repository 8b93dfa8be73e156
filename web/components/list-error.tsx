import { useTranslation } from "../hooks.ts";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { ErrorView } from "./error-view.tsx";
import type { ListKind } from "./list-skeleton.tsx";
import { PageHero } from "./ui.tsx";

/**
 * A list page whose content failed to load (spec §2, §8): its title and intro, then "An error occurred.
 * Please try again later." A 404 still shows the not-found page.
 */
export function ListError({ kind }: { kind: ListKind }) {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <ErrorView />;
  return (
    <>
      <title>{`${t(`${kind}.title`)} | ${t("site.name")}`}</title>
      <PageHero eyebrow={t("site.tagline")} title={t(`${kind}.title`)} text={t(`${kind}.intro`)} />
      <p role="alert" className="rounded-2xl border border-red-400/40 bg-red-500/10 p-6 text-red-200">
        {t("general.error")}
      </p>
    </>
  );
}
