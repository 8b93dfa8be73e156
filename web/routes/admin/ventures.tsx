import { ItemList } from "../../components/admin/item-list.tsx";
import { deleteFromList, sessionServices } from "../../data/admin.server.ts";
import { listPage, listQueryOf } from "../../data/admin-lists.server.ts";
import { requireUser } from "../../data/session.server.ts";
import { accessOf, listScopeOf } from "../../data/access.server.ts";
import { adminTitle } from "../../i18n/admin-title.ts";
import type { Route } from "./+types/ventures";

/**
 * Admin venture list (spec §2); "Failed to fetch ventures." on failure (§8). The URL's query picks the page
 * (`list-query.ts`, issue #17 item 6): `?q=` searches titles, `?sort=`, `?page=` (50 a page), `?state=` filters
 * by state (issue #16), `?translation=` by a language's translation state (issue #15).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { secret, user } = await requireUser(request);
  const query = listQueryOf(request);
  try {
    const scope = listScopeOf(user, await accessOf(user));
    return { list: await listPage(sessionServices(secret), "venture", query, scope), query };
  } catch (error) {
    console.error("Listing ventures failed:", error);
    return { list: null, query };
  }
}

export async function action({ request }: Route.ActionArgs) {
  const { secret, user } = await requireUser(request);
  return deleteFromList(request, "venture", secret, user);
}

export function meta({ matches }: Route.MetaArgs) {
  return adminTitle(matches, "admin.ventures.title");
}

export default function AdminVentures({ loaderData }: Route.ComponentProps) {
  return <ItemList kind="venture" list={loaderData.list} query={loaderData.query} />;
}
