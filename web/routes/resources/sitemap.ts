import { buildSitemapIndex } from "../../data/feeds.server.ts";
import { siteOrigin } from "../../data/origin.server.ts";
import type { Route } from "./+types/sitemap";

/** `/sitemap.xml`: the sitemap index, naming each part (`/sitemap/<n>.xml`, at most 50,000 URLs each). */
export async function loader({ request }: Route.LoaderArgs) {
  return new Response(await buildSitemapIndex(siteOrigin(request)), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=600" },
  });
}
