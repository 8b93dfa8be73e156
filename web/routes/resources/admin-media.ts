import { loadMediaList, mediaAction } from "../../data/media.server.ts";
import type { Route } from "./+types/admin-media";

/**
 * The media library's API for the picker and the media page (issue #30 item 3), the studio team's only (404 for
 * anyone else): `GET /admin/media/api?q=` lists the images (`MediaList`), `POST` writes one (`mediaAction`:
 * upload, alt texts, replace, delete, suggest alt text). Cross-site posts are refused by the site server
 * (SECURITY C9); bodies are capped before they are read (C30).
 */
export async function loader({ request }: Route.LoaderArgs) {
  return loadMediaList(request);
}

export async function action({ request }: Route.ActionArgs) {
  return mediaAction(request);
}
