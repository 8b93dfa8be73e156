import { useRouteLoaderData } from "react-router";

/** One link of the header's and footer's navigation: its message (`nav.<key>`) and its path below the locale. */
export interface NavItem {
  key: string;
  path: string;
}

const BEFORE_KINDS: readonly NavItem[] = [
  { key: "home", path: "" },
  { key: "about", path: "/about" },
  { key: "services", path: "/services" },
];
const AFTER_KINDS: readonly NavItem[] = [
  { key: "community", path: "/community" },
  { key: "partner", path: "/partner" },
  { key: "contact", path: "/contact" },
];

/**
 * Header navigation of spec §2, in order: home, about, services, each kind's list (`lists`: the kinds' public
 * paths in the table's order, which also name their `nav.<path>` message), community, partner, contact.
 */
export function navOf(lists: readonly string[]): NavItem[] {
  return [...BEFORE_KINDS, ...lists.map((path) => ({ key: path, path: `/${path}` })), ...AFTER_KINDS];
}

/**
 * The kinds' public list paths (`ventures`, `blog`) as the public layout's loader sends them, so the browser's
 * code iterates the kinds table without carrying it; empty outside the public pages.
 */
export function useKindLists(): readonly string[] {
  return useRouteLoaderData<{ lists?: string[] }>("routes/public/layout")?.lists ?? [];
}

/** The navigation of the page being rendered (`navOf` the kinds' lists). */
export function useNav(): NavItem[] {
  return navOf(useKindLists());
}
