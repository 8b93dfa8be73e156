import { buildSitemap } from "../../server/feeds.server.ts";
import { siteOrigin } from "../../server/origin.server.ts";
import type { Route } from "./+types/sitemap";

/** `/sitemap.xml`: both locales of every page, venture and post. */
export async function loader({ request }: Route.LoaderArgs) {
  return new Response(await buildSitemap(siteOrigin(request)), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=600" },
  });
}
