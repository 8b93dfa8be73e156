import { buildSitemapPart } from "../../data/feeds.server.ts";
import { siteOrigin } from "../../data/origin.server.ts";
import type { Route } from "./+types/sitemap-part";

/**
 * `/sitemap/<n>.xml`: part n (from 1) of the sitemap, both locales of every page, venture and post in turn;
 * another name or a part past the last is not found.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const match = /^([1-9]\d{0,5})\.xml$/.exec(params.file);
  const body = match ? await buildSitemapPart(siteOrigin(request), Number(match[1])) : null;
  if (body === null) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=600" },
  });
}
