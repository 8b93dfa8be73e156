import { useTranslation } from "../../hooks.ts";
import { Link } from "react-router";
import { sessionServices } from "../../data/admin.server.ts";
import { countItems } from "../../data/admin-lists.server.ts";
import { requireUser } from "../../data/session.server.ts";
import { accessOf, listScopeOf } from "../../data/access.server.ts";
import { adminTitle } from "../../i18n/admin-title.ts";
import { CONTENT_KIND_NAMES, CONTENT_MODEL } from "../../../model/model.ts";
import type { Route } from "./+types/dashboard";

/**
 * Dashboard: total ventures and posts from the list totals (spec §2, §7), then how many are published,
 * scheduled and drafts (issue #16); a failure is only logged (§8).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { secret, user } = await requireUser(request);
  try {
    // What this user may see (issue #28 item 3): the team every item, anyone else their own.
    const scope = listScopeOf(user, await accessOf(user));
    return { counts: await countItems(sessionServices(secret), scope) };
  } catch (error) {
    console.error("Dashboard counts failed:", error);
    return { counts: null };
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return adminTitle(matches, "admin.nav.dashboard");
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const cards = CONTENT_KIND_NAMES.map((kind) => {
    const { adminPath } = CONTENT_MODEL[kind];
    return {
      label: t(`admin.dashboard.${adminPath}`),
      value: loaderData.counts?.kinds[kind],
      to: `/admin/${adminPath}`,
    };
  });
  // Ventures and posts together by state (issue #16).
  const states = [
    { label: t("admin.dashboard.published"), value: loaderData.counts?.published, state: "published" },
    { label: t("admin.dashboard.scheduled"), value: loaderData.counts?.scheduled, state: "scheduled" },
    { label: t("admin.dashboard.drafts"), value: loaderData.counts?.drafts, state: "draft" },
  ];
  return (
    <>
      <h1 className="text-3xl font-bold">{t("admin.nav.dashboard")}</h1>
      <ul className="mt-8 grid gap-6 sm:grid-cols-2">
        {cards.map((card) => (
          <li key={card.to} className="rounded-2xl border border-line bg-panel p-6">
            <p className="text-sm text-mist">{card.label}</p>
            <p className="mt-2 text-4xl font-bold text-gold" data-testid={card.to}>
              {card.value ?? "–"}
            </p>
            <Link to={card.to} className="mt-4 inline-block text-sm text-gold hover:underline">
              {t("admin.dashboard.manage")}
            </Link>
          </li>
        ))}
      </ul>
      <ul className="mt-6 grid gap-6 sm:grid-cols-3">
        {states.map((card) => (
          <li key={card.state} className="rounded-2xl border border-line bg-panel p-6">
            <p className="text-sm text-mist">{card.label}</p>
            <p className="mt-2 text-3xl font-bold text-gold" data-testid={`state-${card.state}`}>
              {card.value ?? "–"}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}
