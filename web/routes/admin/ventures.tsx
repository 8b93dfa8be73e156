import { ItemList } from "../../components/admin/item-list.tsx";
import { deleteFromList, listRows, sessionServices } from "../../server/admin.server.ts";
import { requireUser } from "../../server/session.server.ts";
import type { Route } from "./+types/ventures";

/** Admin venture list (spec §2); "Failed to fetch ventures." on failure (§8). */
export async function loader({ request }: Route.LoaderArgs) {
  const { secret } = await requireUser(request);
  try {
    return { rows: await listRows(sessionServices(secret), "venture") };
  } catch (error) {
    console.error("Listing ventures failed:", error);
    return { rows: null };
  }
}

export async function action({ request }: Route.ActionArgs) {
  const { secret, user } = await requireUser(request);
  return deleteFromList(request, "venture", secret, user);
}

export function meta() {
  return [{ title: "Manage Ventures | Admin" }];
}

export default function AdminVentures({ loaderData }: Route.ComponentProps) {
  return <ItemList kind="venture" rows={loaderData.rows} />;
}
