import { useEffect } from "react";
import { matchPath, useLocation, useNavigation, useNavigationType } from "react-router";
import { Footer } from "./footer.tsx";
import { Header } from "./header.tsx";
import { isLocale } from "../i18n/i18n.ts";
import { ListSkeleton, type ListKind } from "./list-skeleton.tsx";
import { useKindLists } from "./nav.ts";

/** Scrolls to the top on every path change (spec §2), except back/forward, which restore the position. */
function ScrollToTop() {
  const { pathname } = useLocation();
  const type = useNavigationType();
  useEffect(() => {
    if (type !== "POP") window.scrollTo({ top: 0, left: 0, behavior: "instant" });
  }, [pathname, type]);
  return null;
}

/** The list page being loaded by a client navigation from another page, if any (spec §2: 6 skeletons). */
function useLoadingList(): ListKind | null {
  const navigation = useNavigation();
  const lists = useKindLists();
  const { pathname } = useLocation();
  if (navigation.state !== "loading" || navigation.location.pathname === pathname) return null;
  const target = navigation.location.pathname;
  const list = matchPath("/:locale/:list", target);
  // `/admin/ventures` matches the pattern too: only a real locale segment is a public list.
  if (!list || !isLocale(list.params.locale)) return null;
  return lists.find((path) => path === list.params.list) ?? null;
}

/**
 * Header, main and footer shared by every public page (spec §2). While a client navigation loads the
 * list of a kind (`useKindLists`), the main area shows that list's skeleton.
 */
export function SiteShell({ children, showAdmin = false }: { children: React.ReactNode; showAdmin?: boolean }) {
  const loadingList = useLoadingList();
  return (
    <>
      <ScrollToTop />
      <Header showAdmin={showAdmin} />
      <main id="main" tabIndex={-1} className="mx-auto max-w-6xl px-5 outline-none">
        {loadingList ? <ListSkeleton kind={loadingList} /> : children}
      </main>
      <Footer />
    </>
  );
}
