import { Form, Link, useNavigate } from "react-router";
import { useLocale, useTranslation } from "../../hooks.ts";
import { formatNumber } from "../../i18n/i18n.ts";
import { CONTENT_MODEL, type ContentKind } from "../../../model/model.ts";
import {
  LIST_SORTS,
  listHref,
  PAGE_SIZE,
  pageLinks,
  parseListQuery,
  SEARCH_MAX,
  type ListQuery,
} from "./list-query.ts";

/**
 * The search box and the sort of an admin list (issue #17 item 6): a GET form to the list, so it works without
 * JavaScript (the "Search" button submits both); with it, choosing a sort submits at once, and the URL leaves
 * out what is empty or the default. The filters in `query` ride along; a new search or sort starts at page 1.
 */
export function ListSearch({ kind, query }: { kind: ContentKind; query: ListQuery }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const spec = CONTENT_MODEL[kind];
  const field = t(`admin.${spec.adminPath}.columns.${spec.title}`);
  const base = `/admin/${spec.adminPath}`;
  const go = (form: HTMLFormElement) => {
    const data = new FormData(form);
    const { search, sort } = parseListQuery(
      new URLSearchParams({ q: String(data.get("q")), sort: String(data.get("sort")) }),
    );
    void navigate(listHref(base, query, { search, sort }));
  };
  return (
    <Form
      method="get"
      action={base}
      role="search"
      className="mt-6 flex flex-wrap items-end gap-3 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        go(event.currentTarget);
      }}
    >
      {query.state && <input type="hidden" name="state" value={query.state} />}
      {query.translation && <input type="hidden" name="translation" value={query.translation} />}
      <label className="flex min-w-0 flex-1 basis-56 flex-col gap-1">
        <span className="text-mist">{t(`admin.list.searchBy`, { field })}</span>
        <input
          type="search"
          name="q"
          defaultValue={query.search}
          maxLength={SEARCH_MAX}
          dir="auto"
          className="w-full rounded-lg border border-line bg-panel px-3 py-2"
        />
      </label>
      <label className="flex flex-col gap-1">
        <span className="text-mist">{t("admin.list.sort")}</span>
        <select
          name="sort"
          defaultValue={query.sort}
          onChange={(event) => go(event.currentTarget.form!)}
          className="rounded-lg border border-line bg-panel px-3 py-2"
        >
          {LIST_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {t(`admin.list.sorts.${sort}`, { field })}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="rounded-full border border-gold/60 px-5 py-2 font-semibold text-gold">
        {t("admin.list.search")}
      </button>
      {query.search && (
        <Link to={listHref(base, query, { search: "" })} className="py-2 text-mist underline">
          {t("admin.list.clear")}
        </Link>
      )}
    </Form>
  );
}

/**
 * "Showing 51–100 of 500" and, once there is more than one page, links to the previous, numbered and next
 * pages (the current one marked `aria-current`), each keeping the search, sort and filters of `query`. In
 * the Arabic admin the numbers are Arabic's and the row runs right to left with the page.
 */
export function ListPages(props: { kind: ContentKind; query: ListQuery; total: number; page: number; shown: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const base = `/admin/${CONTENT_MODEL[props.kind].adminPath}`;
  const pages = Math.ceil(props.total / PAGE_SIZE);
  const number = (n: number) => formatNumber(n, locale);
  const from = (props.page - 1) * PAGE_SIZE + 1;
  const href = (page: number) => listHref(base, props.query, { page });
  const step = "rounded-full border border-line px-3 py-1";
  return (
    <div className="mt-6 flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-mist" data-testid="list-count">
        {t("admin.list.showing", {
          from: number(from),
          to: number(from + props.shown - 1),
          total: number(props.total),
        })}
      </p>
      {pages > 1 && (
        <nav aria-label={t("admin.list.pages")} className="flex flex-wrap items-center gap-2">
          {props.page > 1 && (
            <Link to={href(props.page - 1)} rel="prev" className={step}>
              {t("admin.list.previous")}
            </Link>
          )}
          {pageLinks(props.page, pages).map((p, i) =>
            p === null ? (
              <span key={`gap-${i}`} aria-hidden="true" className="text-mist">
                …
              </span>
            ) : (
              <Link
                key={p}
                to={href(p)}
                aria-label={t("admin.list.page", { page: number(p) })}
                aria-current={p === props.page ? "page" : undefined}
                className={`${step} ${p === props.page ? "border-gold text-gold" : "text-mist"}`}
              >
                {number(p)}
              </Link>
            ),
          )}
          {props.page < pages && (
            <Link to={href(props.page + 1)} rel="next" className={step}>
              {t("admin.list.next")}
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}
