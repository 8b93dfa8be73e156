import { Form, Link, useActionData, useNavigation } from "react-router";
import { useTranslation } from "../../hooks.ts";
import { InboxFilters, InboxItems, inboxQuery } from "../../components/admin/inbox-list.tsx";
import { inboxAction, loadInbox } from "../../data/inbox-page.server.ts";
import { adminTitle } from "../../i18n/admin-title.ts";
import type { Route } from "./+types/inbox";

/**
 * The admin's inbox (issue #31 items 1–2), for the studio team only (others get 404): community applications
 * and contact messages in one list, newest first, filtered by `?kind=`, `?state=` and searched by `?q=`, with
 * "Export CSV" of the filtered list, "Delete selected", the retention setting (owners) and, when Appwrite has
 * no e-mail provider, a notice that mail is not set up.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return loadInbox(request);
}

export async function action({ request }: Route.ActionArgs) {
  return inboxAction(request);
}

export function meta({ matches }: Route.MetaArgs) {
  return adminTitle(matches, "admin.inbox.title");
}

const DELETE_FORM = "inbox-delete";

export default function AdminInbox({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { list, filter, unread, mailOn, retention, owner } = loaderData;
  const pages = list?.pages ?? 1;
  const busy = navigation.state === "submitting";
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">
          {t("admin.inbox.title")}{" "}
          <span className="text-base font-normal text-mist" data-unread={unread}>
            {t("admin.inbox.unread", { count: unread })}
          </span>
        </h1>
        <a
          href={`/admin/inbox/export.csv${inboxQuery(filter)}`}
          download
          className="rounded-full border border-line px-4 py-2 text-sm hover:border-gold"
        >
          {t("admin.inbox.export")}
        </a>
      </div>
      <p className="mt-2 text-sm text-mist">{t("admin.inbox.intro")}</p>
      {!mailOn && (
        <p
          role="status"
          className="mt-4 rounded-xl border border-amber-500/50 p-3 text-sm text-amber-200"
          data-mail-off
        >
          {t("admin.inbox.mailOff")}
        </p>
      )}
      {result && (
        <p
          role={result.ok ? "status" : "alert"}
          className={`mt-4 text-sm ${result.ok ? "text-emerald-300" : "text-red-400"}`}
        >
          {t(result.message, result.values)}
        </p>
      )}
      <InboxFilters filter={filter} />
      {list === null ? (
        <p role="alert" className="mt-8 text-red-400">
          {t("admin.inbox.failed")}
        </p>
      ) : list.rows.length === 0 ? (
        <p className="mt-8 text-mist">{t("admin.inbox.empty")}</p>
      ) : (
        <>
          <Form
            method="post"
            id={DELETE_FORM}
            className="mt-6 flex flex-wrap items-center gap-3"
            onSubmit={(event) => {
              if (!window.confirm(t("admin.inbox.deleteConfirm"))) event.preventDefault();
            }}
          >
            <input type="hidden" name="intent" value="delete" />
            <button
              type="submit"
              disabled={busy}
              className="rounded-full border border-red-500/60 px-4 py-2 text-sm text-red-300 disabled:opacity-60"
            >
              {t("admin.inbox.deleteSelected")}
            </button>
          </Form>
          <InboxItems rows={list.rows} form={DELETE_FORM} />
          <nav
            aria-label={t("admin.inbox.page", { page: list.page, pages })}
            className="mt-4 flex items-center gap-4 text-sm"
          >
            {list.page > 1 && (
              <Link to={inboxQuery(filter, { page: String(list.page - 1) }) || "?"}>{t("admin.inbox.previous")}</Link>
            )}
            <span className="text-mist">{t("admin.inbox.page", { page: list.page, pages })}</span>
            {list.page < pages && (
              <Link to={inboxQuery(filter, { page: String(list.page + 1) })}>{t("admin.inbox.next")}</Link>
            )}
          </nav>
        </>
      )}
      <section className="mt-10 max-w-xl rounded-2xl border border-line p-4" aria-labelledby="retention-title">
        <h2 id="retention-title" className="font-semibold">
          {t("admin.inbox.retention")}
        </h2>
        <p className="mt-1 text-sm text-mist" data-retention={retention}>
          {retention > 0 ? t("admin.inbox.retentionOn", { days: retention }) : t("admin.inbox.retentionOff")}
        </p>
        {owner ? (
          <Form method="post" className="mt-3 flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="retention" />
            <label className="flex flex-col gap-1 text-xs text-mist">
              {t("admin.inbox.retentionDays")}
              <input
                name="days"
                inputMode="numeric"
                pattern="[0-9]*"
                defaultValue={retention || ""}
                aria-describedby="retention-help"
                className="w-28 rounded-lg border border-line bg-ink px-3 py-2 text-sm"
              />
            </label>
            <button type="submit" className="rounded-full border border-line px-4 py-2 text-sm hover:border-gold">
              {t("admin.inbox.retentionSave")}
            </button>
            <p id="retention-help" className="basis-full text-xs text-mist">
              {t("admin.inbox.retentionHelp")}
            </p>
          </Form>
        ) : (
          <p className="mt-2 text-xs text-mist">{t("admin.inbox.retentionOwner")}</p>
        )}
      </section>
    </>
  );
}
