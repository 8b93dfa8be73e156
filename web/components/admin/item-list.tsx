import { useState } from "react";
import { Link } from "react-router";
import { useLocale, useTranslation } from "../../hooks.ts";
import { formatLongDate } from "../../i18n/i18n.ts";
import type { AdminRow } from "../../server/admin.server.ts";
import { DeleteDialog } from "./delete-dialog.tsx";

/**
 * The admin list of ventures (Logo, Name, Slug, Actions) or posts (Title, Author, Published Date in the
 * locale's long format, Actions), with the delete dialog (spec §2).
 */
export function ItemList(props: { kind: "venture" | "post"; rows: AdminRow[] | null }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [deleting, setDeleting] = useState<{ id: string; label: string } | null>(null);
  const venture = props.kind === "venture";
  const base = venture ? "/admin/ventures" : "/admin/blog";
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">{venture ? t("admin.ventures.title") : t("admin.blog.title")}</h1>
        <Link to={`${base}/new`} className="rounded-full bg-gold px-5 py-2 text-sm font-semibold text-ink">
          {venture ? t("admin.ventures.create") : t("admin.blog.create")}
        </Link>
      </div>
      {props.rows === null ? (
        <p role="alert" className="mt-8 text-red-400">
          {venture ? t("admin.ventures.fetchFailed") : t("admin.blog.fetchFailed")}
        </p>
      ) : props.rows.length === 0 ? (
        <p className="mt-8 text-mist">{venture ? t("admin.ventures.empty") : t("admin.blog.empty")}</p>
      ) : (
        <div className="mt-8 overflow-x-auto rounded-2xl border border-line">
          <table className="w-full text-start text-sm">
            <thead className="bg-panel text-mist">
              <tr>
                {(venture
                  ? [t("admin.ventures.logo"), t("admin.ventures.name"), t("admin.ventures.slug")]
                  : [t("admin.blog.postTitle"), t("admin.blog.author"), t("admin.blog.publishedDate")]
                ).map((heading) => (
                  <th key={heading} scope="col" className="px-4 py-3 text-start font-medium">
                    {heading}
                  </th>
                ))}
                <th scope="col" className="px-4 py-3 text-start font-medium">
                  {t("admin.actions")}
                </th>
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row) => (
                <tr key={row.id} className="border-t border-line">
                  {venture ? (
                    <>
                      <td className="px-4 py-3">
                        {row.image ? (
                          <img
                            src={row.image}
                            alt=""
                            width={40}
                            height={40}
                            className="size-10 rounded-lg object-cover"
                          />
                        ) : (
                          "–"
                        )}
                      </td>
                      <td className="px-4 py-3" dir="auto">
                        {row.name}
                      </td>
                      <td className="px-4 py-3 font-mono text-xs" dir="ltr">
                        {row.slug}
                      </td>
                    </>
                  ) : (
                    <>
                      <td className="px-4 py-3" dir="auto">
                        {row.name}
                      </td>
                      <td className="px-4 py-3 whitespace-nowrap" dir="auto">
                        {row.authorName}
                      </td>
                      <td className="px-4 py-3 whitespace-nowrap">
                        {row.publishedDate ? formatLongDate(row.publishedDate, locale) : "–"}
                      </td>
                    </>
                  )}
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
      <DeleteDialog
        item={deleting}
        question={venture ? t("admin.ventures.deleteQuestion") : t("admin.blog.deleteQuestion")}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
