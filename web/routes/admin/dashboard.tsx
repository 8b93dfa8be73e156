import { useTranslation } from "../../hooks.ts";
import { Link } from "react-router";
import { sessionServices } from "../../data/admin.server.ts";
import { loadDashboard, type DashboardItem } from "../../data/dashboard.server.ts";
import { preferredLocale, requireUser } from "../../data/session.server.ts";
import { accessOf, listScopeOf } from "../../data/access.server.ts";
import { adminTitle } from "../../i18n/admin-title.ts";
import { StateBadge } from "../../components/admin/lifecycle.tsx";
import { CONTENT_KIND_NAMES, CONTENT_MODEL } from "../../../model/model.ts";
import { LOCALE_TABLE } from "../../../model/locales.ts";
import type { Route } from "./+types/dashboard";

/**
 * Dashboard (spec §2, §7; issue #16; issue #29 item 10): per kind how many items, with their language
 * versions ("8 in English and 5 in Arabic"), and a "New …" button, from the kinds table; the items by
 * state; the recent drafts and the next scheduled items, titled in the admin's language where that version
 * exists. It counts what the account may see (issue #28 item 3); a failure is only logged (§8).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { secret, user } = await requireUser(request);
  try {
    // What this user may see (issue #28 item 3): the team every item, anyone else their own.
    const scope = listScopeOf(user, await accessOf(user));
    return { counts: await loadDashboard(sessionServices(secret), preferredLocale(request), scope) };
  } catch (error) {
    console.error("Dashboard counts failed:", error);
    return { counts: null };
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return adminTitle(matches, "admin.nav.dashboard");
}

/** A list of items on the dashboard (recent drafts, next scheduled), or the sentence saying there are none. */
function ItemsSection(props: { id: string; title: string; empty: string; items: DashboardItem[] | undefined }) {
  const { t } = useTranslation();
  const items = props.items ?? [];
  return (
    <section aria-labelledby={props.id} className="rounded-2xl border border-line bg-panel p-6">
      <h2 id={props.id} className="text-lg font-semibold">
        {props.title}
      </h2>
      {items.length === 0 ? (
        <p className="mt-3 text-sm text-mist">{props.empty}</p>
      ) : (
        <ul className="mt-3 divide-y divide-line">
          {items.map((item) => (
            <li key={`${item.kind}:${item.id}`} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm">
              <Link
                to={`/admin/${CONTENT_MODEL[item.kind].adminPath}/edit/${item.id}`}
                lang={item.titleLocale}
                dir={LOCALE_TABLE[item.titleLocale].dir}
                className="min-w-0 break-words font-medium text-gold hover:underline"
              >
                {item.title}
              </Link>
              <StateBadge state={item.state} />
              <span className="text-mist">
                {t(`admin.dashboard.kindNames.${CONTENT_MODEL[item.kind].adminPath}`)} ·{" "}
                <time dateTime={item.at}>
                  {t(item.state === "scheduled" ? "admin.dashboard.due" : "admin.dashboard.updated", {
                    date: item.when,
                  })}
                </time>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { counts } = loaderData;
  const cards = CONTENT_KIND_NAMES.map((kind) => {
    const { adminPath } = CONTENT_MODEL[kind];
    return {
      label: t(`admin.dashboard.${adminPath}`),
      value: counts?.kinds[kind].items,
      versions: counts?.kinds[kind].versionsText,
      to: `/admin/${adminPath}`,
      create: t(`admin.${adminPath}.new`),
    };
  });
  // Items of every kind together by state (issue #16).
  const states = [
    { label: t("admin.dashboard.published"), value: counts?.published, state: "published" },
    { label: t("admin.dashboard.scheduled"), value: counts?.scheduled, state: "scheduled" },
    { label: t("admin.dashboard.drafts"), value: counts?.drafts, state: "draft" },
  ];
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">{t("admin.nav.dashboard")}</h1>
        <div className="flex flex-wrap gap-3">
          {cards.map((card) => (
            <Link
              key={card.to}
              to={`${card.to}/new`}
              className="rounded-full bg-gold px-5 py-2 text-sm font-semibold text-ink hover:opacity-90"
            >
              {card.create}
            </Link>
          ))}
        </div>
      </div>
      <ul className="mt-8 grid gap-6 sm:grid-cols-2">
        {cards.map((card) => (
          <li key={card.to} className="rounded-2xl border border-line bg-panel p-6">
            <p className="text-sm text-mist">{card.label}</p>
            <p className="mt-2 text-4xl font-bold text-gold" data-testid={card.to}>
              {card.value ?? "–"}
            </p>
            {card.versions && (
              <p className="mt-1 text-sm text-mist" data-testid={`${card.to}-versions`}>
                {card.versions}
              </p>
            )}
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
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <ItemsSection
          id="dashboard-drafts"
          title={t("admin.dashboard.recentDrafts")}
          empty={t("admin.dashboard.noDrafts")}
          items={counts?.recentDrafts}
        />
        <ItemsSection
          id="dashboard-upcoming"
          title={t("admin.dashboard.upcoming")}
          empty={t("admin.dashboard.noScheduled")}
          items={counts?.upcoming}
        />
      </div>
    </>
  );
}
