/**
 * The admin dashboard's data (spec §2, §7; issue #16; issue #29 item 10): per kind how many items (an item is
 * its language versions, which share a slug, as the admin lists count them) and how many versions in each
 * language; the items by state; the most recently changed drafts and the next scheduled items. Read with the
 * user's session, so it counts only what the account may see (issue #28 item 3).
 */
import { Query, type Models } from "node-appwrite";
import type { SessionServices } from "../../lib/appwrite/client.ts";
import {
  dateField,
  dueTimeOf,
  PUBLISH_AT_COLUMN,
  STATUS_COLUMN,
  stateOf,
  type ItemState,
} from "../../model/lifecycle.ts";
import {
  CONTENT_KIND_NAMES,
  CONTENT_LOCALES,
  CONTENT_MODEL,
  DEFAULT_CONTENT_LOCALE,
  type ContentKind,
  type ContentLocale,
} from "../../model/model.ts";
import { getI18n } from "../i18n/catalog.server.ts";
import { formatDate } from "../../lib/text/dates.ts";
import { siteTimeZone } from "../../lib/publish/site-time-zone.ts";
import { getApiKeyServices } from "./appwrite.server.ts";
import { DEFAULT_LOCALE, intlLocaleOf, type Locale } from "../i18n/i18n.ts";
import { documentLocale } from "./admin-versions.server.ts";
import { scanRows, scopeQueries, type ListScope } from "./admin-lists.server.ts";

/** How many recent drafts and upcoming scheduled items the dashboard lists. */
export const DASHBOARD_LIST_SIZE = 5;

/** One kind's totals: its items, and its versions by language ("8 in English and 5 in Arabic"). */
export interface KindTotals {
  items: number;
  versions: Record<ContentLocale, number>;
  /** The versions in words, in the admin's language, e.g. "8 in English and 5 in Arabic". */
  versionsText: string;
}

/** An item of the dashboard's lists. */
export interface DashboardItem {
  kind: ContentKind;
  /** The document the edit link opens (the version the admin lists show: English, else the first). */
  id: string;
  /** Its title in the admin's language where that version exists, else the shown version's. */
  title: string;
  /** The language of `title` (its `lang` and direction). */
  titleLocale: ContentLocale;
  state: ItemState;
  /** When it was last changed (a draft) or goes live (a scheduled item), as the admin writes it. */
  when: string;
  /** The same instant, ISO 8601 (a `<time>`'s `dateTime`). */
  at: string;
}

/** The dashboard: totals per kind and by state, recent drafts, next scheduled items. */
export interface Dashboard {
  kinds: Record<ContentKind, KindTotals>;
  published: number;
  scheduled: number;
  drafts: number;
  recentDrafts: DashboardItem[];
  upcoming: DashboardItem[];
}

/** Every row of `kind` `scope` may see, with the fields the dashboard reads (the lists' scan, `scanRows`). */
function rowsOf(session: SessionServices, kind: ContentKind, scope?: ListScope): Promise<Models.DefaultRow[]> {
  const spec = CONTENT_MODEL[kind];
  const fields = [
    ...new Set(["slug", "locale", STATUS_COLUMN, PUBLISH_AT_COLUMN, spec.title, ...[dateField(kind) ?? []].flat()]),
  ];
  return scanRows(session, kind, [...scopeQueries(scope), Query.select(fields)]);
}

/**
 * The dashboard for `locale` (the admin's language). Items are grouped by slug, as the admin lists group
 * them; an item's state is its shown version's (English, else the first), as the lists' state filter reads it.
 * With `scope.owner`, only that user's items (what their lists show).
 * @throws {AppwriteException} when Appwrite cannot be read (the route logs it and shows dashes, spec §8).
 */
export async function loadDashboard(session: SessionServices, locale: Locale, scope?: ListScope): Promise<Dashboard> {
  const { t } = getI18n(locale);
  // Times in the site's time zone, in the admin's one date format (issue #29 items 2 and 7).
  const timeZone = await siteTimeZone(getApiKeyServices().client);
  const list = new Intl.ListFormat(locale === DEFAULT_LOCALE ? "en-GB" : intlLocaleOf(locale), { type: "conjunction" });
  const kinds = {} as Record<ContentKind, KindTotals>;
  const byState: Record<ItemState, number> = { published: 0, scheduled: 0, draft: 0 };
  const drafts: DashboardItem[] = [];
  const upcoming: DashboardItem[] = [];
  for (const kind of CONTENT_KIND_NAMES) {
    const rows = await rowsOf(session, kind, scope);
    const versions = Object.fromEntries(CONTENT_LOCALES.map((l) => [l, 0])) as Record<ContentLocale, number>;
    const items = new Map<string, Models.DefaultRow[]>();
    for (const row of rows) {
      versions[documentLocale(row)] += 1;
      items.set(String(row.slug), [...(items.get(String(row.slug)) ?? []), row]);
    }
    const present = CONTENT_LOCALES.filter((l) => versions[l] > 0);
    kinds[kind] = {
      items: items.size,
      versions,
      versionsText: list.format(present.map((l) => t(`admin.dashboard.inLocale.${l}`, { count: String(versions[l]) }))),
    };
    for (const all of items.values()) {
      const shown = all.find((r) => documentLocale(r) === DEFAULT_CONTENT_LOCALE) ?? all[0]!;
      const titled = all.find((r) => documentLocale(r) === (locale as string)) ?? shown;
      const state = stateOf(shown);
      byState[state] += 1;
      if (state === "published") continue;
      const due = state === "scheduled" ? dueTimeOf(kind, shown) : null;
      const at = due ? new Date(due).toISOString() : shown.$updatedAt;
      const item: DashboardItem = {
        kind,
        id: shown.$id,
        title: String(titled[CONTENT_MODEL[kind].title] ?? ""),
        titleLocale: documentLocale(titled),
        state,
        when: formatDate(at, "moment", locale, timeZone),
        at,
      };
      (state === "draft" ? drafts : upcoming).push(item);
    }
  }
  return {
    kinds,
    published: byState.published,
    scheduled: byState.scheduled,
    drafts: byState.draft,
    recentDrafts: drafts.sort((a, b) => b.at.localeCompare(a.at)).slice(0, DASHBOARD_LIST_SIZE),
    upcoming: upcoming.sort((a, b) => a.at.localeCompare(b.at)).slice(0, DASHBOARD_LIST_SIZE),
  };
}
