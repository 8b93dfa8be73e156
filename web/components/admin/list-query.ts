/**
 * What an admin list shows (issue #17 item 6), read from and written to its URL's query, so a link or a
 * reload keeps it and it works without JavaScript: `?q=` (search by title/name), `?sort=`, `?page=`, and the
 * filters `?state=` (issue #16) and `?translation=` (issue #15). Plain data, read by the loaders and the
 * browser alike.
 */
import { isItemState, type ItemState } from "../../../model/lifecycle.ts";
import { TRANSLATION_STATES, type TranslationState } from "../../../lib/translate/status.ts";

/** The orders of a list: by date (the kind's `order` field) or by title/name, each both ways. */
export const LIST_SORTS = ["date-desc", "date-asc", "name-asc", "name-desc"] as const;
export type ListSort = (typeof LIST_SORTS)[number];

/** Items per page: the list is paged once there are more. */
export const PAGE_SIZE = 50;

/** The longest search the list accepts (longer input is cut). */
export const SEARCH_MAX = 100;

/** A list's query. `page` counts from 1; `search` is trimmed, "" for none. */
export interface ListQuery {
  state: ItemState | null;
  translation: TranslationState | null;
  search: string;
  sort: ListSort;
  page: number;
}

/** The list's query as the URL gives it; anything unknown or malformed is its default (all, newest first, page 1). */
export function parseListQuery(params: URLSearchParams): ListQuery {
  const state = params.get("state");
  const translation = params.get("translation") ?? "";
  const sort = params.get("sort") ?? "";
  const page = Number(params.get("page"));
  return {
    state: isItemState(state) ? state : null,
    translation: (TRANSLATION_STATES as readonly string[]).includes(translation)
      ? (translation as TranslationState)
      : null,
    search: (params.get("q") ?? "").trim().slice(0, SEARCH_MAX),
    sort: (LIST_SORTS as readonly string[]).includes(sort) ? (sort as ListSort) : "date-desc",
    page: Number.isSafeInteger(page) && page > 1 ? page : 1,
  };
}

/**
 * The URL of the list at `base` with `query` changed by `change`, defaults left out. A change of anything
 * but the page starts again at page 1 (the old page may no longer exist).
 */
export function listHref(base: string, query: ListQuery, change: Partial<ListQuery> = {}): string {
  const next = { ...query, ...change, page: change.page ?? (Object.keys(change).length ? 1 : query.page) };
  const params = new URLSearchParams();
  if (next.search) params.set("q", next.search);
  if (next.state) params.set("state", next.state);
  if (next.translation) params.set("translation", next.translation);
  if (next.sort !== "date-desc") params.set("sort", next.sort);
  if (next.page > 1) params.set("page", String(next.page));
  return params.size ? `${base}?${params}` : base;
}

/** The pages worth a link: the first, the last, and two either side of the current one; null for a gap. */
export function pageLinks(page: number, pages: number): (number | null)[] {
  const out: (number | null)[] = [];
  for (let p = 1; p <= pages; p += 1) {
    if (p === 1 || p === pages || Math.abs(p - page) <= 2) out.push(p);
    else if (out.at(-1) !== null) out.push(null);
  }
  return out;
}
