import { ItemList } from "../../components/admin/item-list.tsx";
import { deleteFromList, sessionServices } from "../../server/admin.server.ts";
import { listRows, stateFilterOf } from "../../server/admin-lists.server.ts";
import { requireUser } from "../../server/session.server.ts";
import type { Route } from "./+types/blog";

/** Admin blog list (spec §2); "Failed to fetch blog posts." on failure (§8). `?state=` filters by state (issue #16). */
export async function loader({ request }: Route.LoaderArgs) {
  const { secret } = await requireUser(request);
  const state = stateFilterOf(request);
  try {
    return { rows: await listRows(sessionServices(secret), "post", state ?? undefined), state };
  } catch (error) {
    console.error("Listing posts failed:", error);
    return { rows: null, state };
  }
}

export async function action({ request }: Route.ActionArgs) {
  const { secret, user } = await requireUser(request);
  return deleteFromList(request, "post", secret, user);
}

export function meta() {
  return [{ title: "Manage Blog | Admin" }];
}

export default function AdminBlog({ loaderData }: Route.ComponentProps) {
  return <ItemList kind="post" rows={loaderData.rows} state={loaderData.state} />;
}
