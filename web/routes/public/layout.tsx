import { Outlet, data } from "react-router";
import { ErrorView, type NotFoundData } from "../../components/error-view.tsx";
import { SiteShell } from "../../components/site-shell.tsx";
import { isLocale } from "../../i18n/i18n.ts";
import type { Route } from "./+types/layout";

/** Only `en` and `ar` apply a language (spec §2); any other first segment is a 404. */
export function loader({ params }: Route.LoaderArgs) {
  if (!isLocale(params.locale)) throw data<NotFoundData>({ notFound: "page" }, { status: 404 });
  return null;
}

export default function LocaleLayout() {
  return (
    <SiteShell>
      <Outlet />
    </SiteShell>
  );
}

/** Errors of every public page render inside the shell, in the page's language. */
export function ErrorBoundary() {
  return (
    <SiteShell>
      <ErrorView />
    </SiteShell>
  );
}
