import { Outlet, data, useRouteLoaderData, type ShouldRevalidateFunctionArgs } from "react-router";
import { ErrorView, type NotFoundData } from "../../components/error-view.tsx";
import { SiteShell } from "../../components/site-shell.tsx";
import { isLocale } from "../../i18n/i18n.ts";
import { siteOrigin } from "../../data/origin.server.ts";
import { withBackend } from "../../data/appwrite.server.ts";
import { getSignedIn } from "../../data/session.server.ts";
import { CONTENT_KIND_NAMES, CONTENT_MODEL } from "../../../model/model.ts";
import type { Route } from "./+types/layout";

/**
 * Only `en` and `ar` apply a language (spec §2); any other first segment is a 404. Gives the pages the site
 * origin for their absolute SEO URLs.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  if (!isLocale(params.locale)) throw data<NotFoundData>({ notFound: "page" }, { status: 404 });
  // The header's Admin link shows only for a signed-in user (spec §2); no cookie, no Appwrite call.
  const signedIn = await withBackend(() => getSignedIn(request)).catch(() => null);
  // The kinds' list paths, for the navigation and the list skeletons (`web/components/nav.ts`).
  const lists = CONTENT_KIND_NAMES.map((kind) => CONTENT_MODEL[kind].publicPath as string);
  return { origin: siteOrigin(request), signedIn: signedIn !== null, lists };
}

/** Revalidated when the language changes or after a form post (sign-in state may change); the origin never does. */
export function shouldRevalidate({ currentParams, nextParams, formMethod }: ShouldRevalidateFunctionArgs) {
  return currentParams.locale !== nextParams.locale || (formMethod !== undefined && formMethod !== "GET");
}

export default function LocaleLayout({ loaderData }: Route.ComponentProps) {
  return (
    <SiteShell showAdmin={loaderData.signedIn}>
      <Outlet />
    </SiteShell>
  );
}

/** Errors of every public page render inside the shell, in the page's language. */
export function ErrorBoundary() {
  const layout = useRouteLoaderData<typeof loader>("routes/public/layout");
  return (
    <SiteShell showAdmin={layout?.signedIn ?? false}>
      <ErrorView />
    </SiteShell>
  );
}
