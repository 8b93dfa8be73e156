import { useState } from "react";
import { Link } from "react-router";
import { useLocale, useTranslation } from "../../hooks.ts";
import { formatDate } from "../../../lib/text/dates.ts";
import type { AdminCell, AdminList } from "../../data/admin-lists.server.ts";
import { CONTENT_MODEL, type ContentKind } from "../../../model/model.ts";
import { DeleteDialog } from "./delete-dialog.tsx";
import { StateBadge, StateFilter } from "./lifecycle.tsx";
import { useClearUnsavedOnArrival } from "./unsaved.tsx";
import { ListPages, ListSearch } from "./list-controls.tsx";
import { listHref, type ListQuery } from "./list-query.ts";
import { CONTENT_LOCALES, type ContentLocale } from "../../../model/locales.ts";
import { TRANSLATION_STATES, type TranslationState } from "../../../lib/translate/status.ts";

/** A language version's translation state as a badge (issue #15 item 6). */
export function TranslationBadge({ state }: { state: TranslationState }) {
  const { t } = useTranslation();
  const tone =
    state === "up-to-date"
      ? "border-emerald-500/50 text-emerald-300"
      : state === "stale"
        ? "border-amber-500/50 text-amber-300"
        : state === "unreviewed"
          ? "border-sky-500/50 text-sky-300"
          : "border-line text-mist";
  return (
    <span className={`inline-block rounded-full border px-2.5 py-0.5 text-xs ${tone}`} data-translation={state}>
      {t(`admin.languages.states.${state}`)}
    </span>
  );
}

/** Links filtering a list by translation state (`?translation=`, keeping the rest of the list's query), the current one marked. */
function TranslationFilter({ base, query }: { base: string; query: ListQuery }) {
  const { t } = useTranslation();
  const options: (TranslationState | null)[] = [null, ...TRANSLATION_STATES];
  return (
    <nav aria-label={t("admin.languages.filter")} className="mt-3 flex flex-wrap gap-2 text-sm">
      {options.map((state) => (
        <Link
          key={state ?? "all"}
          to={listHref(base, query, { translation: state })}
          aria-current={state === query.translation ? "page" : undefined}
          className={`rounded-full border px-3 py-1 ${state === query.translation ? "border-gold text-gold" : "border-line text-mist"}`}
        >
          {state ? t(`admin.languages.states.${state}`) : t("admin.languages.all")}
        </Link>
      ))}
    </nav>
  );
}

/** A cell's padding in the table; under 640 px (`max-sm:`) the rows are cards and their cells flow in them. */
const CELL = "px-4 py-3 max-sm:p-0";

/**
 * One cell: an image as a thumbnail, a date in the locale's long format, a slug left-to-right, else text; the
 * item's title in bold on a card, which gives it the card's first line beside the image.
 */
function Cell({ cell, title }: { cell: AdminCell; title: boolean }) {
  const locale = useLocale();
  const line = title
    ? "max-sm:min-w-0 max-sm:flex-1 max-sm:text-base max-sm:font-semibold"
    : "max-sm:basis-full max-sm:text-mist";
  switch (cell.type) {
    case "image":
      return (
        <td className={CELL}>
          {cell.value ? (
            <img src={cell.value} alt="" width={40} height={40} className="size-10 rounded-lg object-cover" />
          ) : (
            "–"
          )}
        </td>
      );
    case "date":
      return <td className={`${CELL} ${line} whitespace-nowrap`}>{formatDate(cell.value, "day", locale)}</td>;
    case "slug":
      return (
        // The cell keeps the table's direction (start-aligned with its heading in RTL); its text runs LTR.
        <td className={`${CELL} ${line} text-start font-mono text-xs break-all`}>
          <span dir="ltr">{cell.value}</span>
        </td>
      );
    case "text":
    case "url":
    case "email":
    case "html":
    case "owner":
    case "locale":
    case "boolean":
      return (
        <td className={`${CELL} ${line} text-start ${title ? "sm:min-w-48" : ""}`}>
          <span dir="auto">{cell.value}</span>
        </td>
      );
  }
}

/**
 * The admin list of a kind (spec §2): its column fields (ventures: Logo, Name, Slug; posts: Title, Author,
 * Published Date in the locale's long format; labels `admin.<path>.columns.<field>`), each item's state, a
 * column per language with its translation state (issue #15 item 6), and Actions (Edit, View on site, Delete
 * with its dialog). Above it the search and sort, and the filters by state (issue #16) and by translation
 * state; below it the count and the pages (issue #17 item 6). One row per item; under 640 px each row is a
 * card (issue #17 item 5), so nothing is wider than a phone.
 */
