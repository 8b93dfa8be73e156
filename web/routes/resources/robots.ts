import { siteOrigin } from "../../data/origin.server.ts";
import type { Route } from "./+types/robots";

/** `/robots.txt`: everything public may be crawled, the admin may not; points at the sitemap. */
export function loader({ request }: Route.LoaderArgs) {
  const body = ["User-agent: *", "Allow: /", "Disallow: /admin", "", `Sitemap: ${siteOrigin(request)}/sitemap.xml`, ""];
  return new Response(body.join("\n"), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
