import { inboxExport } from "../../data/inbox-page.server.ts";
import type { Route } from "./+types/admin-inbox-export";

/** `GET /admin/inbox/export.csv?kind=&state=&q=`: the filtered inbox as CSV, for studio members (issue #31). */
export async function loader({ request }: Route.LoaderArgs) {
  return inboxExport(request);
}
