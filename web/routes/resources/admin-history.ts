import { loadHistory, restoreFromHistory } from "../../data/history.server.ts";
import type { Route } from "./+types/admin-history";

/**
 * An edit page's history (issue #16 item 4), for signed-in users: GET `?kind=&id=` → `{revisions, current}`
 * (the item's revisions the user may read, newest first, and its current text fields); POST `kind`, `id`,
 * `revisionId` restores that revision and redirects back to the edit page.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return loadHistory(request);
}

export async function action({ request }: Route.ActionArgs) {
  return restoreFromHistory(request);
}
