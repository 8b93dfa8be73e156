import { Link } from "react-router";
import { useTranslation } from "../../hooks.ts";
import { TrashTable } from "../../components/admin/trash-table.tsx";
import { loadTrash, trashAction } from "../../data/trash.server.ts";
import { preferredLocale, requireUser } from "../../data/session.server.ts";
import { adminTitle } from "../../i18n/admin-title.ts";
import type { Route } from "./+types/trash";

/**
 * The Trash page (issue #29 item 9): the deleted items the user could edit, newest first, with their kind, who
 * deleted them, when, and the days left before the purge; Restore (back as a draft, both versions and their
 * history) and, for the studio owner, "Delete forever" after a confirmation.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { user, secret } = await requireUser(request);
  try {
    return { ...(await loadTrash(secret, user, preferredLocale(request))), failed: false };
  } catch (error) {
    console.error("[trash] listing the trash failed:", error);
    return { rows: [], owner: false, failed: true };
  }
}

export async function action({ request }: Route.ActionArgs) {
  const { user, secret } = await requireUser(request);
  return trashAction(request, secret, user, preferredLocale(request));
}

export function meta({ matches }: Route.MetaArgs) {
  return adminTitle(matches, "admin.trash.title");
}

export default function TrashPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="max-w-5xl">
      <h1 className="text-3xl font-bold">{t("admin.trash.title")}</h1>
      <p className="mt-2 text-mist">{t("admin.trash.intro")}</p>
      {actionData && (
        <div role={actionData.ok ? "status" : "alert"} className={`mt-4 ${actionData.ok ? "" : "text-red-400"}`}>
          <p>
            {actionData.message}{" "}
            {actionData.edit && (
              <Link to={actionData.edit} className="text-gold hover:underline">
                {t("admin.trash.openRestored")}
              </Link>
            )}
          </p>
        </div>
      )}
      {loaderData.failed ? (
        <p role="alert" className="mt-8 text-red-400">
          {t("admin.trash.failed")}
        </p>
      ) : loaderData.rows.length === 0 ? (
        <p className="mt-8 text-mist">{t("admin.trash.empty")}</p>
      ) : (
        <TrashTable rows={loaderData.rows} owner={loaderData.owner} />
      )}
    </div>
  );
}
