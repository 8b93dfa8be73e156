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
import { CONTENT_LOCALES } from "../../../schemas/locales.ts";
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

/** Links filtering a list by translation state (`?translation=`, kept with `?state=`), the current one marked. */
function TranslationFilter(props: { base: string; state: ItemState | null; current: TranslationState | null }) {
  const { t } = useTranslation();
  const options: (TranslationState | null)[] = [null, ...TRANSLATION_STATES];
  const href = (translation: TranslationState | null) => {
    const query = new URLSearchParams();
    if (props.state) query.set("state", props.state);
    if (translation) query.set("translation", translation);
    return query.size ? `${props.base}?${query}` : props.base;
  };
  return (
    <nav aria-label={t("admin.languages.filter")} className="mt-3 flex flex-wrap gap-2 text-sm">
      {options.map((state) => (
        <Link
          key={state ?? "all"}
          to={href(state)}
          aria-current={state === props.current ? "page" : undefined}
          className={`rounded-full border px-3 py-1 ${state === props.current ? "border-gold text-gold" : "border-line text-mist"}`}
        >
          {state ? t(`admin.languages.states.${state}`) : t("admin.languages.all")}
        </Link>
      ))}
    </nav>
  );
}

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
        // The cell keeps the table's direction (start-aligned with its heading in RTL); its text runs LTR.
        <td className="px-4 py-3 text-start font-mono text-xs">
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
        <td className="px-4 py-3 text-start">
          <span dir="auto">{cell.value}</span>
        </td>
      );
  }
}

/**
 * The admin list of a kind: its column fields (ventures: Logo, Name, Slug; posts: Title, Author, Published
 * Date in the locale's long format; labels `admin.<path>.columns.<field>`), each item's state, and Actions,
 * with the delete dialog (spec §2); above it, the filters by state (issue #16) and by translation state. One row
 * per item, with a column per language showing its translation state (issue #15 item 6).
 */
export function ItemList(props: {
  kind: ContentKind;
  rows: AdminRow[] | null;
  state?: ItemState | null;
  translation?: TranslationState | null;
}) {
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
      <TranslationFilter base={base} state={props.state ?? null} current={props.translation ?? null} />
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
                {CONTENT_LOCALES.map((locale) => (
                  <th key={locale} scope="col" className="px-4 py-3 text-start font-medium">
                    <span lang={locale}>{t(`admin.languages.${locale}`)}</span>
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
                  {row.cells.map((cell) => (
                    <Cell key={cell.field} cell={cell} />
                  ))}
                  <td className="px-4 py-3">
                    <StateBadge state={row.state} />
                  </td>
                  {CONTENT_LOCALES.map((locale) => (
                    <td key={locale} className="px-4 py-3">
                      <TranslationBadge state={row.translations[locale]} />
                    </td>
                  ))}
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