export function ItemList(props: { kind: ContentKind; list: AdminList | null; query: ListQuery; timeZone?: string }) {
  const { kind, list, query } = props;
  const { t } = useTranslation();
  const locale = useLocale();
  useClearUnsavedOnArrival(kind);
  const [deleting, setDeleting] = useState<{ id: string; label: string; versions: ContentLocale[] } | null>(null);
  const spec = CONTENT_MODEL[kind];
  const path = spec.adminPath;
  const base = `/admin/${path}`;
  const columns = list?.rows[0]?.cells.map((c) => c.field) ?? [];
  const filtered = Boolean(query.search || query.state || query.translation);
  const head = "px-4 py-3 text-start font-medium";
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">{t(`admin.${path}.title`)}</h1>
        <div className="flex flex-wrap items-center gap-4">
          {/* Deleted items are restorable for 30 days (issue #29 item 9). */}
          <Link to="/admin/trash" className="text-sm text-mist hover:underline">
            {t("admin.trash.link")}
          </Link>
          <Link to={`${base}/new`} className="rounded-full bg-gold px-5 py-2 text-sm font-semibold text-ink">
            {t(`admin.${path}.create`)}
          </Link>
        </div>
      </div>
      <ListSearch kind={kind} query={query} />
      <StateFilter base={base} current={query.state} href={(state) => listHref(base, query, { state })} />
      <TranslationFilter base={base} query={query} />
      {list === null ? (
        <p role="alert" className="mt-8 text-red-400">
          {t(`admin.${path}.fetchFailed`)}
        </p>
      ) : list.rows.length === 0 ? (
        <p className="mt-8 text-mist">{filtered ? t("admin.list.noMatch") : t(`admin.${path}.empty`)}</p>
      ) : (
        <>
          <ListPages kind={kind} query={query} total={list.total} page={list.page} shown={list.rows.length} />
          <div className="mt-4 rounded-2xl border border-line max-sm:border-0 sm:overflow-x-auto">
            <table className="w-full text-start text-sm max-sm:block">
              <thead className="bg-panel text-mist max-sm:hidden">
                <tr>
                  {columns.map((field) => (
                    <th key={field} scope="col" className={head}>
                      {t(`admin.${path}.columns.${field}`)}
                    </th>
                  ))}
                  <th scope="col" className={head}>
                    {t("admin.lifecycle.state")}
                  </th>
                  {CONTENT_LOCALES.map((locale) => (
                    <th key={locale} scope="col" className={head}>
                      <span lang={locale}>{t(`admin.languages.${locale}`)}</span>
                    </th>
                  ))}
                  <th scope="col" className={head}>
                    {t("admin.actions")}
                  </th>
                </tr>
              </thead>
              <tbody className="max-sm:flex max-sm:flex-col max-sm:gap-3">
                {list.rows.map((row) => (
                  <tr
                    key={row.id}
                    className="border-t border-line max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-3 max-sm:gap-y-2 max-sm:rounded-2xl max-sm:border max-sm:bg-panel max-sm:p-4"
                  >
                    {row.cells.map((cell) => (
                      <Cell key={cell.field} cell={cell} title={cell.field === spec.title} />
                    ))}
                    <td className={CELL}>
                      <StateBadge state={row.state} />
                      {row.publishAt && (
                        // When a scheduled item goes public, in the site's zone (issue #29 item 2).
                        <span
                          className="ms-2 text-xs text-mist sm:ms-0 sm:mt-1 sm:block"
                          data-scheduled-for={row.publishAt}
                        >
                          {formatDate(row.publishAt, "moment", locale, props.timeZone)}
                        </span>
                      )}
                    </td>
                    {CONTENT_LOCALES.map((locale) => (
                      // On a card the heading is gone: the language's name stands before its badge.
                      <td
                        key={locale}
                        data-label={t(`admin.languages.${locale}`)}
                        className={`${CELL} max-sm:text-xs max-sm:text-mist max-sm:before:me-1 max-sm:before:content-[attr(data-label)]`}
                      >
                        <TranslationBadge state={row.translations[locale]} />
                      </td>
                    ))}
                    <td className={`${CELL} max-sm:basis-full max-sm:border-t max-sm:border-line max-sm:pt-3`}>
                      <div className="flex flex-wrap gap-x-4 gap-y-2 whitespace-nowrap">
                        {/* Edit and Delete only for an item the user may change (issue #28 item 3). */}
                        <Link to={`${base}/edit/${row.id}`} className="text-gold hover:underline">
                          {row.editable ? t("admin.edit") : t("admin.readOnly.view")}
                        </Link>
                        <a href={row.viewUrl} className="text-mist hover:underline">
                          {t("admin.list.viewOnSite")}
                        </a>
                        {row.editable && (
                          <button
                            type="button"
                            className="text-red-400 hover:underline"
                            onClick={() =>
                              setDeleting({
                                id: row.id,
                                label: row.name,
                                versions: CONTENT_LOCALES.filter((locale) => row.versions[locale]),
                              })
                            }
                          >
                            {t("admin.delete")}
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <DeleteDialog item={deleting} question={t(`admin.${path}.deleteQuestion`)} onClose={() => setDeleting(null)} />
    </>
  );
}
