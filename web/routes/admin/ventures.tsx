import { ItemList } from "../../components/admin/item-list.tsx";
import { deleteFromList, sessionServices } from "../../server/admin.server.ts";
import { listRows, stateFilterOf, translationFilterOf } from "../../server/admin-lists.server.ts";
import { requireUser } from "../../server/session.server.ts";
import { adminTitle } from "../../i18n/admin-title.ts";
import type { Route } from "./+types/ventures";

/** Admin venture list (spec §2); "Failed to fetch ventures." on failure (§8). `?state=` filters by state (issue #16), `?translation=` by a language's translation state (issue #15). */
export async function loader({ request }: Route.LoaderArgs) {
  const { secret } = await requireUser(request);
  const state = stateFilterOf(request);
  const translation = translationFilterOf(request);
  try {
    const rows = await listRows(sessionServices(secret), "venture", state ?? undefined, translation ?? undefined);
    return { rows, state, translation };
  } catch (error) {
    console.error("Listing ventures failed:", error);
    return { rows: null, state, translation };
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
  return (
    <ItemList kind="venture" rows={loaderData.rows} state={loaderData.state} translation={loaderData.translation} />
  );
}
