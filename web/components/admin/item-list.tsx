import { useState } from "react";
import { Link } from "react-router";
import { useLocale, useTranslation } from "../../hooks.ts";
import { formatLongDate } from "../../i18n/i18n.ts";
import type { AdminCell, AdminRow } from "../../server/admin-lists.server.ts";
import { CONTENT_MODEL, type ContentKind } from "../../../schemas/model.ts";
import { DeleteDialog } from "./delete-dialog.tsx";
import { StateBadge, StateFilter } from "./lifecycle.tsx";
import { useClearUnsavedOnArrival } from "./unsaved.tsx";
import type { ItemState } from "../../../schemas/lifecycle.ts";

/** One cell: an image as a thumbnail, a date in the locale's long format, a slug left-to-right, else text. */
function Cell({ cell }: { cell: AdminCell }) {
  const locale = useLocale();
  switch (cell.type) {
    case "image":
      return (
        <td className="px-4 py-3">
          {cell.value ? (
            <img src={cell.value} alt="" width={40} height={40} className="size-10 rounded-lg object-cover" />
          ) : (
            "–"
          )}
        </td>
      );
    case "date":
      return <td className="px-4 py-3 whitespace-nowrap">{cell.value ? formatLongDate(cell.value, locale) : "–"}</td>;
    case "slug":
      return (
        <td className="px-4 py-3 font-mono text-xs" dir="ltr">
          {cell.value}
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
        <td className="px-4 py-3" dir="auto">
          {cell.value}
        </td>
      );
  }
}

/**
 * The admin list of a kind: its column fields (ventures: Logo, Name, Slug; posts: Title, Author, Published
 * Date in the locale's long format; labels `admin.<path>.columns.<field>`), each item's state, and Actions,
 * with the delete dialog (spec §2); above it, the filter by state (issue #16).
 */
export function ItemList(props: { kind: ContentKind; rows: AdminRow[] | null; state?: ItemState | null }) {
  const { t } = useTranslation();
  useClearUnsavedOnArrival(props.kind);
  const [deleting, setDeleting] = useState<{ id: string; label: string } | null>(null);
  const path = CONTENT_MODEL[props.kind].adminPath;
  const base = `/admin/${path}`;
  const columns = props.rows?.[0]?.cells.map((c) => c.field) ?? [];
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">{t(`admin.${path}.title`)}</h1>
        <Link to={`${base}/new`} className="rounded-full bg-gold px-5 py-2 text-sm font-semibold text-ink">
          {t(`admin.${path}.create`)}
        </Link>
      </div>
      <StateFilter base={base} current={props.state ?? null} />
      {props.rows === null ? (
        <p role="alert" className="mt-8 text-red-400">
          {t(`admin.${path}.fetchFailed`)}
        </p>
      ) : props.rows.length === 0 ? (
        <p className="mt-8 text-mist">{t(`admin.${path}.empty`)}</p>
      ) : (
        <div className="mt-8 overflow-x-auto rounded-2xl border border-line">
          <table className="w-full text-start text-sm">
            <thead className="bg-panel text-mist">
              <tr>
                {columns.map((field) => (
                  <th key={field} scope="col" className="px-4 py-3 text-start font-medium">
                    {t(`admin.${path}.columns.${field}`)}
                  </th>
                ))}
                <th scope="col" className="px-4 py-3 text-start font-medium">
                  {t("admin.lifecycle.state")}
                </th>
                <th scope="col" className="px-4 py-3 text-start font-medium">
                  {t("admin.actions")}
                </th>
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row) => (
                <tr key={row.id} className="border-t border-line">
                  {row.cells.map((cell) => (
                    <Cell key={cell.field} cell={cell} />
                  ))}
                  <td className="px-4 py-3">
                    <StateBadge state={row.state} />
                  </td>
                  <td className="px-4 py-3">
                    <div className="flex gap-3">
                      <Link to={`${base}/edit/${row.id}`} className="text-gold hover:underline">
                        {t("admin.edit")}
                      </Link>
                      <button
                        type="button"
                        className="text-red-400 hover:underline"
                        onClick={() => setDeleting({ id: row.id, label: row.name })}
                      >
                        {t("admin.delete")}
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <DeleteDialog item={deleting} question={t(`admin.${path}.deleteQuestion`)} onClose={() => setDeleting(null)} />
    </>
  );
}
