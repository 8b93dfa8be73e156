import { Link } from "react-router";
import { useLocale, useTranslation } from "../hooks.ts";
import { formatNumber } from "../i18n/i18n.ts";
import { ArrowBack, ArrowForward } from "./icons.tsx";

/**
 * The URL of page `page` of a list at `path`: the path itself for page 1 (its canonical URL), else `?page=N`;
 * `query` (`all=1`, the blog's switch) follows the page number, in the order `canonicalPageQuery` keeps.
 */
export function pageHref(path: string, page: number, query = ""): string {
  const params = [page === 1 ? "" : `page=${page}`, query].filter(Boolean).join("&");
  return params ? `${path}?${params}` : path;
}

/**
 * The page numbers a pager shows: the first, the last, and two either side of `page`; `null` marks a gap.
 * E.g. page 7 of 400: 1 … 5 6 7 8 9 … 400.
 */
export function pageWindow(page: number, pages: number): (number | null)[] {
  const shown = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, pages])]
    .filter((n) => n >= 1 && n <= pages)
    .sort((a, b) => a - b);
  return shown.flatMap((n, i) => (i > 0 && n - shown[i - 1]! > 1 ? [null, n] : [n]));
}

const ITEM = "inline-flex min-h-10 min-w-10 items-center justify-center gap-2 rounded-full px-3 text-sm font-semibold";
const IDLE = `${ITEM} border border-line text-white hover:border-gold hover:text-gold`;

/**
 * A list's pager (issue #18 item 3): Previous, the page numbers (`pageWindow`, in the page's digits), Next,
 * in a `nav` named for screen readers; the current page is `aria-current="page"`. Logical order and
 * direction-following arrows, so it mirrors in Arabic. Nothing when there is one page. `query`: the list's
 * other parameters, kept on every link.
 */
export function Pagination({
  path,
  page,
  pages,
  query = "",
}: {
  path: string;
  page: number;
  pages: number;
  query?: string;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (pages <= 1) return null;
  return (
    <nav aria-label={t("blog.pagination.label")} className="mt-12">
      <ul className="flex flex-wrap items-center justify-center gap-2">
        {page > 1 && (
          <li>
            <Link to={pageHref(path, page - 1, query)} rel="prev" className={IDLE}>
              <ArrowBack />
              {t("blog.pagination.previous")}
            </Link>
          </li>
        )}
        {pageWindow(page, pages).map((n, i) =>
          n === null ? (
            <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-mist">
              …
            </li>
          ) : (
            <li key={n}>
              {n === page ? (
                <span aria-current="page" className={`${ITEM} bg-gold text-ink`}>
                  <span className="sr-only">{t("blog.pagination.page", { page: formatNumber(n, locale) })}</span>
                  <span aria-hidden="true">{formatNumber(n, locale)}</span>
                </span>
              ) : (
                <Link
                  to={pageHref(path, n, query)}
                  aria-label={t("blog.pagination.page", { page: formatNumber(n, locale) })}
                  className={IDLE}
                >
                  {formatNumber(n, locale)}
                </Link>
              )}
            </li>
          ),
        )}
        {page < pages && (
          <li>
            <Link to={pageHref(path, page + 1, query)} rel="next" className={IDLE}>
              {t("blog.pagination.next")}
              <ArrowForward />
            </Link>
          </li>
        )}
      </ul>
    </nav>
  );
}
