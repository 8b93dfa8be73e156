import { inboxEvents } from "../../data/inbox-events.server.ts";
import type { Route } from "./+types/admin-inbox-events";

/** `GET /admin/inbox/events`: the live unread count as server-sent events, for studio members (issue #31). */
export async function loader({ request }: Route.LoaderArgs) {
  return inboxEvents(request);
}
