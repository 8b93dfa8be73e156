import { isLocale } from "../../i18n/i18n.ts";
import { buildRss } from "../../data/feeds.server.ts";
import { siteOrigin } from "../../data/origin.server.ts";
import type { Route } from "./+types/rss";

/** `/{locale}/rss.xml`: the blog's RSS feed in that locale; other first segments are not found. */
export async function loader({ request, params }: Route.LoaderArgs) {
  if (!isLocale(params.locale)) return new Response("Not found", { status: 404 });
  return new Response(await buildRss(siteOrigin(request), params.locale), {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=600" },
  });
}
