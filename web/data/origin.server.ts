/**
 * The site's public origin for absolute URLs (canonical links, hreflang, Open Graph, sitemap, feeds): the
 * `SITE_URL` environment variable when set (a deployment behind a proxy), else the origin of the request.
 */
let configured: string | null | undefined;

function configuredOrigin(): string | null {
  if (configured === undefined) {
    const value = process.env.SITE_URL?.trim();
    configured = null;
    if (value) {
      try {
        const url = new URL(value);
        if (url.protocol === "http:" || url.protocol === "https:") configured = url.origin;
      } catch {
        console.warn(`[site] SITE_URL "${value}" is not an http(s) URL; using the request's origin.`);
      }
    }
  }
  return configured;
}

/** `https://host[:port]` of the site as visitors reach it. */
export function siteOrigin(request: Request): string {
  return configuredOrigin() ?? new URL(request.url).origin;
}
