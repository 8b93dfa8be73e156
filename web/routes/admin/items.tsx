import { ItemList } from "../../components/admin/item-list.tsx";
import { deleteFromList, sessionServices } from "../../data/admin.server.ts";
import { listPage, listQueryOf } from "../../data/admin-lists.server.ts";
import { preferredLocale, requireUser } from "../../data/session.server.ts";
import { accessOf, listScopeOf } from "../../data/access.server.ts";
import { adminTitle } from "../../i18n/admin-title.ts";
import { adminKindOf } from "../../kind-route.ts";
import { CONTENT_MODEL } from "../../../model/model.ts";
import type { Route } from "./+types/items";
import { getApiKeyServices } from "../../data/appwrite.server.ts";
import { siteTimeZone } from "../../../lib/publish/site-time-zone.ts";

/**
 * The admin's list of a kind (spec §2), mounted once per kind at `/admin/<adminPath>` (`web/routes.ts`);
 * "Failed to fetch ventures." / "Failed to fetch blog posts." on failure (§8). The URL's query picks the page
 * (`list-query.ts`, issue #17 item 6): `?q=` searches titles, `?sort=`, `?page=` (50 a page), `?state=` filters
 * by state (issue #16), `?translation=` by a language's translation state (issue #15).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { secret, user } = await requireUser(request);
  const kind = adminKindOf(request.url);
  const query = listQueryOf(request);
  try {
    // The team sees every item, anyone else their own (issue #28 item 3).
    // Rows in the admin's language where the item has that version (issue #29 item 7).
    const scope = { ...listScopeOf(user, await accessOf(user)), locale: preferredLocale(request) };
    const [list, timeZone] = await Promise.all([
      listPage(sessionServices(secret), kind, query, scope),
      siteTimeZone(getApiKeyServices().client),
    ]);
    return { kind, list, query, timeZone };
  } catch (error) {
    console.error(`Listing ${CONTENT_MODEL[kind].collectionId} failed:`, error);
    return { kind, list: null, query, timeZone: undefined };
  }
}

export async function action({ request }: Route.ActionArgs) {
  const { secret, user } = await requireUser(request);
  return deleteFromList(request, adminKindOf(request.url), secret, user);
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminTitle(matches, `admin.${CONTENT_MODEL[adminKindOf(location.pathname)].adminPath}.title`);
}

export default function AdminItems({ loaderData }: Route.ComponentProps) {
  const { kind, list, query, timeZone } = loaderData;
  return <ItemList kind={kind} list={list} query={query} timeZone={timeZone} />;
}
