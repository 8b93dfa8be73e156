import { useEffect, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { useTranslation } from "../../hooks.ts";
import type { TrashRow } from "../../data/trash.server.ts";

/** A cell's padding; under 640 px (`max-sm:`) the rows are cards and their cells flow in them (as the lists). */
const CELL = "px-4 py-3 max-sm:p-0";

/**
 * The confirmation of "Delete forever" (issue #29 item 9: owner only, confirms): names the item, says it cannot
 * be undone, Delete forever and Cancel.
 */
function DeleteForeverDialog({ row, onClose }: { row: TrashRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const busy = useNavigation().state === "submitting";
  useEffect(() => {
    if (row && !dialog.current?.open) dialog.current?.showModal();
    if (!row && dialog.current?.open) dialog.current.close();
  }, [row]);
  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      aria-labelledby="purge-title"
      className="m-auto max-w-md rounded-2xl border border-line bg-panel p-6 text-white backdrop:bg-black/70"
    >
      <h2 id="purge-title" className="text-lg font-bold">
        {t("admin.trash.confirmTitle")}
      </h2>
      <p className="mt-3 text-sm text-mist">{t("admin.trash.confirmText", { name: row?.title ?? "" })}</p>
      <Form method="post" className="mt-6 flex justify-end gap-3" onSubmit={() => setTimeout(onClose)}>
        <input type="hidden" name="intent" value="purge" />
        <input type="hidden" name="batch" value={row?.batch ?? ""} />
        <button type="button" onClick={onClose} className="rounded-full border border-line px-4 py-2 text-sm">
          {t("admin.cancel")}
        </button>
        <button
          type="submit"
          disabled={busy}
          className="rounded-full bg-red-600 px-4 py-2 text-sm font-semibold disabled:opacity-60"
        >
          {busy ? t("admin.trash.deletingForever") : t("admin.trash.deleteForever")}
        </button>
      </Form>
    </dialog>
  );
}

/**
 * The trash as a table (one row per item: title, kind, versions, deleted by, deleted on, days left, actions);
 * under 640 px each row is a card, so nothing is wider than a phone.
 */
export function TrashTable({ rows, owner }: { rows: TrashRow[]; owner: boolean }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [purging, setPurging] = useState<TrashRow | null>(null);
  const pending = navigation.state === "submitting" ? navigation.formData?.get("batch") : null;
  const head = "px-4 py-3 text-start font-medium";
  const label = "max-sm:text-xs max-sm:text-mist max-sm:before:me-1 max-sm:before:content-[attr(data-label)]";
  return (
    <>
      <div className="mt-6 rounded-2xl border border-line max-sm:border-0 sm:overflow-x-auto">
        <table className="w-full text-start text-sm max-sm:block">
          <thead className="bg-panel text-mist max-sm:hidden">
            <tr>
              {(["title", "kind", "versions", "deletedBy", "deletedAt", "daysLeft", "actions"] as const).map((c) => (
                <th key={c} scope="col" className={head}>
                  {t(`admin.trash.columns.${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="max-sm:flex max-sm:flex-col max-sm:gap-3">
            {rows.map((row) => (
              <tr
                key={row.batch}
                data-trash={row.batch}
                className="border-t border-line max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-3 max-sm:gap-y-2 max-sm:rounded-2xl max-sm:border max-sm:bg-panel max-sm:p-4"
              >
                <td className={`${CELL} max-sm:basis-full max-sm:text-base max-sm:font-semibold`}>
                  <span dir="auto">{row.title}</span>
                </td>
                <td className={CELL}>{t(`admin.trash.kinds.${row.kind}`)}</td>
                <td className={CELL}>
                  {row.locales.map((locale) => (
                    <span key={locale} lang={locale} className="me-2 inline-block">
                      {t(`admin.languages.${locale}`)}
                    </span>
                  ))}
                </td>
                <td className={`${CELL} ${label}`} data-label={t("admin.trash.columns.deletedBy")}>
                  <span dir="auto">{row.deletedBy ?? "–"}</span>
                </td>
                <td className={`${CELL} ${label} whitespace-nowrap`} data-label={t("admin.trash.columns.deletedAt")}>
                  {row.deletedAt}
                </td>
                <td className={`${CELL} ${label}`} data-label={t("admin.trash.columns.daysLeft")}>
                  {row.daysLeft}
                </td>
                <td className={`${CELL} max-sm:basis-full max-sm:border-t max-sm:border-line max-sm:pt-3`}>
                  <div className="flex flex-wrap gap-x-4 gap-y-2 whitespace-nowrap">
                    <Form method="post">
                      <input type="hidden" name="intent" value="restore" />
                      <input type="hidden" name="batch" value={row.batch} />
                      <button type="submit" disabled={pending === row.batch} className="text-gold hover:underline">
                        {pending === row.batch ? t("admin.trash.restoring") : t("admin.trash.restore")}
                      </button>
                    </Form>
                    {owner && (
                      <button type="button" className="text-red-400 hover:underline" onClick={() => setPurging(row)}>
                        {t("admin.trash.deleteForever")}
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {owner && <DeleteForeverDialog row={purging} onClose={() => setPurging(null)} />}
    </>
  );
}
