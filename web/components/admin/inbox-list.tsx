import { Form, Link } from "react-router";
import { useLocale, useTranslation } from "../../hooks.ts";
import { INBOX_KINDS, INBOX_STATES } from "../../../model/inbox.ts";
import type { InboxFilter } from "../../../lib/inbox/store.ts";
import type { InboxRow } from "../../data/inbox-page.server.ts";
import { formatDate } from "../../../lib/text/dates.ts";

/** A received time as the admin writes a moment (issue #29 item 7: `formatDate`'s `moment`, UTC unless a zone is given). */
export function receivedAt(iso: string, locale: string, timeZone?: string): string {
  return formatDate(iso, "moment", locale, timeZone);
}

/** The query string of `filter` plus `extra` (for links that keep the filter: pages, the export). */
export function inboxQuery(filter: InboxFilter, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (filter.kind) params.set("kind", filter.kind);
  if (filter.state) params.set("state", filter.state);
  if (filter.q) params.set("q", filter.q);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The inbox's filters (a GET form: works without JavaScript): kind, state and the search text. */
export function InboxFilters({ filter }: { filter: InboxFilter }) {
  const { t } = useTranslation();
  const field = "rounded-lg border border-line bg-ink px-3 py-2 text-sm";
  return (
    <Form
      method="get"
      role="search"
      className="mt-6 flex flex-wrap items-end gap-3"
      aria-label={t("admin.inbox.filter")}
    >
      <label className="flex flex-col gap-1 text-xs text-mist">
        {t("admin.inbox.kind")}
        <select name="kind" defaultValue={filter.kind ?? ""} className={field}>
          <option value="">{t("admin.inbox.kinds.all")}</option>
          {INBOX_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {t(`admin.inbox.kinds.${kind}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-xs text-mist">
        {t("admin.inbox.state")}
        <select name="state" defaultValue={filter.state ?? ""} className={field}>
          <option value="">{t("admin.inbox.states.all")}</option>
          {INBOX_STATES.map((state) => (
            <option key={state} value={state}>
              {t(`admin.inbox.states.${state}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex min-w-0 grow basis-56 flex-col gap-1 text-xs text-mist">
        {t("admin.inbox.search")}
        <input
          type="search"
          name="q"
          defaultValue={filter.q ?? ""}
          maxLength={200}
          className={`${field} w-full`}
          dir="auto"
        />
      </label>
      <button type="submit" className="rounded-full bg-gold px-5 py-2 text-sm font-semibold text-ink">
        {t("admin.inbox.searchButton")}
      </button>
    </Form>
  );
}

/** A state as a small badge (`data-state` for tests and styles). */
export function InboxStateBadge({ state }: { state: string }) {
  const { t } = useTranslation();
  const tone =
    state === "new"
      ? "border-gold text-gold"
      : state === "spam"
        ? "border-red-500/60 text-red-300"
        : "border-line text-mist";
  return (
    <span className={`inline-block rounded-full border px-2.5 py-0.5 text-xs ${tone}`} data-state={state}>
      {t(`admin.inbox.states.${state}`)}
    </span>
  );
}

/**
 * The list: one row per submission, newest first (kind, name, e-mail, first line, time, state, a mark when
 * its mail failed), each with a checkbox for "Delete selected" (`form` names the delete form). Rows are
 * cards that wrap, so a 390 px phone shows them without scrolling sideways.
 */
export function InboxItems({ rows, form }: { rows: InboxRow[]; form: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <ul className="mt-4 divide-y divide-line rounded-2xl border border-line" data-inbox-list>
      {rows.map((row) => {
        const firstLine = row.text.split(/\r?\n/).find((line) => line.trim()) ?? "";
        return (
          <li
            key={row.id}
            className={`flex items-start gap-3 p-4 ${row.state === "new" ? "bg-gold/5" : ""}`}
            data-inbox-item={row.id}
          >
            <input
              type="checkbox"
              name="item"
              value={`${row.kind}:${row.id}`}
              form={form}
              aria-label={t("admin.inbox.select", { name: row.name })}
              className="mt-1 size-4 shrink-0"
            />
            <Link to={`/admin/inbox/${row.kind}/${row.id}`} className="min-w-0 flex-1 hover:text-gold">
              <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-mist">
                <span>{t(`admin.inbox.kinds.${row.kind}`)}</span>
                <InboxStateBadge state={row.state} />
                <time dateTime={row.createdAt}>{receivedAt(row.createdAt, locale)}</time>
                {row.mailFailed && <span className="text-red-300">{t("admin.inbox.mailFailed")}</span>}
              </span>
              <span className={`mt-1 block break-words ${row.state === "new" ? "font-semibold" : ""}`}>
                <span dir="auto" data-inbox-name>
                  {row.name}
                </span>{" "}
                <span className="text-sm text-mist" dir="ltr">
                  &lt;{row.email}&gt;
                </span>
              </span>
              <span className="mt-1 block truncate text-sm text-mist" dir="auto">
                {firstLine}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
