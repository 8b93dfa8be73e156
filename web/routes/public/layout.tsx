import { Outlet, data, type ShouldRevalidateFunctionArgs } from "react-router";
import { ErrorView, type NotFoundData } from "../../components/error-view.tsx";
import { SiteShell } from "../../components/site-shell.tsx";
import { isLocale } from "../../i18n/i18n.ts";
import { siteOrigin } from "../../server/origin.server.ts";
import type { Route } from "./+types/layout";

/**
 * Only `en` and `ar` apply a language (spec §2); any other first segment is a 404. Gives the pages the site
 * origin for their absolute SEO URLs.
 */
export function loader({ params, request }: Route.LoaderArgs) {
  if (!isLocale(params.locale)) throw data<NotFoundData>({ notFound: "page" }, { status: 404 });
  return { origin: siteOrigin(request) };
}

/** Revalidated only when the language changes: the origin never does. */
export function shouldRevalidate({ currentParams, nextParams }: ShouldRevalidateFunctionArgs) {
  return currentParams.locale !== nextParams.locale;
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
